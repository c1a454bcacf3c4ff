//! The listeners of one instance: 2026-07-28 listen streams, each with its
//! grant and a bounded queue, and the feed of 2025-11-25 sessions.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock, Weak};

use std::collections::VecDeque;

use tokio::sync::{Notify, broadcast};
use tokio_util::sync::CancellationToken;

use super::change::Change;
use super::grant::Grant;
use crate::vocabulary::lock;

/// How a listener's stream ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Closed {
    /// The server ends every subscription (shutting down): a graceful close.
    Ending,
    /// The listener fell behind: its queue was full when a change came.
    Lagged,
}

/// The listeners of this instance.
pub(crate) struct Hub {
    legacy: broadcast::Sender<Change>,
    listeners: RwLock<HashMap<u64, Entry>>,
    next: AtomicU64,
    cap: usize,
    queue: usize,
    ending: CancellationToken,
}

struct Entry {
    grant: Arc<Grant>,
    queue: Arc<Queue>,
}

/// One listener's queue: a bounded deque and a wake-up, allocated only as
/// changes arrive (an idle listener costs a few dozen bytes).
struct Queue {
    changes: std::sync::Mutex<VecDeque<Arc<Change>>>,
    ready: Notify,
    /// The hub let go of the listener: it fell behind.
    lagged: AtomicBool,
}

impl Queue {
    /// Queues `change`; `false` when `cap` changes already wait.
    fn push(&self, change: Arc<Change>, cap: usize) -> bool {
        let mut changes = lock(&self.changes);
        if changes.len() >= cap {
            return false;
        }
        changes.push_back(change);
        drop(changes);
        self.ready.notify_one();
        true
    }
}

impl Hub {
    /// A hub for at most `cap` listeners, each queueing at most `queue` changes.
    pub(crate) fn new(cap: usize, queue: usize) -> Self {
        Self {
            legacy: broadcast::channel(256).0,
            listeners: RwLock::new(HashMap::new()),
            next: AtomicU64::new(1),
            cap,
            queue: queue.max(1),
            ending: CancellationToken::new(),
        }
    }

    /// Tells every listener whose grant holds the change's topic, and every
    /// legacy session's feed.
    pub(crate) fn deliver(&self, change: Change) {
        let change = Arc::new(change);
        let mut behind = Vec::new();
        {
            let listeners = self
                .listeners
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for (id, entry) in listeners.iter() {
                if !entry.grant.admits(&change) {
                    continue;
                }
                if !entry.queue.push(change.clone(), self.queue) {
                    entry.queue.lagged.store(true, Ordering::Release);
                    entry.queue.ready.notify_one();
                    behind.push(*id);
                }
            }
        }
        if !behind.is_empty() {
            // A listener let go of ends once it drained its queue.
            let mut listeners = self
                .listeners
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for id in behind {
                listeners.remove(&id);
            }
        }
        // No legacy session is not an error.
        let _ = self.legacy.send(Arc::unwrap_or_clone(change));
    }

    /// The feed of legacy sessions: every change, from now on.
    pub(crate) fn legacy_feed(&self) -> broadcast::Receiver<Change> {
        self.legacy.subscribe()
    }

    /// A new listener with `grant`; `None` when `cap` listeners are held.
    pub(crate) fn attach(self: &Arc<Self>, grant: Arc<Grant>) -> Option<Listener> {
        let queue = Arc::new(Queue {
            changes: std::sync::Mutex::new(VecDeque::new()),
            ready: Notify::new(),
            lagged: AtomicBool::new(false),
        });
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        {
            let mut listeners = self
                .listeners
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if listeners.len() >= self.cap {
                return None;
            }
            listeners.insert(
                id,
                Entry {
                    grant,
                    queue: queue.clone(),
                },
            );
        }
        Some(Listener {
            id,
            hub: Arc::downgrade(self),
            queue,
            ending: self.ending.clone(),
        })
    }

    /// How many listeners are held.
    pub(crate) fn len(&self) -> usize {
        self.listeners
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .len()
    }

    /// The most listeners held at once.
    pub(crate) fn cap(&self) -> usize {
        self.cap
    }

    /// Ends every listener gracefully, now and from now on.
    pub(crate) fn end_all(&self) {
        self.ending.cancel();
    }

    fn detach(&self, id: u64) {
        self.listeners
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&id);
    }
}

/// One listener: the changes its grant admits, in order.
pub(crate) struct Listener {
    id: u64,
    hub: Weak<Hub>,
    queue: Arc<Queue>,
    ending: CancellationToken,
}

impl Listener {
    /// Whether the hub let the listener go for falling behind.
    pub(crate) fn lagged(&self) -> bool {
        self.queue.lagged.load(Ordering::Acquire)
    }

    /// The next change, or how the stream ends.
    pub(crate) async fn next(&mut self) -> Result<Arc<Change>, Closed> {
        loop {
            if self.ending.is_cancelled() {
                return Err(Closed::Ending);
            }
            if let Some(change) = lock(&self.queue.changes).pop_front() {
                return Ok(change);
            }
            if self.lagged() {
                return Err(Closed::Lagged);
            }
            // A change pushed since the check left a permit: no wake-up is lost.
            tokio::select! {
                biased;
                () = self.ending.cancelled() => return Err(Closed::Ending),
                () = self.queue.ready.notified() => {}
            }
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        if let Some(hub) = self.hub.upgrade() {
            hub.detach(self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::change::filter;
    use super::*;

    fn tools_grant() -> Arc<Grant> {
        let mut grant = Grant::default();
        grant.allow_flag(filter::TOOLS_LIST_CHANGED);
        Arc::new(grant)
    }

    #[tokio::test]
    async fn a_listener_hears_only_what_its_grant_admits() {
        let hub = Arc::new(Hub::new(10, 4));
        let mut listener = hub.attach(tools_grant()).unwrap();
        hub.deliver(Change::prompts_list_changed());
        hub.deliver(Change::tools_list_changed());
        assert_eq!(
            *listener.next().await.unwrap(),
            Change::tools_list_changed()
        );
    }

    #[tokio::test]
    async fn a_listener_that_falls_behind_is_closed_as_lagged_after_its_queue() {
        let hub = Arc::new(Hub::new(10, 2));
        let mut listener = hub.attach(tools_grant()).unwrap();
        for _ in 0..3 {
            hub.deliver(Change::tools_list_changed());
        }
        assert_eq!(hub.len(), 0, "the slow listener is let go at once");
        assert!(listener.next().await.is_ok());
        assert!(listener.next().await.is_ok());
        assert_eq!(listener.next().await.unwrap_err(), Closed::Lagged);
    }

    #[tokio::test]
    async fn the_cap_refuses_listeners_and_a_dropped_listener_frees_its_place() {
        let hub = Arc::new(Hub::new(1, 2));
        let first = hub.attach(tools_grant()).unwrap();
        assert!(hub.attach(tools_grant()).is_none());
        drop(first);
        assert!(hub.attach(tools_grant()).is_some());
    }

    #[tokio::test]
    async fn ending_closes_every_listener_gracefully() {
        let hub = Arc::new(Hub::new(10, 2));
        let mut listener = hub.attach(tools_grant()).unwrap();
        hub.end_all();
        assert_eq!(listener.next().await.unwrap_err(), Closed::Ending);
    }
}
