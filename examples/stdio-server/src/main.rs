//! An MCP server on stdio with one tool and nothing else linked: what a
//! local server needs, and no HTTP stack in its build.
//!
//! ```sh
//! cargo run -p stdio-server
//! ```

use mcp_server::core::tools::CallToolResult;
use mcp_server::prelude::*;

/// Greets `name`.
#[tool]
async fn greet(name: String) -> CallToolResult {
    CallToolResult::text(format!("Hello, {name}!"))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let server = Server::builder()
        .named("stdio-server", env!("CARGO_PKG_VERSION"))
        .build();
    mcp_server::transport::stdio::serve_stdio(server).await
}
