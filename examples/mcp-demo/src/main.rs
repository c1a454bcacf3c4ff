//! `mcp-demo`: serves the demo server on stdio or Streamable HTTP, or
//! prints its boot report.
//!
//! `mcp-demo --stdio`, `mcp-demo --worker` (runs the tasks that instances
//! with `redis.queue` on queued), `mcp-demo --http 127.0.0.1:8080` (the endpoint is
//! `http://127.0.0.1:8080/mcp`, and the demo's interceptors alone are
//! served at `/interceptors`; add `--cors-origin https://app.example.com`
//! to let that web application call it from a browser), `mcp-demo
//! --boot-report [text|json]`, or `mcp-demo --help`; settings such as
//! `--task-store sqlite` or `--set tasks.ttl_ms=60000` apply to all three.
//! A command line that cannot be read prints why on stderr and exits with
//! status 2; a server that cannot boot prints its boot diagnostics on
//! stderr (coloured on a terminal) and exits with status 1. Logs go to
//! stderr: stdout carries only protocol messages or the report.

use std::io::{self, Write};
use std::net::SocketAddr;
use std::process::ExitCode;

use clap::Parser;
use mcp_demo::cli::{self, Cli, Mode, ReportFormat};
use mcp_server::Server;
use mcp_server::transport::http::{HttpConfig, bind, router, serve_until_drained};
use mcp_server::transport::stdio::serve_stdio;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let server = match mcp_demo::server_with(&cli.settings.settings()) {
        Ok(server) => server,
        Err(errors) => {
            cli::print_boot_failure(&errors);
            return ExitCode::FAILURE;
        }
    };
    // Exports spans and metrics to the collector `telemetry.otlp_endpoint`
    // names, if any; the guard exports what is left when serving ends.
    let telemetry = match cli.mode() {
        Mode::BootReport(_) => Ok(None),
        _ => mcp_telemetry::install(&mcp_telemetry::TelemetrySection::of(&server)),
    };
    let _telemetry = match telemetry {
        Ok(guard) => guard,
        Err(error) => {
            eprintln!("mcp-demo: {error}");
            return ExitCode::FAILURE;
        }
    };
    let version = env!("CARGO_PKG_VERSION");
    let result = match cli.mode() {
        Mode::BootReport(format) => print_report(&server, format),
        Mode::Worker => on_runtime(async move {
            let worker = mcp_redis::Worker::of(&server).map_err(io::Error::other)?;
            eprintln!(
                "mcp-demo {version}: running queued tasks as {}",
                worker.consumer()
            );
            let stop = tokio_util::sync::CancellationToken::new();
            let interrupted = stop.clone();
            // SIGTERM (a deploy) stops taking jobs as SIGINT does.
            let signals = server.shutdown().clone();
            signals.on_signals()?;
            tokio::spawn(async move {
                signals.draining().await;
                interrupted.cancel();
            });
            worker.run(stop).await;
            Ok(())
        }),
        Mode::Stdio => on_runtime(async move {
            eprintln!("mcp-demo {version}: serving stdio");
            // SIGTERM or SIGINT: read no more, answer what was read.
            server.shutdown().on_signals()?;
            serve_stdio(server).await
        }),
        Mode::Http { addr, cors_origins } => {
            // The demo's interceptors, alone, as the proposal's interceptor
            // servers serve them: `interceptors/list` and
            // `interceptor/invoke`, no tools.
            let interceptors = match mcp_interceptors::interceptor_server(&server)
                .named(format!("{}-interceptors", mcp_demo::NAME), version)
                .try_build()
            {
                Ok(interceptors) => interceptors,
                Err(errors) => {
                    cli::print_boot_failure(&errors);
                    return ExitCode::FAILURE;
                }
            };
            on_runtime(async move {
                eprintln!("mcp-demo {version}: serving http://{addr}/mcp");
                serve_http(server, interceptors, addr, cors_origins).await
            })
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp-demo: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Prints the boot report on stdout; a reader that stops early (`| head`)
/// is not an error.
fn print_report(server: &Server, format: ReportFormat) -> io::Result<()> {
    let report = server.report();
    let catalog = server.catalog().report();
    let mut stdout = io::stdout().lock();
    let written = match format {
        ReportFormat::Text => write!(stdout, "{report}\n{catalog}"),
        ReportFormat::Json => {
            let mut json: serde_json::Value =
                serde_json::from_str(&report.to_json()).map_err(io::Error::other)?;
            json["catalog"] = serde_json::to_value(&catalog).map_err(io::Error::other)?;
            writeln!(stdout, "{json}")
        }
    };
    match written.and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        result => result,
    }
}

/// Runs `serve` on a multi-threaded runtime until it ends.
fn on_runtime(serve: impl Future<Output = io::Result<()>>) -> io::Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve)
}

/// Serves Streamable HTTP at `http://{addr}/mcp`, and the demo's
/// interceptors alone (`interceptors`) at `http://{addr}/interceptors`, to
/// browser pages of `cors_origins` too.
async fn serve_http(
    server: Server,
    interceptors: Server,
    addr: SocketAddr,
    cors_origins: Vec<String>,
) -> io::Result<()> {
    let config = cors_origins
        .into_iter()
        .fold(HttpConfig::default(), HttpConfig::cors_allow_origin);
    // SIGTERM or SIGINT drains (readiness fails, new work gets 503, work in
    // flight finishes within `server.drain_timeout_s`); a second ends it.
    let shutdown = server.shutdown().clone();
    shutdown.on_signals()?;
    let (main, side) = (shutdown.clone(), interceptors.shutdown().clone());
    tokio::spawn(async move {
        main.draining().await;
        side.begin();
    });
    let app = router(server, "/mcp", config.clone()).merge(router(
        interceptors,
        "/interceptors",
        config.clone().without_probes(),
    ));
    let drained = serve_until_drained(bind(addr)?, app, &config, &shutdown).await?;
    eprintln!("mcp-demo: drained; {} requests cut", drained.cut);
    Ok(())
}
