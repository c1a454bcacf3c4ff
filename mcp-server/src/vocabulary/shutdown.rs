//! Shutdown: how a server stops admitting work, finishes what it holds
//! within a deadline, and then stops.
//!
//! One [`Shutdown`] belongs to each server ([`Server::shutdown`]); every
//! transport serving it, and every extension holding work for it, reads
//! the same one. [`begin`](Shutdown::begin) starts the drain: readiness
//! turns false, transports refuse new work, and the deadline
//! (`server.drain_timeout_s`, 30 s by default) starts. Work in flight is
//! [`hold`](Shutdown::hold)-ed; the drain ends when nothing is held or the
//! deadline passes ([`drained`](Shutdown::drained)). A second `begin` (a
//! second signal) ends it at once.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! use std::time::Duration;
//! use mcp_server::server::Shutdown;
//!
//! let shutdown = Shutdown::new(Duration::from_secs(30));
//! let call = shutdown.hold();
//! shutdown.begin();
//! assert!(shutdown.is_draining());
//! drop(call); // the call in flight finished
//! let drained = shutdown.drained().await;
//! assert_eq!(drained.cut, 0);
//! # });
//! ```
//!
//! [`Server::shutdown`]: crate::Server::shutdown

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// The drain of one server; clones share it.
#[derive(Clone, Debug)]
pub struct Shutdown {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    timeout: Duration,
    /// Fires when the drain begins.
    draining: CancellationToken,
    /// Fires when the deadline passes or a second signal comes.
    expired: CancellationToken,
    /// Whether the deadline's timer is armed.
    armed: AtomicBool,
    /// Work in flight.
    held: Count,
    /// How much was held when the drain expired.
    cut: AtomicUsize,
    /// Work that records its own end when the deadline cuts it.
    recording: Count,
}

impl Inner {
    /// Ends the drain, counting what it cuts first.
    fn expire(&self) {
        if !self.expired.is_cancelled() {
            self.cut.store(self.held.now(), Ordering::Release);
        }
        self.expired.cancel();
    }
}

/// How a drain ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Drained {
    /// How much held work was still running when the drain ended: cut by
    /// the deadline or a second signal.
    pub cut: usize,
}

impl Shutdown {
    /// A shutdown not begun, whose drain may last `timeout`.
    pub fn new(timeout: Duration) -> Self {
        Self {
            inner: Arc::new(Inner {
                timeout,
                draining: CancellationToken::new(),
                expired: CancellationToken::new(),
                armed: AtomicBool::new(false),
                held: Count::default(),
                cut: AtomicUsize::new(0),
                recording: Count::default(),
            }),
        }
    }

    /// How long a drain may last.
    pub fn drain_timeout(&self) -> Duration {
        self.inner.timeout
    }

    /// Begins the drain, and starts its deadline; a drain already begun
    /// ends at once, as a second signal asks. Call it inside a Tokio
    /// runtime (the deadline is a timer).
    pub fn begin(&self) {
        if self.inner.armed.swap(true, Ordering::AcqRel) {
            tracing::warn!("a second shutdown signal: the drain ends now");
            self.inner.expire();
            return;
        }
        tracing::info!(
            held = self.held(),
            deadline_s = self.inner.timeout.as_secs_f64(),
            "draining: new work is refused, work in flight finishes"
        );
        self.inner.draining.cancel();
        let inner = self.inner.clone();
        let timeout = self.inner.timeout;
        tokio::spawn(async move {
            tokio::select! {
                () = tokio::time::sleep(timeout) => inner.expire(),
                () = inner.expired.cancelled() => {}
            }
        });
    }

    /// Ends the drain now: what is still held is cut.
    pub fn stop_now(&self) {
        self.inner.armed.store(true, Ordering::Release);
        self.inner.draining.cancel();
        self.inner.expire();
    }

    /// Whether the drain has begun.
    pub fn is_draining(&self) -> bool {
        self.inner.draining.is_cancelled()
    }

    /// Whether the drain's deadline passed (or a second signal came).
    pub fn is_expired(&self) -> bool {
        self.inner.expired.is_cancelled()
    }

    /// Resolves when the drain begins.
    pub async fn draining(&self) {
        self.inner.draining.cancelled().await;
    }

    /// Resolves when the drain's deadline passes, or a second signal comes.
    pub async fn expired(&self) {
        self.inner.expired.cancelled().await;
    }

    /// A token that fires when the drain begins.
    pub fn draining_token(&self) -> CancellationToken {
        self.inner.draining.clone()
    }

    /// A token that fires when the drain's deadline passes.
    pub fn expired_token(&self) -> CancellationToken {
        self.inner.expired.clone()
    }

    /// Marks one piece of work in flight until the guard drops: the drain
    /// waits for it, within its deadline.
    pub fn hold(&self) -> Held {
        self.inner.held.enter();
        Held {
            inner: self.inner.clone(),
        }
    }

    /// Marks work that records something before the process goes (a task
    /// marked `failed` when the deadline cuts it, an event still being
    /// written): [`drained`](Self::drained) waits for every such guard to
    /// drop, and up to a second past the deadline. Take it when the work
    /// starts.
    pub fn hold_record(&self) -> Recording {
        self.inner.recording.enter();
        Recording {
            inner: self.inner.clone(),
        }
    }

    /// How much work is held now.
    pub fn held(&self) -> usize {
        self.inner.held.now()
    }

    /// Waits for the drain to begin, then for the held work and every
    /// record to finish or the deadline to pass.
    pub async fn drained(&self) -> Drained {
        self.draining().await;
        let finished = async {
            self.inner.held.zero().await;
            self.inner.recording.zero().await;
        };
        tokio::select! {
            biased;
            () = self.expired() => {}
            () = finished => {
                if !self.is_expired() {
                    return Drained { cut: 0 };
                }
            }
        }
        let cut = self.inner.cut.load(Ordering::Acquire);
        if cut > 0 {
            tracing::warn!(cut, "the drain's deadline passed with work still running");
        }
        let recorded = tokio::time::timeout(Duration::from_secs(1), self.inner.recording.zero());
        let _ = recorded.await;
        Drained { cut }
    }

    /// Begins the drain on the first SIGTERM or SIGINT (Ctrl-C) this
    /// process receives, and ends it at once on the second: the listening
    /// runs on a task of its own, started here.
    ///
    /// # Errors
    ///
    /// When the signal handlers cannot be installed.
    pub fn on_signals(&self) -> std::io::Result<()> {
        let mut signals = Signals::new()?;
        let shutdown = self.clone();
        tokio::spawn(async move {
            while signals.next().await {
                shutdown.begin();
            }
        });
        Ok(())
    }
}

impl Default for Shutdown {
    /// A shutdown whose drain may last 30 s.
    fn default() -> Self {
        Self::new(Duration::from_secs(30))
    }
}

/// A count of guards, and a wait for it to fall to zero.
///
/// A guard that leaves wakes waiters only when some wait: a request's
/// guard costs two atomic operations and no lock while nothing drains.
#[derive(Debug, Default)]
pub(crate) struct Count {
    now: AtomicUsize,
    waiting: AtomicUsize,
    zero: Notify,
}

impl Count {
    pub(crate) fn enter(&self) {
        self.now.fetch_add(1, Ordering::AcqRel);
    }

    pub(crate) fn leave(&self) {
        // SeqCst on both sides: a leaver that sees no waiter is seen, by
        // that waiter, to have brought the count to zero.
        if self.now.fetch_sub(1, Ordering::SeqCst) == 1 && self.waiting.load(Ordering::SeqCst) > 0 {
            self.zero.notify_waiters();
        }
    }

    pub(crate) fn now(&self) -> usize {
        self.now.load(Ordering::SeqCst)
    }

    /// Resolves once the count is zero.
    pub(crate) async fn zero(&self) {
        struct Waiting<'a>(&'a AtomicUsize);
        impl Drop for Waiting<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::SeqCst);
            }
        }
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let _waiting = Waiting(&self.waiting);
        loop {
            let zero = self.zero.notified();
            tokio::pin!(zero);
            zero.as_mut().enable();
            if self.now() == 0 {
                return;
            }
            zero.await;
        }
    }
}

/// Work in flight, held until dropped ([`Shutdown::hold`]).
#[derive(Debug)]
#[must_use = "the work is held until this guard drops"]
pub struct Held {
    inner: Arc<Inner>,
}

impl Drop for Held {
    fn drop(&mut self) {
        self.inner.held.leave();
    }
}

/// Work that records its own end when cut ([`Shutdown::hold_record`]).
#[derive(Debug)]
#[must_use = "the record is awaited until this guard drops"]
pub struct Recording {
    inner: Arc<Inner>,
}

impl Drop for Recording {
    fn drop(&mut self) {
        self.inner.recording.leave();
    }
}

/// SIGTERM and SIGINT, as one stream.
struct Signals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> std::io::Result<Self> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Self {
                term: signal(SignalKind::terminate())?,
                int: signal(SignalKind::interrupt())?,
            })
        }
        #[cfg(not(unix))]
        {
            Ok(Self {})
        }
    }

    /// The next signal; `false` once none can come.
    async fn next(&mut self) -> bool {
        #[cfg(unix)]
        {
            tokio::select! {
                got = self.term.recv() => got.is_some(),
                got = self.int.recv() => got.is_some(),
            }
        }
        #[cfg(not(unix))]
        {
            tokio::signal::ctrl_c().await.is_ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::Shutdown;

    #[tokio::test]
    async fn a_drain_ends_when_the_last_held_work_drops_and_not_before() {
        let shutdown = Shutdown::new(Duration::from_secs(30));
        let (first, second) = (shutdown.hold(), shutdown.hold());
        shutdown.begin();
        let waiting = tokio::spawn({
            let shutdown = shutdown.clone();
            async move { shutdown.drained().await.cut }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(first);
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "one piece of work is still held");
        drop(second);
        let cut = tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("the drain hears the last guard drop")
            .unwrap();
        assert_eq!(cut, 0);
    }

    #[tokio::test]
    async fn work_held_and_dropped_while_nothing_drains_leaves_the_drain_free_to_end() {
        let shutdown = Shutdown::new(Duration::from_secs(30));
        for _ in 0..3 {
            drop(shutdown.hold());
        }
        shutdown.begin();
        let drained = tokio::time::timeout(Duration::from_secs(5), shutdown.drained()).await;
        assert_eq!(drained.expect("nothing is held").cut, 0);
    }
}
