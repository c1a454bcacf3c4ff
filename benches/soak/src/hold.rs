//! Held connections: thousands of keep-alive connections, each proved live
//! by one `tools/call` and then left idle, with the server's memory read
//! before and after; while they are held, a fresh connection must still
//! be answered and none may have been closed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::calls::ToolCall;
use crate::conn::Connection;
use crate::machine;
use crate::probe;
use crate::server::{Server, mib};

/// Connections being opened at once, well under the server's accept
/// backlog (4,096).
const OPENING_AT_ONCE: usize = 256;

/// Connections opened, called on and closed before the baseline is read.
const WARM_UP_CONNECTIONS: usize = 16;

/// How long the server is left alone before its memory is read.
const SETTLE: Duration = Duration::from_secs(2);

/// File descriptors this process needs besides one per connection.
const SPARE_FILES: u64 = 64;

/// Failures whose messages are printed.
const SHOWN_FAILURES: usize = 10;

/// Holds `count` connections for `hold`; whether every one opened, was
/// answered and stayed open, and the fresh call was answered.
pub(crate) async fn run(server: Server, count: usize, hold: Duration) -> Result<bool, String> {
    let needed = count as u64 + SPARE_FILES;
    if let Some(limit) = machine::open_file_limit().filter(|l| *l < needed) {
        return Err(format!(
            "the open-file limit is {limit} but {count} connections need {needed}; \
             run benches/soak/run.sh (it raises `ulimit -n`), or raise it yourself"
        ));
    }
    let load_before = machine::load_average();
    let warm = open(server.port, WARM_UP_CONNECTIONS).await;
    if let Some(failure) = warm.failures.first() {
        return Err(format!("the warm-up failed: {failure}"));
    }
    drop(warm);
    tokio::time::sleep(SETTLE).await;
    let before = server.rss_kib()?;

    let opening = Instant::now();
    let held = open(server.port, count).await;
    let opening = opening.elapsed();
    tokio::time::sleep(SETTLE).await;
    let after = server.rss_kib()?;

    tokio::time::sleep(hold).await;
    let fresh = probe::call_fresh(server.port, &ToolCall::greet("fresh caller")).await;
    let still_open = held.connections.iter().filter(|c| c.is_open()).count();
    let later = server.rss_kib()?;
    let load_after = machine::load_average();

    let opened = held.connections.len();
    println!(
        "hold: {count} idle keep-alive HTTP/1.1 connections, each answered one stateless \
         tools/call, held for {} s",
        (SETTLE + hold).as_secs()
    );
    println!(
        "machine: {} processors; load average {load_before} before, {load_after} after",
        machine::processors()
    );
    println!(
        "opened and answered: {opened} in {:.1} s, failures: {}",
        opening.as_secs_f64(),
        held.failures.len()
    );
    println!(
        "server RSS: {} before, {} with them held: {:.1} KiB per connection; {} after {} s",
        mib(before),
        mib(after),
        after.saturating_sub(before) as f64 / opened.max(1) as f64,
        mib(later),
        (SETTLE + hold).as_secs(),
    );
    println!("still open at the end: {still_open} of {opened}");
    if still_open < opened {
        eprintln!(
            "soak-bench: the server closed {} idle connections; a framework server closes \
             one that sends no request head within its HttpConfig::header_timeout (30 s by \
             default): keep HOLD + {} s below it",
            opened - still_open,
            SETTLE.as_secs()
        );
    }
    match &fresh {
        Ok(took) => println!(
            "a fresh connection's call while they were held: answered in {:.2} ms",
            took.as_secs_f64() * 1e3
        ),
        Err(e) => println!("a fresh connection's call while they were held: FAILED: {e}"),
    }
    for failure in held.failures.iter().take(SHOWN_FAILURES) {
        eprintln!("soak-bench: {failure}");
    }
    Ok(held.failures.is_empty() && opened == count && still_open == opened && fresh.is_ok())
}

/// Connections opened and answered, and the failures of the others.
#[derive(Debug)]
struct Held {
    connections: Vec<Connection>,
    failures: Vec<String>,
}

/// Opens `count` connections, a few hundred at a time, and makes one call
/// on each.
async fn open(port: u16, count: usize) -> Held {
    let gate = Arc::new(Semaphore::new(OPENING_AT_ONCE));
    let mut opening = JoinSet::new();
    for index in 0..count {
        let gate = gate.clone();
        opening.spawn(async move {
            let _permit = gate.acquire().await;
            let mut connection = Connection::open(port).await?;
            let call = ToolCall::simple();
            probe::call_on(&mut connection, index as u64, &call)
                .await
                .map_err(|e| format!("connection {index}: {e}"))?;
            Ok::<_, String>(connection)
        });
    }
    let mut held = Held {
        connections: Vec::with_capacity(count),
        failures: Vec::new(),
    };
    while let Some(joined) = opening.join_next().await {
        match joined {
            Ok(Ok(connection)) => held.connections.push(connection),
            Ok(Err(failure)) => held.failures.push(failure),
            Err(e) => held
                .failures
                .push(format!("a connection's task failed: {e}")),
        }
    }
    held
}
