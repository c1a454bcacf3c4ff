//! `http-rmcp-peer ADDRESS:PORT [stateless|session]`: rmcp serving
//! `test_simple_text` over Streamable HTTP at `http://ADDRESS:PORT/mcp`,
//! with `TCP_NODELAY` on every connection.
//!
//! `stateless` (the default) answers every request on its own, with a JSON
//! body rather than an event stream; `session` keeps rmcp's legacy sessions,
//! opened by `initialize`, for clients of protocol versions before
//! 2026-07-28 (rmcp answers those with event streams). A 2026-07-28 request
//! is stateless in both modes.

mod peer;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::serve::ListenerExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr: SocketAddr = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8092)));
    let sessions = match args.next().as_deref() {
        None | Some("stateless") => false,
        Some("session") => true,
        Some(other) => {
            eprintln!("http-rmcp-peer: unknown mode `{other}`: give stateless or session");
            std::process::exit(2);
        }
    };
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(sessions)
        .with_json_response(!sessions);
    let peer = peer::Peer::new();
    let service = StreamableHttpService::new(
        move || Ok(peer.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(async move {
            let listener = tokio::net::TcpListener::bind(addr).await?.tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            axum::serve(listener, app).await
        })
}
