//! Serves one tool, `count_up`, that reports progress three times before
//! its result, with acme-stamp linked, over Streamable HTTP at
//! `http://ADDR/mcp`: what the interoperability job's TypeScript client
//! checks the stamps of.
//!
//! Usage: `acme-stamp-server ADDR` (such as `127.0.0.1:8080`).

use std::net::SocketAddr;
use std::time::Duration;

use acme_stamp as _;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::{RequestContext, Server, origin};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let Some(addr) = std::env::args()
        .nth(1)
        .and_then(|a| a.parse::<SocketAddr>().ok())
    else {
        eprintln!("usage: acme-stamp-server ADDR");
        std::process::exit(2);
    };
    let mut schema = serde_json::Map::new();
    schema.insert("type".into(), "object".into());
    let server = Server::builder()
        .named("acme-stamp-server", env!("CARGO_PKG_VERSION"))
        .contributor(
            origin!(),
            "count-up",
            contributor_fn(move |c| {
                c.tool(
                    Tool {
                        name: "count_up".into(),
                        description: Some("Reports progress three times, then answers".into()),
                        input_schema: schema.clone(),
                        ..Tool::default()
                    },
                    handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                        for n in 1..=3u32 {
                            ctx.progress().report(f64::from(n), Some(3.0), None);
                            // Each leaves while the call still runs.
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        Ok(CallToolResult::text("counted to 3"))
                    }),
                );
            }),
        )
        .build();
    mcp_server::transport::http::serve(server, addr).await
}
