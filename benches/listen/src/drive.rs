//! The driver: starts the server as a child process, opens the streams
//! (over HTTP/1.1 or HTTP/2, see [`Protocol`]), measures the child's
//! memory before and after, then times each publish until every stream has
//! its notification.

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use hyper::body::Incoming;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio::sync::{Semaphore, mpsc};
use tokio::task::JoinHandle;

use crate::client::{self, Matcher};
use crate::h2;

/// Streams (and HTTP/2 connections) being opened at once, well under the
/// server's accept backlog (4,096: `transport::http::bind`).
const OPENING_AT_ONCE: usize = 256;

/// Streams on one HTTP/2 connection unless `STREAMS_PER_CONNECTION` says.
const DEFAULT_STREAMS_PER_CONNECTION: usize = 100;

/// The concurrent streams hyper's HTTP/2 server allows on one connection
/// (its default `max_concurrent_streams`, which `axum::serve` keeps):
/// streams beyond it would wait for a free one, for ever.
const SERVER_MAX_STREAMS_PER_CONNECTION: usize = 200;

/// Streams opened, published to, and closed before the baseline is read,
/// so it includes what serving the first streams allocates once.
const WARM_UP_STREAMS: usize = 16;

/// File descriptors the driver needs besides one per stream.
const SPARE_FILES: u64 = 64;

/// How long every stream together may take to be acknowledged.
const OPEN_TIMEOUT: Duration = Duration::from_secs(300);

/// How long one round may take to reach every stream.
const ROUND_TIMEOUT: Duration = Duration::from_secs(30);

/// How the listen streams travel: `PROTOCOL=h1` (the default) or `h2`.
/// The publishes go over HTTP/1.1 either way, a fresh connection each.
#[derive(Debug, Clone, Copy)]
enum Protocol {
    /// Each stream on its own HTTP/1.1 connection.
    Http1,
    /// HTTP/2 with prior knowledge (h2c), at most `per_connection` streams
    /// on each connection (`STREAMS_PER_CONNECTION`).
    Http2 { per_connection: usize },
}

impl Protocol {
    /// From `PROTOCOL` and `STREAMS_PER_CONNECTION`.
    fn from_env() -> Result<Self, String> {
        let per_connection = match std::env::var("STREAMS_PER_CONNECTION") {
            Ok(n) => match n.trim().replace('_', "").parse::<usize>() {
                Ok(n) if (1..=SERVER_MAX_STREAMS_PER_CONNECTION).contains(&n) => n,
                _ => {
                    return Err(format!(
                        "STREAMS_PER_CONNECTION={n}: give a number from 1 to \
                         {SERVER_MAX_STREAMS_PER_CONNECTION} (the server allows \
                         {SERVER_MAX_STREAMS_PER_CONNECTION} concurrent streams on a connection)"
                    ));
                }
            },
            Err(_) => DEFAULT_STREAMS_PER_CONNECTION,
        };
        match std::env::var("PROTOCOL").unwrap_or_default().trim() {
            "" | "h1" => Ok(Self::Http1),
            "h2" => Ok(Self::Http2 { per_connection }),
            other => Err(format!("PROTOCOL={other}: give h1 or h2")),
        }
    }

    /// The connections that carry `streams` streams.
    fn connections(self, streams: usize) -> usize {
        match self {
            Self::Http1 => streams,
            Self::Http2 { per_connection } => streams.div_ceil(per_connection),
        }
    }
}

/// Runs the benchmark with `streams` streams and `rounds` publishes.
pub(crate) fn run(streams: usize, rounds: usize) -> Result<(), String> {
    let protocol = Protocol::from_env()?;
    let limit = open_file_limit()?;
    let needed = (protocol.connections(streams) + protocol.connections(WARM_UP_STREAMS)) as u64
        + SPARE_FILES;
    if limit.is_some_and(|soft| soft < needed) {
        return Err(format!(
            "the open-file limit is {} but {streams} streams need {needed} on each side; \
             run benches/listen/run.sh (it raises `ulimit -n`), or raise it yourself",
            limit.unwrap_or_default()
        ));
    }
    let port = free_port()?;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    // A profiler to run the server under (`heaptrack`, `valgrind
    // --tool=massif`): its words come first.
    let wrapper = std::env::var("SERVER_WRAPPER").unwrap_or_default();
    let mut words = wrapper.split_whitespace();
    let mut command = match words.next() {
        Some(program) => {
            let mut command = Command::new(program);
            command.args(words).arg(exe);
            command
        }
        None => Command::new(exe),
    };
    let child = command
        .args(["serve", &port.to_string(), &streams.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let mut server = Server {
        child,
        port,
        wrapped: !wrapper.trim().is_empty(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the driver's runtime: {e}"))?;
    let (carried, report) =
        runtime.block_on(measure(&mut server, port, streams, rounds, protocol))?;
    println!("server: {}", crate::serve::variant());
    println!("protocol: {carried}");
    println!(
        "open-file limit: {}",
        limit.map_or("unlimited".to_owned(), |l| l.to_string())
    );
    print!("{report}");
    // The listeners see their connections close as the server goes.
    drop(server);
    runtime.shutdown_timeout(Duration::from_secs(1));
    Ok(())
}

/// The server's process (or its wrapper's), stopped when dropped.
struct Server {
    child: Child,
    port: u16,
    /// Whether the child is a wrapper that runs the server.
    wrapped: bool,
}

impl Server {
    /// The server's own process: the child, or under a wrapper the
    /// deepest of its descendants running `serve PORT`.
    fn pid(&self) -> Result<u32, String> {
        let child = self.child.id();
        if !self.wrapped {
            return Ok(child);
        }
        let port = self.port.to_string();
        let mut best: Option<(usize, u32)> = None;
        for entry in std::fs::read_dir("/proc").map_err(|e| format!("/proc: {e}"))? {
            let Some(pid) = entry
                .ok()
                .and_then(|e| e.file_name().to_str()?.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
                continue;
            };
            let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
            let serves = args
                .windows(2)
                .any(|w| w[0] == b"serve" && w[1] == port.as_bytes());
            if !serves {
                continue;
            }
            if let Some(depth) = depth_below(pid, child)
                && best.is_none_or(|(d, _)| depth > d)
            {
                best = Some((depth, pid));
            }
        }
        best.map(|(_, pid)| pid)
            .ok_or_else(|| format!("no process runs `serve {port}` under the wrapper"))
    }

    fn exited(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(format!("the server exited ({status})")),
            Ok(None) => None,
            Err(e) => Some(format!("cannot watch the server: {e}")),
        }
    }

    /// Interrupts the server (it ends gracefully, so a profiler around it
    /// writes its data) and waits a while for the child to exit.
    fn stop(&mut self) {
        if let Ok(pid) = self.pid() {
            let _ = Command::new("kill")
                .args(["-INT", &pid.to_string()])
                .stderr(Stdio::null())
                .status();
            let patience = if self.wrapped { 120 } else { 5 };
            let deadline = Instant::now() + Duration::from_secs(patience);
            while Instant::now() < deadline {
                if !matches!(self.child.try_wait(), Ok(None)) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.stop();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How many parents up from `pid` `ancestor` is (0: itself); `None` when
/// it is not an ancestor.
fn depth_below(mut pid: u32, ancestor: u32) -> Option<usize> {
    for depth in 0..64 {
        if pid == ancestor {
            return Some(depth);
        }
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        pid = status
            .lines()
            .find_map(|l| l.strip_prefix("PPid:"))?
            .trim()
            .parse()
            .ok()?;
        if pid == 0 {
            return None;
        }
    }
    None
}

/// The soft limit on open files (`None`: unlimited).
fn open_file_limit() -> Result<Option<u64>, String> {
    let limits = std::fs::read_to_string("/proc/self/limits")
        .map_err(|e| format!("cannot read /proc/self/limits (Linux only): {e}"))?;
    let soft = limits
        .lines()
        .find_map(|l| l.strip_prefix("Max open files"))
        .and_then(|rest| rest.split_whitespace().next())
        .ok_or("no `Max open files` in /proc/self/limits")?;
    Ok(soft.parse().ok())
}

/// A port nobody listens on now.
fn free_port() -> Result<u16, String> {
    let probe = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("cannot find a free port: {e}"))?;
    Ok(probe.port())
}

/// The memory of a process, in KiB, from `/proc/<pid>/status`.
#[derive(Debug, Clone, Copy)]
struct Memory {
    /// `VmRSS`: resident now.
    rss: u64,
    /// `RssAnon`: resident and not backed by a file (the heap, stacks).
    anon: u64,
    /// `VmHWM`: the most ever resident.
    peak: u64,
}

impl Memory {
    fn of(pid: u32) -> Result<Self, String> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .map_err(|e| format!("cannot read the server's /proc/{pid}/status: {e}"))?;
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
                .ok_or_else(|| format!("no {name} in /proc/{pid}/status"))
        };
        Ok(Self {
            rss: field("VmRSS:")?,
            anon: field("RssAnon:")?,
            peak: field("VmHWM:")?,
        })
    }
}

/// KiB as MiB with one decimal.
fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

/// Milliseconds with one decimal.
fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// What the listener tasks record, read by the driver.
struct Shared {
    epoch: Instant,
    rounds: Vec<Round>,
    /// Streams that ended (EOF or an error) after their acknowledgement.
    closed: AtomicUsize,
}

/// The arrivals of one round's notification.
struct Round {
    received: AtomicUsize,
    /// Nanoseconds after `epoch`.
    first: AtomicU64,
    last: AtomicU64,
}

impl Shared {
    fn new(rounds: usize) -> Arc<Self> {
        Arc::new(Self {
            epoch: Instant::now(),
            rounds: (0..rounds)
                .map(|_| Round {
                    received: AtomicUsize::new(0),
                    first: AtomicU64::new(u64::MAX),
                    last: AtomicU64::new(0),
                })
                .collect(),
            closed: AtomicUsize::new(0),
        })
    }

    fn nanos(&self, at: Instant) -> u64 {
        u64::try_from(at.duration_since(self.epoch).as_nanos()).unwrap_or(u64::MAX)
    }

    fn instant(&self, nanos: u64) -> Instant {
        self.epoch + Duration::from_nanos(nanos)
    }

    /// Stream heard round `round`'s notification at `at`.
    fn heard(&self, round: usize, at: Instant) {
        let Some(r) = self.rounds.get(round) else {
            return;
        };
        let nanos = self.nanos(at);
        r.first.fetch_min(nanos, Ordering::AcqRel);
        r.last.fetch_max(nanos, Ordering::AcqRel);
        r.received.fetch_add(1, Ordering::AcqRel);
    }
}

/// An acknowledged listen stream.
enum Listening {
    /// Its own HTTP/1.1 connection, read raw.
    Http1(TcpStream),
    /// Its response body, on a shared HTTP/2 connection.
    Http2(Incoming),
}

/// Reads a stream until it ends, noting each notification's arrival: the
/// instant the bytes carrying it were handed over (by the socket's `read`,
/// or by hyper as a DATA frame's payload).
async fn hear(stream: Listening, mut matcher: Matcher, mut heard: usize, shared: Arc<Shared>) {
    let mut note = |bytes: &[u8], now: Instant| {
        for _ in 0..matcher.feed(bytes) {
            shared.heard(heard, now);
            heard += 1;
        }
    };
    match stream {
        Listening::Http1(mut stream) => {
            let mut buf = vec![0u8; 2048];
            loop {
                let n = match stream.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                note(&buf[..n], Instant::now());
            }
        }
        Listening::Http2(mut body) => {
            while let Some(data) = h2::next_data(&mut body).await {
                note(&data, Instant::now());
            }
        }
    }
    shared.closed.fetch_add(1, Ordering::AcqRel);
}

/// Streams opened: how many were acknowledged, how long opening took, the
/// first few failures, the tasks that hear them (aborting one closes its
/// stream), and the HTTP/2 connections that carry them.
struct Opened {
    acknowledged: usize,
    took: Duration,
    /// Each acknowledged stream's time from connecting (HTTP/1.1) or
    /// sending its request (HTTP/2) to its acknowledgement.
    handshakes: Vec<Duration>,
    failures: Vec<String>,
    tasks: Vec<JoinHandle<()>>,
    /// The HTTP/2 connections made (none over HTTP/1.1).
    connections: Vec<h2::Connection>,
}

impl Opened {
    /// Closes every stream and connection.
    fn close(self) {
        for task in self.tasks {
            task.abort();
        }
        for connection in self.connections {
            connection.dispatch.abort();
        }
    }
}

/// Opens `count` streams (ids from `first_id`), each then heard into
/// `shared` by its own task; over HTTP/2, on connections made first, the
/// streams spread over them in turn.
async fn open(
    port: u16,
    count: usize,
    first_id: u64,
    shared: &Arc<Shared>,
    protocol: Protocol,
) -> Opened {
    let start = Instant::now();
    let mut failures = Vec::new();
    // Over HTTP/2, the connections, each made or why not.
    let mut slots: Vec<Result<hyper::client::conn::http2::SendRequest<_>, String>> = Vec::new();
    let mut connections = Vec::new();
    if let Protocol::Http2 { .. } = protocol {
        let made: Vec<_> = futures_util::stream::iter(0..protocol.connections(count))
            .map(|_| h2::connect(port))
            .buffered(OPENING_AT_ONCE)
            .collect()
            .await;
        for connection in made {
            match connection {
                Ok(connection) => {
                    slots.push(Ok(connection.sender.clone()));
                    connections.push(connection);
                }
                Err(e) => {
                    if failures.len() < 5 {
                        failures.push(e.clone());
                    }
                    slots.push(Err(e));
                }
            }
        }
    }
    let gate = Arc::new(Semaphore::new(OPENING_AT_ONCE));
    let (done, mut results) = mpsc::unbounded_channel::<Result<Duration, String>>();
    let mut tasks = Vec::with_capacity(count);
    for i in 0..count {
        let gate = gate.clone();
        let done = done.clone();
        let shared = shared.clone();
        let id = first_id + i as u64;
        // `None`: HTTP/1.1, a connection of its own.
        let mut sender = match slots.get(i % slots.len().max(1)) {
            None => None,
            Some(Ok(sender)) => Some(sender.clone()),
            Some(Err(e)) => {
                let _ = done.send(Err(format!("stream {id}: no connection: {e}")));
                continue;
            }
        };
        tasks.push(tokio::spawn(async move {
            let permit = gate.acquire_owned().await;
            let began = Instant::now();
            let opened = match &mut sender {
                None => client::listen(port, id)
                    .await
                    .map(|(stream, matcher, early)| (Listening::Http1(stream), matcher, early)),
                Some(sender) => h2::listen(sender, port, id)
                    .await
                    .map(|(body, matcher, early)| (Listening::Http2(body), matcher, early)),
            };
            let handshake = began.elapsed();
            drop(permit);
            drop(sender);
            match opened {
                Ok((stream, matcher, early)) => {
                    let _ = done.send(Ok(handshake));
                    hear(stream, matcher, early, shared).await;
                }
                Err(e) => {
                    let _ = done.send(Err(e));
                }
            }
        }));
    }
    drop(done);
    drop(slots);
    let mut acknowledged = 0;
    let mut handshakes = Vec::with_capacity(count);
    let mut failed = 0;
    let deadline = tokio::time::Instant::now() + OPEN_TIMEOUT;
    while acknowledged + failed < count {
        match tokio::time::timeout_at(deadline, results.recv()).await {
            Ok(Some(Ok(handshake))) => {
                acknowledged += 1;
                handshakes.push(handshake);
            }
            Ok(Some(Err(e))) => {
                failed += 1;
                if failures.len() < 5 {
                    failures.push(e);
                }
            }
            Ok(None) => break,
            Err(_) => {
                failures.push(format!(
                    "{} streams still unacknowledged after {} s",
                    count - acknowledged - failed,
                    OPEN_TIMEOUT.as_secs()
                ));
                break;
            }
        }
    }
    Opened {
        acknowledged,
        took: start.elapsed(),
        handshakes,
        failures,
        tasks,
        connections,
    }
}

/// One publish, and when the `expected` streams heard it.
struct Timed {
    received: usize,
    first: Option<Duration>,
    last: Option<Duration>,
}

/// Publishes once (round `round` of `shared`) and waits until `expected`
/// streams heard it, or the round timeout.
async fn publish(
    port: u16,
    id: u64,
    shared: &Shared,
    round: usize,
    expected: usize,
) -> Result<Timed, String> {
    let (sent, mut answer) = client::publish(port, id).await?;
    let r = &shared.rounds[round];
    let deadline = Instant::now() + ROUND_TIMEOUT;
    let mut answered = false;
    while r.received.load(Ordering::Acquire) < expected && Instant::now() < deadline {
        if !answered && answer.is_finished() {
            answered = true;
            (&mut answer)
                .await
                .map_err(|e| format!("publish task: {e}"))??;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    if !answered {
        answer.await.map_err(|e| format!("publish task: {e}"))??;
    }
    let received = r.received.load(Ordering::Acquire);
    let since =
        |nanos: u64| (received > 0).then(|| shared.instant(nanos).saturating_duration_since(sent));
    Ok(Timed {
        received,
        first: since(r.first.load(Ordering::Acquire)),
        last: since(r.last.load(Ordering::Acquire)),
    })
}

/// Waits until something answers on `port`.
async fn wait_for(server: &mut Server, port: u16) -> Result<(), String> {
    for _ in 0..200 {
        if let Some(exited) = server.exited() {
            return Err(exited);
        }
        if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Err(format!("nothing answers on port {port} after 10 s"))
}

/// The whole measurement: how the streams were carried, and the report.
async fn measure(
    server: &mut Server,
    port: u16,
    streams: usize,
    rounds: usize,
    protocol: Protocol,
) -> Result<(String, String), String> {
    use std::fmt::Write as _;
    wait_for(server, port).await?;
    let pid = server.pid()?;

    // Warm-up: a few streams opened, published to, and let go of (with
    // their HTTP/2 connection).
    let warm = Shared::new(1);
    let warmed = open(port, WARM_UP_STREAMS, 1_000_000_000, &warm, protocol).await;
    if warmed.acknowledged < WARM_UP_STREAMS {
        return Err(format!("warm-up streams failed: {:?}", warmed.failures));
    }
    publish(port, 1, &warm, 0, warmed.acknowledged).await?;
    warmed.close();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let baseline = Memory::of(pid)?;

    let shared = Shared::new(rounds);
    let Opened {
        acknowledged: held,
        took: opening,
        failures,
        mut handshakes,
        tasks: _hearing,
        connections: carrying,
    } = open(port, streams, 1, &shared, protocol).await;
    let carried = match protocol {
        Protocol::Http1 => format!(
            "HTTP/1.1, one connection per stream ({held} connections held); \
             publish over HTTP/1.1, a fresh connection per call"
        ),
        Protocol::Http2 { per_connection } => format!(
            "HTTP/2 with prior knowledge (h2c), {} connections, at most {} streams each \
             (STREAMS_PER_CONNECTION={per_connection}; the server allows \
             {SERVER_MAX_STREAMS_PER_CONNECTION}); publish over HTTP/1.1, a fresh \
             connection per call",
            carrying.len(),
            streams.div_ceil(protocol.connections(streams)),
        ),
    };
    if let Some(exited) = server.exited() {
        return Err(exited);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let holding = Memory::of(pid)?;
    if held == 0 {
        return Err(format!("no stream was acknowledged: {failures:?}"));
    }

    let mut timed = Vec::new();
    for round in 0..rounds {
        tokio::time::sleep(Duration::from_millis(200)).await;
        timed.push(publish(port, 2 + round as u64, &shared, round, held).await?);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let after = Memory::of(pid)?;
    let closed = shared.closed.load(Ordering::Acquire);

    let mut out = String::new();
    let _ = writeln!(
        out,
        "streams held: {held} of {streams} (acknowledged), opened in {:.2} s ({:.0}/s){}",
        opening.as_secs_f64(),
        held as f64 / opening.as_secs_f64().max(1e-9),
        if closed > 0 {
            format!("; {closed} closed by the end")
        } else {
            String::new()
        }
    );
    let slow = handshakes
        .iter()
        .filter(|d| **d >= Duration::from_millis(900))
        .count();
    let _ = writeln!(
        out,
        "  {} -> acknowledgement: median {}, slowest {}{}",
        match protocol {
            Protocol::Http1 => "connect",
            Protocol::Http2 { .. } => "request",
        },
        median(&mut handshakes).map_or("-".into(), ms),
        handshakes.last().copied().map_or("-".into(), ms),
        if slow > 0 {
            format!(" ({slow} took >= 0.9 s)")
        } else {
            String::new()
        }
    );
    for failure in &failures {
        let _ = writeln!(out, "  failure: {failure}");
    }
    let grown = holding.rss.saturating_sub(baseline.rss);
    let grown_anon = holding.anon.saturating_sub(baseline.anon);
    let _ = writeln!(
        out,
        "server RSS: baseline {}, with streams {}, after the publishes {} (peak {})",
        mib(baseline.rss),
        mib(holding.rss),
        mib(after.rss),
        mib(after.peak)
    );
    let _ = writeln!(
        out,
        "memory per held stream: {:.1} KiB (goal <= 8 KiB); anonymous only {:.1} KiB; \
         after publishing {:.1} KiB",
        grown as f64 / held as f64,
        grown_anon as f64 / held as f64,
        after.rss.saturating_sub(baseline.rss) as f64 / held as f64
    );
    let mut lasts = Vec::new();
    let mut firsts = Vec::new();
    for (i, t) in timed.iter().enumerate() {
        let _ = writeln!(
            out,
            "  round {}: {}/{held} heard it, publish -> first {}, -> last {}",
            i + 1,
            t.received,
            t.first.map_or("-".into(), ms),
            t.last.map_or("-".into(), ms),
        );
        if t.received == held {
            lasts.extend(t.last);
            firsts.extend(t.first);
        }
    }
    let each = lasts.iter().map(|d| ms(*d)).collect::<Vec<_>>().join(", ");
    let _ = writeln!(
        out,
        "publish -> last listener: median {} (rounds: {each}), publish -> first: median {}",
        median(&mut lasts).map_or("- (no round reached every stream)".into(), ms),
        median(&mut firsts).map_or("-".into(), ms),
    );
    Ok((carried, out))
}

/// The median, sorting `values`.
fn median(values: &mut [Duration]) -> Option<Duration> {
    if values.is_empty() {
        return None;
    }
    values.sort();
    let mid = values.len() / 2;
    Some(if values.len().is_multiple_of(2) {
        (values[mid - 1] + values[mid]) / 2
    } else {
        values[mid]
    })
}
