//! The template's one-tool server written with rmcp: `greet` over stdio (the
//! default) or Streamable HTTP (`weight-rmcp-http --http 127.0.0.1:8080`
//! serves http://127.0.0.1:8080/mcp), as the template's server does.

use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

#[path = "../../rmcp-greeter.rs"]
mod greeter;

use greeter::greeter;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (Some("--http"), Some(address)) => {
            let service = StreamableHttpService::new(
                || Ok(greeter()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            );
            let app = axum::Router::new().nest_service("/mcp", service);
            eprintln!("serving http://{address}/mcp");
            let listener = tokio::net::TcpListener::bind(address).await?;
            axum::serve(listener, app).await?;
        }
        _ => {
            greeter().serve(rmcp::transport::stdio()).await?.waiting().await?;
        }
    }
    Ok(())
}
