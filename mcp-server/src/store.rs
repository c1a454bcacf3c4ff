//! Stores: state a deployment keeps where it chooses. Exactly one member of
//! each store seam is active: the framework's default unless one is linked
//! (`#[store]`) or registered on the builder; two fail boot.
//!
//! The first is the [`EventStore`]: where a legacy session's SSE events are
//! kept so a client whose stream broke can resume it with `Last-Event-ID`.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use crate::boot::BootContext;
use crate::future::BoxFuture;
use crate::lock::lock;
use crate::seam::{OneActive, SeamWord};

/// Keeps the events of legacy SSE streams for resumption.
///
/// Event ids are `"<stream>-<sequence>"`, unique within a session; the
/// store decides how much history to keep.
///
/// ```
/// use mcp_server::store::{EventStore, MemoryEventStore};
///
/// let store = MemoryEventStore::default();
/// let first = store.append("session", 7, b"{\"a\":1}");
/// let second = store.append("session", 7, b"{\"b\":2}");
/// let replay = store.replay_after("session", &first).unwrap();
/// assert_eq!(replay.stream, 7);
/// assert_eq!(replay.events, vec![(second, b"{\"b\":2}".to_vec())]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an event store",
    note = "implement `mcp_server::store::EventStore` and register it (the `#[store]` attribute on the `impl` block does both)"
)]
pub trait EventStore: Send + Sync + 'static {
    /// Stores one event of `stream` in `session`; returns its id.
    fn append(&self, session: &str, stream: u64, message: &[u8]) -> String;

    /// The stream `last_event_id` belongs to and its events after it;
    /// `None` when the id is unknown to this session.
    fn replay_after(&self, session: &str, last_event_id: &str) -> Option<Replay>;

    /// Forgets a session's events.
    fn forget(&self, session: &str);
}

impl OneActive for dyn EventStore {
    const NAME: &'static str = "EventStore";
    const WORD: SeamWord = SeamWord::Store;
    fn fallback(_: &BootContext) -> (&'static str, Arc<Self>) {
        ("MemoryEventStore", Arc::new(MemoryEventStore::default()))
    }
}

/// The events of one stream after a given event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The stream the events belong to.
    pub stream: u64,
    /// The events after the given one, oldest first: their ids and messages.
    pub events: Vec<(String, Vec<u8>)>,
}

/// The default event store: in memory, at most `per_session` events and
/// `bytes_per_session` bytes of messages per session (the oldest go first).
///
/// Sequence numbers run across all streams of a session, so an id is never
/// given twice however much history was dropped.
#[derive(Debug)]
pub struct MemoryEventStore {
    per_session: usize,
    bytes_per_session: usize,
    sessions: Mutex<HashMap<String, SessionEvents>>,
}

#[derive(Debug, Default)]
struct SessionEvents {
    /// Every kept event: stream, sequence, message.
    events: VecDeque<(u64, u64, Vec<u8>)>,
    /// The next sequence number.
    next: u64,
    /// The bytes of the kept messages.
    bytes: usize,
}

impl MemoryEventStore {
    /// A store that keeps at most `per_session` events, and at most
    /// `bytes_per_session` bytes of messages, of each session.
    pub fn new(per_session: usize, bytes_per_session: usize) -> Self {
        Self {
            per_session: per_session.max(1),
            bytes_per_session,
            sessions: Mutex::new(HashMap::new()),
        }
    }
}

impl Default for MemoryEventStore {
    /// 4,096 events and 8 MiB per session.
    fn default() -> Self {
        Self::new(4096, 8 << 20)
    }
}

/// The stream and sequence number of an event id, `"<stream>-<sequence>"`.
pub(crate) fn parse_event_id(id: &str) -> Option<(u64, u64)> {
    let (stream, sequence) = id.split_once('-')?;
    Some((stream.parse().ok()?, sequence.parse().ok()?))
}

impl EventStore for MemoryEventStore {
    fn append(&self, session: &str, stream: u64, message: &[u8]) -> String {
        let mut sessions = lock(&self.sessions);
        let events = sessions.entry(session.to_owned()).or_default();
        let sequence = events.next;
        events.next += 1;
        events.bytes += message.len();
        events
            .events
            .push_back((stream, sequence, message.to_vec()));
        while events.events.len() > self.per_session || events.bytes > self.bytes_per_session {
            match events.events.pop_front() {
                Some((_, _, dropped)) => events.bytes -= dropped.len(),
                None => break,
            }
        }
        format!("{stream}-{sequence}")
    }

    fn replay_after(&self, session: &str, last_event_id: &str) -> Option<Replay> {
        let (stream, after) = parse_event_id(last_event_id)?;
        let sessions = lock(&self.sessions);
        let events = sessions.get(session)?;
        if after >= events.next {
            return None;
        }
        let events = events
            .events
            .iter()
            .filter(|(s, sequence, _)| *s == stream && *sequence > after)
            .map(|(s, sequence, message)| (format!("{s}-{sequence}"), message.clone()))
            .collect();
        Some(Replay { stream, events })
    }

    fn forget(&self, session: &str) {
        lock(&self.sessions).remove(session);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_budget_drops_the_oldest_events_and_ids_are_never_reused() {
        let store = MemoryEventStore::new(100, 10);
        let first = store.append("s", 1, b"123456");
        let second = store.append("s", 1, b"abcdef");
        assert_eq!((first.as_str(), second.as_str()), ("1-0", "1-1"));
        // 12 bytes over a 10-byte budget: the first event is gone.
        let replay = store.replay_after("s", "1-0").unwrap();
        assert_eq!(replay.events, vec![(second, b"abcdef".to_vec())]);
        assert_eq!(store.append("s", 2, b"x"), "2-2");
    }

    #[test]
    fn an_id_from_the_future_or_another_session_replays_nothing() {
        let store = MemoryEventStore::default();
        store.append("s", 1, b"{}");
        assert_eq!(store.replay_after("s", "1-5"), None);
        assert_eq!(store.replay_after("other", "1-0"), None);
        assert_eq!(store.replay_after("s", "not-an-id"), None);
        store.forget("s");
        assert_eq!(store.replay_after("s", "1-0"), None);
    }
}

/// Remembers which sealed request states were used, so each answers one
/// retry: a replayed state is refused before anything runs.
///
/// A record is needed only until its state expires; a store shared by every
/// instance (a Redis, say) makes one-time use hold across instances.
///
/// A claim is a future, so a store on another machine can be asked; one
/// that cannot be reached answers [`Unavailable`], and the retry carrying
/// the state is refused with an internal error saying so (never accepted:
/// a state that cannot be claimed could be replayed).
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use mcp_server::store::{MemoryUsedStates, UsedStateStore};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let used = MemoryUsedStates::default();
/// let expires = SystemTime::now() + Duration::from_secs(60);
/// assert!(used.claim("state-1", expires).await.unwrap());
/// assert!(!used.claim("state-1", expires).await.unwrap());
/// # });
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a used-state store",
    note = "implement `mcp_server::store::UsedStateStore` and register it (the `#[store]` attribute on the `impl` block does both)"
)]
pub trait UsedStateStore: Send + Sync + 'static {
    /// Records that state `id` was used: `Ok(false)` when it already was.
    /// The record may be dropped once `expires` has passed.
    ///
    /// # Errors
    ///
    /// [`Unavailable`] when the store cannot be asked now.
    fn claim<'a>(
        &'a self,
        id: &'a str,
        expires: std::time::SystemTime,
    ) -> BoxFuture<'a, Result<bool, Unavailable>>;
}

/// A store that cannot be asked now (a lost connection, a timeout): what
/// it says of why, for the error the client gets.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unavailable(pub String);

impl OneActive for dyn UsedStateStore {
    const NAME: &'static str = "UsedStateStore";
    const WORD: SeamWord = SeamWord::Store;
    fn fallback(_: &BootContext) -> (&'static str, Arc<Self>) {
        ("MemoryUsedStates", Arc::new(MemoryUsedStates::default()))
    }
}

/// The default used-state store: in this process, each record dropped when
/// its state expires.
#[derive(Debug, Default)]
pub struct MemoryUsedStates {
    inner: Mutex<UsedStates>,
}

#[derive(Debug, Default)]
struct UsedStates {
    ids: std::collections::HashSet<String>,
    /// Ids by expiry, soonest first.
    by_expiry: std::collections::BinaryHeap<std::cmp::Reverse<(std::time::SystemTime, String)>>,
}

impl MemoryUsedStates {
    /// How many records are kept (expired ones go on the next claim).
    pub fn len(&self) -> usize {
        lock(&self.inner).ids.len()
    }

    /// Whether no record is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Records `id` unless it is recorded already; drops expired records first.
    fn claim_now(&self, id: &str, expires: std::time::SystemTime) -> bool {
        let now = std::time::SystemTime::now();
        let mut used = lock(&self.inner);
        while let Some(std::cmp::Reverse((at, _))) = used.by_expiry.peek()
            && *at <= now
        {
            if let Some(std::cmp::Reverse((_, gone))) = used.by_expiry.pop() {
                used.ids.remove(&gone);
            }
        }
        if !used.ids.insert(id.to_owned()) {
            return false;
        }
        used.by_expiry
            .push(std::cmp::Reverse((expires, id.to_owned())));
        true
    }
}

impl UsedStateStore for MemoryUsedStates {
    fn claim<'a>(
        &'a self,
        id: &'a str,
        expires: std::time::SystemTime,
    ) -> BoxFuture<'a, Result<bool, Unavailable>> {
        Box::pin(std::future::ready(Ok(self.claim_now(id, expires))))
    }
}
