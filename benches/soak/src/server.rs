//! The server under test, a process of its own: where it listens, waiting
//! until it accepts connections, and its resident memory.

use std::time::{Duration, Instant};

use tokio::net::TcpStream;

/// How long the server may take to accept its first connection.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// The server: its loopback port and its process id.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Server {
    pub(crate) port: u16,
    pub(crate) pid: u32,
}

impl Server {
    /// Waits until the server accepts a connection on its port.
    pub(crate) async fn wait_until_serving(&self) -> Result<(), String> {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            self.rss_kib()
                .map_err(|e| format!("the server is not running: {e}"))?;
            if TcpStream::connect(("127.0.0.1", self.port)).await.is_ok() {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "nothing accepts connections on port {} after {} s",
                    self.port,
                    START_TIMEOUT.as_secs()
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The server's resident memory now (`VmRSS`), in KiB.
    pub(crate) fn rss_kib(&self) -> Result<u64, String> {
        let path = format!("/proc/{}/status", self.pid);
        let status =
            std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .ok_or_else(|| format!("no VmRSS in {path} (has the server exited?)"))
    }
}

/// KiB as MiB with one decimal.
pub(crate) fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}
