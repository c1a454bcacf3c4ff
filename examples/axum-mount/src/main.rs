//! The MCP endpoint mounted in an existing axum app: the app's own routes
//! (`/`, `/orders/{id}`) and the server at `/mcp`, on one listener.
//!
//! ```sh
//! cargo run -p axum-mount -- 127.0.0.1:8080
//! curl http://127.0.0.1:8080/orders/7
//! ```

use axum::Router;
use axum::extract::Path;
use axum::routing::get;
use mcp_server::prelude::*;
use mcp_server::transport::http::{HttpConfig, bind, router, serve_on};

/// The status of an order, as the shop's own API answers it.
async fn status(id: u32) -> String {
    format!("order {id}: shipped")
}

/// Looks up the status of an order.
#[tool]
async fn order_status(id: u32) -> String {
    status(id).await
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8080".into());
    let address = address.parse().map_err(std::io::Error::other)?;
    let server = Server::builder()
        .named("axum-mount", env!("CARGO_PKG_VERSION"))
        .build();
    let app = Router::new()
        .route("/", get(|| async { "the shop" }))
        .route("/orders/{id}", get(|Path(id): Path<u32>| status(id)))
        .merge(router(server, "/mcp", HttpConfig::default()));
    serve_on(bind(address)?, app).await
}
