//! The soak: concurrent clients, each on its own keep-alive connection,
//! calling tools for a set duration (one in ten on 2025-11-25 sessions, the
//! rest stateless), while the server's memory is sampled every
//! [`SAMPLE_EVERY`]; then the report.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::calls;
use crate::client::{Client, Era, SESSION_CALLS, Tally};
use crate::machine;
use crate::memory::{Sample, Summary};
use crate::server::{Server, mib};

/// How often the server's memory is read.
const SAMPLE_EVERY: Duration = Duration::from_secs(5);

/// Connections being opened at once, well under the server's accept
/// backlog (4,096).
const OPENING_AT_ONCE: usize = 256;

/// One client in this many is on a 2025-11-25 session.
const SESSION_ONE_IN: usize = 10;

/// How long the warm-up's two clients call before the idle memory is read.
const WARM_UP: Duration = Duration::from_secs(2);

/// How long the server is left alone before its memory is read at rest.
const SETTLE: Duration = Duration::from_secs(1);

/// Runs the soak with `clients` clients for `duration`; whether no request
/// failed.
pub(crate) async fn run(
    server: Server,
    clients: usize,
    duration: Duration,
) -> Result<bool, String> {
    let load_before = machine::load_average();
    warm_up(server.port).await?;
    tokio::time::sleep(SETTLE).await;
    let idle = server.rss_kib()?;

    let tally = Arc::new(Tally::new());
    let opening = Instant::now();
    let opened = open_clients(server.port, clients, &tally).await?;
    let opening = opening.elapsed();

    let start = Instant::now();
    let deadline = start + duration;
    let mut running = JoinSet::new();
    for client in opened {
        let tally = tally.clone();
        running.spawn(async move { client.run(deadline, &tally).await });
    }
    let samples = sample(server, start, duration, &tally).await?;
    while let Some(joined) = running.join_next().await {
        if let Err(e) = joined {
            tally.fail(format!("a client's task failed: {e}"));
        }
    }
    let took = start.elapsed();
    tokio::time::sleep(SETTLE).await;
    let after = server.rss_kib()?;
    let load_after = machine::load_average();

    let summary = Summary::of(&samples, duration.as_secs_f64()).ok_or("no memory samples")?;
    let calls = tally.calls();
    let errors = tally.errors.load(Ordering::Relaxed);
    let sessions = clients / SESSION_ONE_IN;
    println!(
        "soak: {clients} clients, each on its own keep-alive HTTP/1.1 connection, for {} s \
         ({} stateless 2026-07-28, {sessions} on 2025-11-25 sessions renewed every \
         {SESSION_CALLS} calls); tools: {}",
        duration.as_secs(),
        clients - sessions,
        calls::MIX,
    );
    println!(
        "machine: {} processors; load average {load_before} before, {load_after} after",
        machine::processors()
    );
    println!("clients connected in {:.1} s", opening.as_secs_f64());
    println!(
        "calls: {calls} ({:.0}/s; {} stateless, {} on sessions; {} sessions opened), errors: {errors}",
        calls as f64 / took.as_secs_f64(),
        tally.modern_calls.load(Ordering::Relaxed),
        tally.session_calls.load(Ordering::Relaxed),
        tally.sessions.load(Ordering::Relaxed),
    );
    let ms =
        |q: Option<Duration>| q.map_or("-".into(), |d| format!("{:.2} ms", d.as_secs_f64() * 1e3));
    println!(
        "latency: p50 {}, p99 {}, max {}",
        ms(tally.latency.quantile(0.5)),
        ms(tally.latency.quantile(0.99)),
        ms(Some(tally.latency.max())),
    );
    println!(
        "server RSS: {} idle, {} at the start of the load, {} to {} over the last two thirds, \
         {} at the end, {} once the clients left",
        mib(idle),
        mib(summary.start),
        mib(summary.min),
        mib(summary.max),
        mib(summary.end),
        mib(after),
    );
    match summary.slope {
        Some(slope) => println!(
            "RSS slope over the second half: {slope:+.3} MiB/min ({} samples)",
            summary.slope_samples
        ),
        None => println!("RSS slope over the second half: - (too few samples; run longer)"),
    }
    let failures = tally.failures.lock().unwrap_or_else(|e| e.into_inner());
    for failure in failures.iter() {
        eprintln!("soak-bench: {failure}");
    }
    Ok(errors == 0)
}

/// A stateless client and a session client call for [`WARM_UP`], so the
/// idle memory includes what serving allocates once, and a broken setup
/// shows before the load.
async fn warm_up(port: u16) -> Result<(), String> {
    let tally = Tally::new();
    let deadline = Instant::now() + WARM_UP;
    let modern = Client::open(0, Era::Modern, port, &tally).await?;
    let session = Client::open(1, Era::Session, port, &tally).await?;
    tokio::join!(modern.run(deadline, &tally), session.run(deadline, &tally));
    let failures = tally.failures.lock().unwrap_or_else(|e| e.into_inner());
    match failures.first() {
        Some(failure) => Err(format!("the warm-up failed: {failure}")),
        None => Ok(()),
    }
}

/// Connects `clients` clients (and opens the sessions), a few hundred at
/// a time.
async fn open_clients(
    port: u16,
    clients: usize,
    tally: &Arc<Tally>,
) -> Result<Vec<Client>, String> {
    let gate = Arc::new(Semaphore::new(OPENING_AT_ONCE));
    let mut opening = JoinSet::new();
    for index in 0..clients {
        let era = if index % SESSION_ONE_IN == SESSION_ONE_IN - 1 {
            Era::Session
        } else {
            Era::Modern
        };
        let (gate, tally) = (gate.clone(), tally.clone());
        opening.spawn(async move {
            let _permit = gate.acquire().await;
            Client::open(index, era, port, &tally).await
        });
    }
    let mut opened = Vec::with_capacity(clients);
    while let Some(joined) = opening.join_next().await {
        let client = joined
            .map_err(|e| format!("a client's task failed: {e}"))?
            .map_err(|e| format!("a client could not connect: {e}"))?;
        opened.push(client);
    }
    Ok(opened)
}

/// Reads the server's memory at the start of the load, every
/// [`SAMPLE_EVERY`] and at the end, printing each reading with the calls
/// made since the last.
async fn sample(
    server: Server,
    start: Instant,
    duration: Duration,
    tally: &Tally,
) -> Result<Vec<Sample>, String> {
    let mut samples = vec![(0.0, server.rss_kib()?)];
    let (mut calls_then, mut then) = (0, Duration::ZERO);
    for tick in 1.. {
        let at = (SAMPLE_EVERY * tick).min(duration);
        tokio::time::sleep_until((start + at).into()).await;
        let rss = server.rss_kib()?;
        let calls = tally.calls();
        eprintln!(
            "{:>5} s  RSS {:>10}  {:>7.0} calls/s  errors {}",
            at.as_secs(),
            mib(rss),
            (calls - calls_then) as f64 / (at - then).as_secs_f64(),
            tally.errors.load(Ordering::Relaxed),
        );
        samples.push((at.as_secs_f64(), rss));
        (calls_then, then) = (calls, at);
        if at >= duration {
            break;
        }
    }
    Ok(samples)
}
