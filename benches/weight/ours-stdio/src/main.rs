//! The template's server (templates/server/src/main.rs) with its HTTP arm
//! left out: one tool, served over stdio.

use mcp_server::prelude::*;
use mcp_server::transport::stdio;

/// Greets someone by name.
#[tool]
async fn greet(#[arg(description = "Who to greet")] name: String) -> String {
    format!("Hello, {name}!")
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let server = Server::builder()
        .named("my-server", env!("CARGO_PKG_VERSION"))
        .build();
    stdio::serve_stdio(server).await
}
