//! The [`EventStore`]: where a legacy session's SSE events are kept, so a
//! client whose stream broke resumes it with `Last-Event-ID`, on this
//! instance or, with a shared store, on another.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex};

use super::Unavailable;
use crate::vocabulary::BootContext;
use crate::vocabulary::BoxFuture;
use crate::vocabulary::lock;
use crate::vocabulary::seam::{OneActive, SeamWord};

/// The id of one SSE event of a legacy session, `"<stream>-<sequence>"`.
///
/// The transport mints ids, unique within a session on every instance
/// that serves it: an instance that takes a session over numbers its
/// streams and events from a random base of its own.
///
/// ```
/// use mcp_server::seam::store::EventId;
///
/// let id = EventId { stream: 3, sequence: 17 };
/// assert_eq!(id.to_string(), "3-17");
/// assert_eq!(EventId::parse("3-17"), Some(id));
/// assert_eq!(EventId::parse("3"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EventId {
    /// The stream the event went out on: 0 is a session's standalone
    /// stream, any other number one `POST`'s response stream.
    pub stream: u64,
    /// Its place among the session's events.
    pub sequence: u64,
}

impl EventId {
    /// The id `text` spells, `None` when it is not one.
    pub fn parse(text: &str) -> Option<Self> {
        let (stream, sequence) = text.split_once('-')?;
        Some(Self {
            stream: stream.parse().ok()?,
            sequence: sequence.parse().ok()?,
        })
    }
}

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.stream, self.sequence)
    }
}

/// Keeps the events of legacy SSE streams for resumption.
///
/// Every method is a future that may fail, so that a store on another
/// machine, shared by every instance, fits. The transport sends an event
/// live without waiting for its [`append`](Self::append), and writes a
/// session's events in the order they went out; an event whose append
/// failed went out live but cannot be resumed (a warning says so). A
/// replay that fails answers the resuming client with an error. The store
/// decides how much history to keep.
///
/// ```
/// use mcp_server::seam::store::{EventId, EventStore, MemoryEventStore};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let store = MemoryEventStore::default();
/// let first = EventId { stream: 7, sequence: 0 };
/// let second = EventId { stream: 7, sequence: 1 };
/// store.append("session", first, b"{\"a\":1}".to_vec()).await.unwrap();
/// store.append("session", second, b"{\"b\":2}".to_vec()).await.unwrap();
/// let replay = store.replay_after("session", "7-0").await.unwrap().unwrap();
/// assert_eq!(replay.stream, 7);
/// assert_eq!(replay.events, vec![("7-1".to_owned(), b"{\"b\":2}".to_vec())]);
/// # });
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an event store",
    note = "implement `mcp_server::seam::store::EventStore` and register it (the `#[store]` attribute on the `impl` block does both)"
)]
pub trait EventStore: Send + Sync + 'static {
    /// Keeps one event of `session` (an empty `message` is a stream's
    /// priming event: it is replayed as nothing). The message is the
    /// store's to keep: the transport copies it once, for this call.
    ///
    /// # Errors
    ///
    /// [`Unavailable`] when the store cannot be asked now.
    fn append<'a>(
        &'a self,
        session: &'a str,
        id: EventId,
        message: Vec<u8>,
    ) -> BoxFuture<'a, Result<(), Unavailable>>;

    /// The stream `last_event_id` belongs to and its events after it,
    /// oldest first; `None` when the id is unknown to this session.
    ///
    /// # Errors
    ///
    /// [`Unavailable`] when the store cannot be asked now.
    fn replay_after<'a>(
        &'a self,
        session: &'a str,
        last_event_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<Replay>, Unavailable>>;

    /// Forgets a session's events: the session ended.
    ///
    /// # Errors
    ///
    /// [`Unavailable`] when the store cannot be asked now.
    fn forget<'a>(&'a self, session: &'a str) -> BoxFuture<'a, Result<(), Unavailable>>;

    /// Whether the events outlive this process, for the other instances
    /// (`true` unless overridden). A store in this process answers `false`:
    /// a session's events are then forgotten as soon as this instance lets
    /// the session go, even when another instance may take it over.
    fn is_shared(&self) -> bool {
        true
    }
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
#[derive(Debug)]
pub struct MemoryEventStore {
    per_session: usize,
    bytes_per_session: usize,
    sessions: Mutex<HashMap<String, SessionEvents>>,
}

#[derive(Debug, Default)]
struct SessionEvents {
    /// Every kept event: its id and message.
    events: VecDeque<(EventId, Vec<u8>)>,
    /// One past the highest sequence appended: a later id is unknown.
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

    fn append_now(&self, session: &str, id: EventId, message: Vec<u8>) {
        let mut sessions = lock(&self.sessions);
        let events = sessions.entry(session.to_owned()).or_default();
        events.next = events.next.max(id.sequence.saturating_add(1));
        events.bytes += message.len();
        events.events.push_back((id, message));
        while events.events.len() > self.per_session || events.bytes > self.bytes_per_session {
            match events.events.pop_front() {
                Some((_, dropped)) => events.bytes -= dropped.len(),
                None => break,
            }
        }
    }

    fn replay_now(&self, session: &str, last_event_id: &str) -> Option<Replay> {
        let after = EventId::parse(last_event_id)?;
        let sessions = lock(&self.sessions);
        let events = sessions.get(session)?;
        if after.sequence >= events.next {
            return None;
        }
        let events = events
            .events
            .iter()
            .filter(|(id, _)| id.stream == after.stream && id.sequence > after.sequence)
            .map(|(id, message)| (id.to_string(), message.clone()))
            .collect();
        Some(Replay {
            stream: after.stream,
            events,
        })
    }
}

impl Default for MemoryEventStore {
    /// 4,096 events and 8 MiB per session.
    fn default() -> Self {
        Self::new(4096, 8 << 20)
    }
}

impl EventStore for MemoryEventStore {
    fn append<'a>(
        &'a self,
        session: &'a str,
        id: EventId,
        message: Vec<u8>,
    ) -> BoxFuture<'a, Result<(), Unavailable>> {
        self.append_now(session, id, message);
        Box::pin(std::future::ready(Ok(())))
    }

    fn replay_after<'a>(
        &'a self,
        session: &'a str,
        last_event_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<Replay>, Unavailable>> {
        Box::pin(std::future::ready(Ok(
            self.replay_now(session, last_event_id)
        )))
    }

    fn forget<'a>(&'a self, session: &'a str) -> BoxFuture<'a, Result<(), Unavailable>> {
        lock(&self.sessions).remove(session);
        Box::pin(std::future::ready(Ok(())))
    }

    fn is_shared(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(stream: u64, sequence: u64) -> EventId {
        EventId { stream, sequence }
    }

    #[test]
    fn the_byte_budget_drops_the_oldest_events() {
        let store = MemoryEventStore::new(100, 10);
        store.append_now("s", id(1, 0), b"123456".to_vec());
        store.append_now("s", id(1, 1), b"abcdef".to_vec());
        // 12 bytes over a 10-byte budget: the first event is gone.
        let replay = store.replay_now("s", "1-0").unwrap();
        assert_eq!(replay.events, vec![("1-1".to_owned(), b"abcdef".to_vec())]);
    }

    #[test]
    fn an_id_from_the_future_or_another_session_replays_nothing() {
        let store = MemoryEventStore::default();
        store.append_now("s", id(1, 0), b"{}".to_vec());
        assert_eq!(store.replay_now("s", "1-5"), None);
        assert_eq!(store.replay_now("other", "1-0"), None);
        assert_eq!(store.replay_now("s", "not-an-id"), None);
        drop(store.forget("s"));
        assert_eq!(store.replay_now("s", "1-0"), None);
    }

    #[test]
    fn a_replay_holds_only_the_events_of_its_own_stream() {
        let store = MemoryEventStore::default();
        store.append_now("s", id(1, 0), Vec::new());
        store.append_now("s", id(2, 1), b"other".to_vec());
        store.append_now("s", id(1, 2), b"mine".to_vec());
        let replay = store.replay_now("s", "1-0").unwrap();
        assert_eq!(replay.events, vec![("1-2".to_owned(), b"mine".to_vec())]);
    }
}
