//! `mcp-demo`: serves the demo server on stdio or Streamable HTTP.
//!
//! `mcp-demo --stdio`, `mcp-demo --http 127.0.0.1:8080` (the endpoint is
//! `http://127.0.0.1:8080/mcp`; add `--cors-origin https://app.example.com`
//! to let that web application call it from a browser) or `mcp-demo
//! --help`; a missing or unknown argument prints the usage on stderr and
//! exits with status 2. Logs go to stderr: stdout carries only protocol
//! messages.

use std::io;
use std::net::SocketAddr;
use std::process::ExitCode;

use mcp_demo::cli::{self, Command};
use mcp_server::Server;
use mcp_server::transport::http::{HttpConfig, bind, router, serve_on};
use mcp_server::transport::stdio::serve_stdio;

/// The exit status of a command line that could not be read.
const USAGE_ERROR: u8 = 2;

fn main() -> ExitCode {
    let command = match cli::parse(std::env::args().skip(1)) {
        Ok(command) => command,
        Err(error) => {
            eprintln!("mcp-demo: {error}\n{}", cli::USAGE);
            return ExitCode::from(USAGE_ERROR);
        }
    };
    if command == Command::Help {
        print!("{}", cli::HELP);
        return ExitCode::SUCCESS;
    }
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp-demo: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Boots the server and serves it until the transport ends.
fn run(command: Command) -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let server = mcp_demo::server();
    runtime.block_on(async move {
        match command {
            Command::Stdio => {
                eprintln!("mcp-demo {}: serving stdio", env!("CARGO_PKG_VERSION"));
                serve_stdio(server).await
            }
            Command::Http { addr, cors_origins } => {
                eprintln!(
                    "mcp-demo {}: serving http://{addr}/mcp",
                    env!("CARGO_PKG_VERSION")
                );
                serve_http(server, addr, cors_origins).await
            }
            Command::Help => Ok(()),
        }
    })
}

/// Serves Streamable HTTP at `http://{addr}/mcp`, to browser pages of
/// `cors_origins` too.
async fn serve_http(server: Server, addr: SocketAddr, cors_origins: Vec<String>) -> io::Result<()> {
    let config = cors_origins
        .into_iter()
        .fold(HttpConfig::default(), HttpConfig::cors_allow_origin);
    serve_on(bind(addr)?, router(server, "/mcp", config)).await
}
