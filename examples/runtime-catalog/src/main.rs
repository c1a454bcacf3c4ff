//! Tools that change while the server serves: `add_shortcut` adds a tool
//! to the runtime catalog, which is listed, called and announced
//! (`notifications/tools/list_changed`) like a tool of boot.
//!
//! ```sh
//! cargo run -p runtime-catalog     # stdio
//! ```

use mcp_server::catalog::CatalogChange;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::prelude::*;

/// Adds a tool named `name` that answers `answer`.
#[tool]
async fn add_shortcut(ctx: RequestContext, name: String, answer: String) -> Result<String, String> {
    let mut tool = Tool {
        name: name.clone(),
        description: Some(format!("Answers {answer:?}")),
        ..Tool::default()
    };
    tool.input_schema
        .insert("type".into(), serde_json::json!("object"));
    let answering = handler_fn::<CallTool, _, _, _>(move |_, _| {
        let answer = answer.clone();
        async move { Ok(CallToolResult::text(answer)) }
    });
    let change = CatalogChange::new(mcp_server::origin!()).add_tool(tool, answering);
    match ctx.catalog().apply(change) {
        Ok(applied) => Ok(format!(
            "added `{name}` (catalog version {})",
            applied.version
        )),
        // Refused with boot's own diagnostic: a name taken, say.
        Err(refused) => Err(refused.to_string()),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let server = Server::builder()
        .named("runtime-catalog", env!("CARGO_PKG_VERSION"))
        .build();
    mcp_server::transport::stdio::serve_stdio(server).await
}
