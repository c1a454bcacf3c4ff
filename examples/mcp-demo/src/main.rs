//! `mcp-demo`: serves the demo server on stdio or Streamable HTTP.
//!
//! `mcp-demo --stdio`, `mcp-demo --http 127.0.0.1:8080` (the endpoint is
//! `http://127.0.0.1:8080/mcp`) or `mcp-demo --help`; a missing or unknown
//! argument prints the usage on stderr and exits with status 2. Logs go to
//! stderr: stdout carries only protocol messages.

use std::io;
use std::net::SocketAddr;
use std::process::ExitCode;

use mcp_demo::cli::{self, Command};
use mcp_server::Server;
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
            Command::Http(addr) => {
                eprintln!(
                    "mcp-demo {}: serving http://{addr}/mcp",
                    env!("CARGO_PKG_VERSION")
                );
                serve_http(server, addr).await
            }
            Command::Help => Ok(()),
        }
    })
}

/// Serves Streamable HTTP at `http://{addr}/mcp`.
async fn serve_http(server: Server, addr: SocketAddr) -> io::Result<()> {
    mcp_server::transport::http::serve(server, addr).await
}
