//! `http-features-server ADDRESS:PORT`: serves Streamable HTTP at
//! `http://ADDRESS:PORT/mcp` with one tool, `echo`, behind the framework's
//! per-request machinery.
//!
//! The tool's typed argument is checked against its generated input schema,
//! a raw, a typed and a handler-chain interceptor each see every call, and a
//! guard decides for every call (and allows it). It is what the HTTP
//! benchmark measures beside `mcp-demo`'s bare `test_simple_text`.

mod guard;
mod interceptors;
mod tools;

use std::net::SocketAddr;

use mcp_server::Server;
use mcp_server::transport::http::serve;

fn main() -> std::io::Result<()> {
    let addr: SocketAddr = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8091)));
    let server = Server::builder()
        .named("http-features-server", env!("CARGO_PKG_VERSION"))
        .build();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve(server, addr))
}
