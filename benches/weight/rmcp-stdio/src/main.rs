//! The template's one-tool server written with rmcp: `greet` over stdio.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ServiceExt, schemars, tool, tool_handler, tool_router};

/// The arguments of `greet`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct GreetArgs {
    /// Who to greet
    name: String,
}

/// The server: one tool.
#[derive(Clone)]
struct Greeter {
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

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let greeter = Greeter { tool_router: Greeter::tool_router() };
    let service = greeter.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
