//! `http-plain-server ADDRESS:PORT`: the features server's `echo` alone,
//! with no interceptor and no guard linked: the HTTP benchmark's row beside
//! the features-on one, so the two differ only by the features.

#[path = "../tools.rs"]
mod tools;

use std::net::SocketAddr;

use mcp_server::Server;
use mcp_server::transport::http::serve;

fn main() -> std::io::Result<()> {
    let addr: SocketAddr = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8092)));
    let server = Server::builder()
        .named("http-plain-server", env!("CARGO_PKG_VERSION"))
        .build();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve(server, addr))
}
