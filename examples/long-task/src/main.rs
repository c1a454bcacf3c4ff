//! A long tool run as a task (the tasks extension): a client that declares
//! the extension gets a task handle at once, polls it with `tasks/get`,
//! and stops it with `tasks/cancel`; the tool sees the cancellation and
//! ends. Tasks are kept in SQLite, so they outlive a restart.
//!
//! ```sh
//! cargo run -p long-task -- 127.0.0.1:8080 tasks.db
//! ```

use std::time::Duration;

use mcp_server::prelude::*;

/// Counts to `to`, one a second, and says how far it got.
#[tool]
async fn count_slowly(ctx: RequestContext, to: u32) -> String {
    for n in 1..=to {
        tokio::select! {
            () = ctx.cancellation().cancelled() => return format!("stopped at {n}"),
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
    }
    format!("counted to {to}")
}
mcp_tasks::task!(count_slowly);

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let address = args.next().unwrap_or_else(|| "127.0.0.1:8080".into());
    let database = args.next().unwrap_or_else(|| "tasks.db".into());
    let server = Server::builder()
        .named("long-task", env!("CARGO_PKG_VERSION"))
        .setting("tasks.store", "sqlite")
        .setting("tasks.sqlite_path", database)
        .build();
    let address = address.parse().map_err(std::io::Error::other)?;
    mcp_server::transport::http::serve(server, address).await
}
