//! my-server: one tool, served over stdio (the default) or Streamable HTTP
//! (`my-server --http 127.0.0.1:8080` serves http://127.0.0.1:8080/mcp).

use mcp_server::prelude::*;
use mcp_server::transport::{http, stdio};

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
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (Some("--http"), Some(address)) => {
            let address = address.parse().map_err(std::io::Error::other)?;
            eprintln!("serving http://{address}/mcp");
            http::serve(server, address).await
        }
        _ => stdio::serve_stdio(server).await,
    }
}
