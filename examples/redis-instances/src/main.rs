//! Several stateless instances behind one address, sharing state through
//! Redis: linking `mcp-redis` and setting `redis.url` moves the task store
//! (and used request states, and change delivery) into Redis, so a task
//! created on one instance is polled and cancelled on any other. Give every
//! instance the same `server.request_state_key`.
//!
//! ```sh
//! export MCP_REDIS__URL=redis://127.0.0.1:6379 MCP_SERVER__REQUEST_STATE_KEY=$(openssl rand -hex 32)
//! cargo run -p redis-instances -- 127.0.0.1:8081 &
//! cargo run -p redis-instances -- 127.0.0.1:8082
//! ```

use std::time::Duration;

use mcp_server::prelude::*;

// Linking activates it; `redis.url` points it at a server.
use mcp_redis as _;

/// Waits `seconds`, then says so.
#[tool]
async fn wait(ctx: RequestContext, seconds: u64) -> String {
    tokio::select! {
        () = ctx.cancellation().cancelled() => "cancelled".into(),
        () = tokio::time::sleep(Duration::from_secs(seconds)) => format!("waited {seconds} s"),
    }
}
mcp_tasks::task!(wait);

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8080".into());
    let server = Server::builder()
        .named("redis-instances", env!("CARGO_PKG_VERSION"))
        .build();
    let address = address.parse().map_err(std::io::Error::other)?;
    mcp_server::transport::http::serve(server, address).await
}
