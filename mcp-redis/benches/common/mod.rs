//! What the benchmarks of this crate share: a `redis-server` of their own,
//! pinned to CPU 0 so that the benchmark can run on CPU 1, and timed
//! operations.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `redis-server` on a free port, on CPU 0 when `taskset` is there.
pub(crate) fn redis_server(dir: &std::path::Path) -> (Child, u16) {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let pinned = Command::new("taskset").arg("--version").output().is_ok();
    let mut command = if pinned {
        let mut c = Command::new("taskset");
        c.args(["-c", "0", "redis-server"]);
        c
    } else {
        Command::new("redis-server")
    };
    let child = command
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ])
        .arg("--dir")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("redis-server starts (apt-get install redis-server)");
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "redis-server did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    println!(
        "redis-server on port {port}{}",
        if pinned { ", CPU 0" } else { "" }
    );
    (child, port)
}

/// Timed operations: how many, how long in all, and each one's latency.
pub(crate) struct Measured {
    pub(crate) ops: usize,
    pub(crate) took: Duration,
    pub(crate) latencies: Vec<Duration>,
}

impl Measured {
    /// Operations per second.
    pub(crate) fn per_second(&self) -> f64 {
        self.ops as f64 / self.took.as_secs_f64()
    }

    /// The latency at `p` (0 to 1).
    pub(crate) fn percentile(&mut self, p: f64) -> Duration {
        percentile(&mut self.latencies, p)
    }
}

/// The latency at `p` (0 to 1) of `latencies`, which it sorts.
pub(crate) fn percentile(latencies: &mut [Duration], p: f64) -> Duration {
    latencies.sort_unstable();
    let at = ((latencies.len() as f64 - 1.0) * p).round() as usize;
    latencies[at]
}
