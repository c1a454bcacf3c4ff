//! `soak-bench`: a soak of a Streamable HTTP server (1,000 concurrent
//! clients of both protocol eras calling tools for minutes, its memory
//! sampled throughout), and 10,000 idle keep-alive connections held
//! against it (its memory per connection).
//!
//! ```text
//! soak-bench port             # prints a free loopback port
//! soak-bench soak PORT PID    # CLIENTS (1000), DURATION (seconds, 180)
//! soak-bench hold PORT PID    # CONNECTIONS (10000), HOLD (seconds, 10)
//! ```
//!
//! The server listens on `127.0.0.1:PORT` with its endpoint at `/mcp` and
//! runs as process `PID`, whose `VmRSS` (`/proc/PID/status`) is its memory;
//! `benches/soak/run.sh` starts the release `mcp-demo` for each phase and
//! raises the open-file limit. The server must offer the tools
//! `test_simple_text`, `greet` and `sales_by_region` as `mcp-demo` does.
//! A phase exits with status 1 when any request failed, or a held
//! connection was closed: a framework server closes a connection that
//! sends no request head within `HttpConfig::header_timeout` (30 s by
//! default), so the hold (2 s settling plus `HOLD`) stays below it.

mod answer;
mod calls;
mod client;
mod conn;
mod histogram;
mod hold;
mod machine;
mod memory;
mod probe;
mod requests;
mod server;
mod soak;

use std::process::ExitCode;
use std::time::Duration;

use server::Server;

/// The soak's clients unless `CLIENTS` says.
const DEFAULT_CLIENTS: u64 = 1000;

/// The soak's length in seconds unless `DURATION` says.
const DEFAULT_DURATION_SECS: u64 = 180;

/// The connections held unless `CONNECTIONS` says.
const DEFAULT_CONNECTIONS: u64 = 10_000;

/// How many seconds they are held, past a 2 s settling, unless `HOLD` says.
const DEFAULT_HOLD_SECS: u64 = 10;

/// What a wrong command line is told.
const USAGE: &str = "usage: soak-bench port | soak PORT PID | hold PORT PID\n  \
    soak: CLIENTS (default 1000), DURATION (seconds, default 180)\n  \
    hold: CONNECTIONS (default 10000), HOLD (seconds, default 10)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match words.as_slice() {
        ["port"] => free_port().map(|port| {
            println!("{port}");
            true
        }),
        [phase @ ("soak" | "hold"), port, pid] => match (port.parse(), pid.parse()) {
            (Ok(port), Ok(pid)) => run(phase, Server { port, pid }),
            _ => Err(format!("PORT and PID must be numbers\n{USAGE}")),
        },
        _ => Err(USAGE.into()),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("soak-bench: {error}");
            ExitCode::from(2)
        }
    }
}

/// Runs `phase` against `server`; whether nothing failed.
fn run(phase: &str, server: Server) -> Result<bool, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async {
        server.wait_until_serving().await?;
        if phase == "soak" {
            let clients = setting("CLIENTS", DEFAULT_CLIENTS)?.max(1);
            let duration = setting("DURATION", DEFAULT_DURATION_SECS)?.max(1);
            soak::run(server, clients as usize, Duration::from_secs(duration)).await
        } else {
            let count = setting("CONNECTIONS", DEFAULT_CONNECTIONS)?.max(1);
            let hold = setting("HOLD", DEFAULT_HOLD_SECS)?;
            hold::run(server, count as usize, Duration::from_secs(hold)).await
        }
    })
}

/// A whole number from the environment variable `var` (`_` allowed, and
/// an `s` for seconds), else `default`.
fn setting(var: &str, default: u64) -> Result<u64, String> {
    match std::env::var(var) {
        Err(_) => Ok(default),
        Ok(value) => value
            .trim()
            .trim_end_matches('s')
            .replace('_', "")
            .parse()
            .map_err(|_| format!("{var}={value}: give a whole number")),
    }
}

/// A loopback port nobody listens on now.
fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("cannot find a free port: {e}"))
}
