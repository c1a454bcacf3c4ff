//! The stdio transport in process: `mcp_server::transport::stdio::serve_with`
//! over in-memory pipes, one connection per input.
//!
//! An input is the bytes a client writes ([`make`]). They are written at
//! once; the connection's output is read as it comes, until every line is
//! answered that can be ([`expect::Expected::due`]), or for
//! [`PATIENCE`] at most (a request may wait for the client); then the
//! input ends, which cancels what still runs, and the transport must
//! return without an error, having written only JSON-RPC messages, at
//! most one response for each line and the error of each refused line
//! ([`expect`]).

pub mod expect;
pub mod make;

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use mcp_server::Server;
use mcp_server::transport::stdio::{StdioConfig, serve_with};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::Notify;

use crate::busy::Busy;
use crate::check::Invalid;
use crate::target::PATIENCE;
use expect::Expected;

/// The capacity of each in-memory pipe.
const PIPE: usize = 64 << 10;

/// The stdio transport of a server.
pub struct StdioTarget {
    server: Server,
    inputs: AtomicU64,
    lines: AtomicU64,
    answers: AtomicU64,
    messages: AtomicU64,
    /// Connections dropped at the time limit whose input had ended.
    hung: AtomicU64,
}

impl fmt::Debug for StdioTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StdioTarget").finish_non_exhaustive()
    }
}

impl StdioTarget {
    /// The stdio transport of `server`, with the default limits.
    pub fn new(server: Server) -> Self {
        Self {
            server,
            inputs: AtomicU64::new(0),
            lines: AtomicU64::new(0),
            answers: AtomicU64::new(0),
            messages: AtomicU64::new(0),
            hung: AtomicU64::new(0),
        }
    }

    /// Serves one connection whose client writes `bytes`, and checks what
    /// it wrote back. Returns the time spent polling the transport and
    /// the client (the transport's writer task aside).
    ///
    /// # Errors
    ///
    /// What is wrong with the output, or the error the transport returned.
    pub async fn run(&self, bytes: &[u8]) -> Result<Duration, Invalid> {
        self.inputs.fetch_add(1, Ordering::Relaxed);
        let expected = Expected::of(bytes);
        let due = expected.due();
        let (mut to_server, server_in) = tokio::io::duplex(PIPE);
        let (server_out, from_server) = tokio::io::duplex(PIPE);
        let settled = Notify::new();
        let (ended, returned) = (AtomicBool::new(false), AtomicBool::new(false));
        // Counts the connection if it is dropped (at the time limit) after
        // its input ended but before the transport returned.
        let _hung = Hung {
            ended: &ended,
            returned: &returned,
            hung: &self.hung,
        };
        if due == 0 {
            settled.notify_one();
        }
        let serving = async {
            let served = serve_with(
                self.server.clone(),
                server_in,
                server_out,
                StdioConfig::default(),
            )
            .await;
            returned.store(true, Ordering::Relaxed);
            served
        };
        let writing = async {
            // The transport reads until its input ends; a write fails only
            // once it returned, which the result of `serving` tells.
            let _ = to_server.write_all(bytes).await;
            let _ = tokio::time::timeout(PATIENCE, settled.notified()).await;
            drop(to_server);
            ended.store(true, Ordering::Relaxed);
        };
        let reading = async {
            let mut reader = BufReader::new(from_server);
            let mut output = Vec::new();
            let mut answers = 0;
            loop {
                let start = output.len();
                match reader.read_until(b'\n', &mut output).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = output[start..]
                            .strip_suffix(b"\n")
                            .unwrap_or(&output[start..]);
                        if expect::is_response(line) {
                            answers += 1;
                            if answers == due {
                                settled.notify_one();
                            }
                        }
                    }
                }
            }
            output
        };
        let ((served, (), output), busy) =
            Busy::new(async { tokio::join!(serving, writing, reading) }).await;
        if let Err(error) = served {
            return Err(Invalid(format!("the transport returned an error: {error}")));
        }
        let outcome = expected.check(&output)?;
        self.lines
            .fetch_add(expected.lines as u64, Ordering::Relaxed);
        self.answers
            .fetch_add(outcome.answers as u64, Ordering::Relaxed);
        self.messages
            .fetch_add(outcome.messages as u64, Ordering::Relaxed);
        Ok(busy)
    }

    /// What the connections read and wrote (those whose output was
    /// right), as one line.
    pub fn note(&self) -> String {
        let hung = self.hung.load(Ordering::Relaxed);
        let hung = if hung == 0 {
            String::new()
        } else {
            format!("; {hung} did not return by the time limit after their input ended")
        };
        format!(
            "stdio          {} connections read {} lines and wrote {} responses and {} requests or notifications{hung}",
            self.inputs.load(Ordering::Relaxed),
            self.lines.load(Ordering::Relaxed),
            self.answers.load(Ordering::Relaxed),
            self.messages.load(Ordering::Relaxed),
        )
    }

    /// Whether no connection was served.
    pub fn is_unused(&self) -> bool {
        self.inputs.load(Ordering::Relaxed) == 0
    }
}

/// Counts a connection dropped after its input ended and before its
/// transport returned: one the time limit cut off there.
struct Hung<'a> {
    ended: &'a AtomicBool,
    returned: &'a AtomicBool,
    hung: &'a AtomicU64,
}

impl Drop for Hung<'_> {
    fn drop(&mut self) {
        if self.ended.load(Ordering::Relaxed) && !self.returned.load(Ordering::Relaxed) {
            self.hung.fetch_add(1, Ordering::Relaxed);
        }
    }
}
