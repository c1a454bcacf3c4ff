//! `listen-bench`: holds thousands of concurrent `subscriptions/listen`
//! streams over Streamable HTTP against a server built with the framework,
//! and reports the server process's memory per held stream and the time
//! from one publish to the last listener receiving the notification.
//!
//! ```text
//! listen-bench [STREAMS [ROUNDS]]   # driver (STREAMS, ROUNDS env too; 10000, 5)
//! listen-bench serve PORT [STREAMS] # the server alone, on 127.0.0.1:PORT
//! ```
//!
//! The driver starts `listen-bench serve` as a child process, so the
//! server's resident memory (`VmRSS` in `/proc/<pid>/status`) is its own,
//! opens the streams, then calls the tool `publish` (which publishes
//! `notifications/tools/list_changed`) once per round, over HTTP/1.1, and
//! times its arrival on every stream.
//!
//! `PROTOCOL=h1` (the default) opens each stream on its own raw HTTP/1.1
//! connection: each takes a file descriptor on both sides, so run it
//! through `benches/listen/run.sh`, which raises the open-file limit.
//! `PROTOCOL=h2` opens the streams over HTTP/2 with prior knowledge (h2c),
//! `STREAMS_PER_CONNECTION` (default 100; the server allows 200) on each
//! connection.
//!
//! Variables that change the server: `SERVER_KIND=bare` serves a bare
//! axum SSE handler instead of the framework (the HTTP stack's floor), and
//! `SERVER_WRAPPER="heaptrack -o FILE"` runs the server under a profiler
//! (it is stopped with `SIGINT`, so the profiler writes its data).

mod client;
mod drive;
mod h2;
mod serve;

use std::process::ExitCode;

/// The streams held unless told otherwise.
const DEFAULT_STREAMS: usize = 10_000;

/// The publish rounds timed unless told otherwise.
const DEFAULT_ROUNDS: usize = 5;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = if args.first().map(String::as_str) == Some("serve") {
        let Some(port) = args.get(1).and_then(|p| p.parse::<u16>().ok()) else {
            eprintln!("usage: listen-bench serve PORT [STREAMS]");
            return ExitCode::from(2);
        };
        let streams = number(args.get(2), "STREAMS", DEFAULT_STREAMS);
        serve::run(port, streams)
    } else {
        if args.iter().any(|a| a == "-h" || a == "--help") {
            eprintln!(
                "usage: listen-bench [STREAMS [ROUNDS]] (or the STREAMS and ROUNDS \
                 variables; defaults {DEFAULT_STREAMS} and {DEFAULT_ROUNDS})\n       \
                 listen-bench serve PORT [STREAMS]"
            );
            return ExitCode::from(2);
        }
        let streams = number(args.first(), "STREAMS", DEFAULT_STREAMS).max(1);
        let rounds = number(args.get(1), "ROUNDS", DEFAULT_ROUNDS).max(1);
        drive::run(streams, rounds)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("listen-bench: {error}");
            ExitCode::FAILURE
        }
    }
}

/// A count from the command line, else from the environment variable
/// `var`, else `default`.
fn number(arg: Option<&String>, var: &str, default: usize) -> usize {
    arg.cloned()
        .or_else(|| std::env::var(var).ok())
        .and_then(|n| n.trim().replace('_', "").parse().ok())
        .unwrap_or(default)
}
