//! The template's one tool written with rmcp, shared by the two rmcp
//! servers of the weight benchmark (each includes this file by path).

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_handler, tool_router};

/// The arguments of `greet`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct GreetArgs {
    /// Who to greet
    name: String,
}

/// The server: one tool.
#[derive(Clone)]
pub struct Greeter {
    tool_router: ToolRouter<Greeter>,
}

#[tool_router]
impl Greeter {
    /// Greets someone by name.
    #[tool(description = "Greets someone by name.")]
    async fn greet(&self, Parameters(GreetArgs { name }): Parameters<GreetArgs>) -> String {
        format!("Hello, {name}!")
    }
}

#[tool_handler(router = self.tool_router)]
impl rmcp::ServerHandler for Greeter {}

/// The server, ready to serve.
pub fn greeter() -> Greeter {
    Greeter { tool_router: Greeter::tool_router() }
}
