//! Hello over Streamable HTTP: one tool, served at `http://ADDRESS/mcp`
//! (with `/healthz` and `/readyz` beside it).
//!
//! ```sh
//! cargo run -p hello-http -- 127.0.0.1:8080
//! ```

use mcp_server::prelude::*;

/// Says hello to someone.
#[tool]
async fn hello(name: String) -> String {
    format!("Hello, {name}!")
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8080".into());
    let address = address.parse().map_err(std::io::Error::other)?;
    let server = Server::builder()
        .named("hello-http", env!("CARGO_PKG_VERSION"))
        .build();
    mcp_server::transport::http::serve(server, address).await
}
