//! Where one request's messages go: held back while the response may still
//! be plain JSON, then streamed as SSE once a notification or a request to
//! the client has to go out before the response.
//!
//! On a legacy session every streamed event is numbered and kept in the
//! event store, and a client whose stream broke picks it up again with
//! `Last-Event-ID`; modern streams carry no ids.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use mcp_core::jsonrpc::Notification;
use tokio::sync::Notify;

use super::frames::{self, FrameReceiver, FrameSender};

use super::journal::Journal;
use super::sse;
use crate::seam::store::{EventId, Unavailable};
use crate::transport::NotificationSink;
use crate::vocabulary::lock;

/// The resumable streams of one legacy session: their numbers, their
/// events in the event store, and the outlets still writing to them.
pub(crate) struct Streams {
    session: String,
    journal: Journal,
    /// The next stream number.
    next: AtomicU64,
    /// The next event's sequence number, across the session's streams.
    sequence: AtomicU64,
    live: Mutex<HashMap<u64, Weak<Outlet>>>,
    /// Whether the session's events go with this instance's copy of it.
    forget_on_drop: bool,
}

impl Streams {
    /// The streams of session `session`; stream 0 is its standalone stream,
    /// and the others and every event are numbered from `base` (0 for a
    /// session opened here; a session taken over from another instance
    /// starts apart from the numbers that instance gave). The events are
    /// forgotten when the last holder drops them if `forget_on_drop`.
    pub(crate) fn new(session: String, journal: Journal, base: u64, forget_on_drop: bool) -> Self {
        Self {
            journal,
            session,
            next: AtomicU64::new(base.max(1)),
            sequence: AtomicU64::new(base),
            live: Mutex::new(HashMap::new()),
            forget_on_drop,
        }
    }

    /// A new stream number for a POST's response stream.
    fn next_number(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    /// Keeps one event of `stream`; returns its id. The event may go out
    /// before the store has it: a replay waits for it.
    pub(crate) fn append(&self, stream: u64, message: &[u8]) -> String {
        let id = EventId {
            stream,
            sequence: self.sequence.fetch_add(1, Ordering::Relaxed),
        };
        self.journal.write(id, message);
        id.to_string()
    }

    /// Remembers the outlet of a stream, for resumption.
    fn register(&self, stream: u64, outlet: &Arc<Outlet>) {
        let mut live = lock(&self.live);
        live.retain(|_, o| o.strong_count() > 0);
        live.insert(stream, Arc::downgrade(outlet));
    }

    /// The outlet of a stream still being written.
    pub(crate) fn outlet(&self, stream: u64) -> Option<Arc<Outlet>> {
        lock(&self.live).get(&stream)?.upgrade()
    }

    /// Forgets every outlet: the session ended.
    pub(crate) fn close(&self) {
        lock(&self.live).clear();
    }

    /// Sends the stored events after `last_event_id` to `frames`, once
    /// the store has every event sent so far; returns their ids.
    ///
    /// # Errors
    ///
    /// When the event store cannot be asked.
    pub(crate) async fn replay(
        &self,
        last_event_id: &str,
        frames: &FrameSender,
    ) -> Result<Vec<String>, Unavailable> {
        self.journal.flush().await;
        let store = self.journal.store();
        let Some(replay) = store.replay_after(&self.session, last_event_id).await? else {
            return Ok(Vec::new());
        };
        let mut sent = Vec::with_capacity(replay.events.len());
        for (id, message) in replay.events {
            // The priming event has no message to replay.
            if !message.is_empty() {
                let _ = frames.send(sse::event(Some(&id), &message));
            }
            sent.push(id);
        }
        Ok(sent)
    }
}

impl Drop for Streams {
    /// The session's events go with their last holder, unless another
    /// instance may take the session over and find them: a request still
    /// streaming when the session ended may append until it finishes.
    fn drop(&mut self) {
        if self.forget_on_drop {
            let (store, session) = (
                self.journal.store().clone(),
                std::mem::take(&mut self.session),
            );
            super::journal::soon(Box::pin(async move {
                if let Err(error) = store.forget(&session).await {
                    tracing::warn!(session, %error, "an ended session's events stay until the store drops them");
                }
            }));
        }
    }
}

/// The messages of one request on their way to the client.
pub(crate) struct Outlet {
    state: Mutex<State>,
    ready: Notify,
    stream: Option<(Arc<Streams>, u64)>,
    /// The response was handed back before any stream started.
    answered: std::sync::atomic::AtomicBool,
    /// While a broken stream is being resumed: what went out meanwhile,
    /// sent to the new reader once the replay is done.
    parked: Mutex<Option<Vec<Parked>>>,
}

/// An event that went out while its stream had no reader: its id, its message.
type Parked = (Option<String>, Vec<u8>);

enum State {
    /// Nothing forces a stream yet; what must go out waits here.
    Holding(Vec<Vec<u8>>),
    /// Streaming to the reader of the stream, while there is one.
    Streaming(Option<FrameSender>),
    /// The response went out; the stream is closed.
    Done,
}

impl Outlet {
    /// An outlet for a modern request (no ids) or a legacy one (numbered
    /// among its session's `streams`).
    pub(crate) fn new(streams: Option<Arc<Streams>>) -> Arc<Self> {
        let stream = streams.map(|s| {
            let number = s.next_number();
            (s, number)
        });
        Arc::new(Self {
            state: Mutex::new(State::Holding(Vec::new())),
            ready: Notify::new(),
            stream,
            answered: std::sync::atomic::AtomicBool::new(false),
            parked: Mutex::new(None),
        })
    }

    /// Sends one message before the response; it forces a stream. `false`
    /// when the message cannot go out: the response is JSON only, or sent.
    pub(crate) fn send(&self, message: Vec<u8>) -> bool {
        let mut state = lock(&self.state);
        match &mut *state {
            State::Holding(held) => {
                held.push(message);
                self.ready.notify_one();
                true
            }
            State::Streaming(reader) => {
                self.deliver(reader, &message);
                true
            }
            State::Done => false,
        }
    }

    /// Drops what must not go out: the client reads only a JSON response.
    pub(crate) fn close(&self) {
        *lock(&self.state) = State::Done;
    }

    /// Resolves once something was sent that needs a stream.
    pub(crate) async fn needs_stream(&self) {
        self.ready.notified().await;
    }

    /// Whether messages are waiting that need a stream.
    pub(crate) fn holds_messages(&self) -> bool {
        matches!(&*lock(&self.state), State::Holding(held) if !held.is_empty())
    }

    /// Frames handed to the response body and not read by it yet.
    pub(crate) fn unread(&self) -> usize {
        match &*lock(&self.state) {
            State::Streaming(Some(reader)) => reader.queued(),
            _ => 0,
        }
    }

    /// Starts the stream: a priming event on a legacy session, then what
    /// was held back; returns what the response body reads, which holds at
    /// most `backlog` unread bytes.
    pub(crate) fn start_stream(self: &Arc<Self>, retry: Duration, backlog: usize) -> FrameReceiver {
        let (frames, reader) = frames::channel(backlog);
        let mut state = lock(&self.state);
        if let Some((streams, number)) = &self.stream {
            // Only a stream can break and be resumed: a JSON answer is not remembered.
            streams.register(*number, self);
            let id = streams.append(*number, b"");
            let _ = frames.send(sse::priming(&id, retry.as_millis()));
        }
        let held = match std::mem::replace(&mut *state, State::Streaming(Some(frames))) {
            State::Holding(held) => held,
            _ => Vec::new(),
        };
        if let State::Streaming(reader) = &mut *state {
            for message in held {
                self.deliver(reader, &message);
            }
        }
        reader
    }

    /// Sends the response and closes the stream if the stream has started
    /// (`true`); otherwise notes that the response was handed back.
    pub(crate) fn finish_if_streaming(&self, response: &[u8]) -> bool {
        let mut state = lock(&self.state);
        if let State::Streaming(reader) = &mut *state {
            self.deliver(reader, response);
            *state = State::Done;
            return true;
        }
        self.answered.store(true, Ordering::Release);
        false
    }

    /// Whether the response was handed back before the stream started.
    pub(crate) fn answered(&self) -> bool {
        self.answered.load(Ordering::Acquire)
    }

    /// Sends the response and closes the stream.
    pub(crate) fn finish(&self, response: &[u8]) {
        let mut state = lock(&self.state);
        if let State::Streaming(reader) = &mut *state {
            self.deliver(reader, response);
        }
        *state = State::Done;
    }

    /// Continues the stream on a new reader after a break: replays what
    /// followed `last_event_id`, then (if the response is still to come)
    /// streams on. What goes out while the replay is read is parked, then
    /// sent after it (less what the replay already held).
    ///
    /// # Errors
    ///
    /// When the event store cannot be asked: the stream stays without a
    /// reader, and a later resumption gets what it missed meanwhile.
    pub(crate) async fn resume(
        &self,
        last_event_id: &str,
        frames: FrameSender,
    ) -> Result<(), Unavailable> {
        {
            let mut state = lock(&self.state);
            if let State::Streaming(reader) = &mut *state {
                *reader = None;
                *lock(&self.parked) = Some(Vec::new());
            }
        }
        let replayed = match &self.stream {
            Some((streams, _)) => streams.replay(last_event_id, &frames).await,
            None => Ok(Vec::new()),
        };
        let mut state = lock(&self.state);
        let parked = lock(&self.parked).take().unwrap_or_default();
        // Parked events are kept in the store too: a later resumption has them.
        let replayed = replayed?;
        for (id, message) in parked {
            if id.as_ref().is_some_and(|id| replayed.contains(id)) {
                continue;
            }
            let _ = frames.send(sse::event(id.as_deref(), &message));
        }
        if let State::Streaming(reader) = &mut *state {
            *reader = Some(frames);
        }
        Ok(())
    }

    fn deliver(&self, reader: &mut Option<FrameSender>, message: &[u8]) {
        let id = self
            .stream
            .as_ref()
            .map(|(streams, number)| streams.append(*number, message));
        match reader {
            Some(frames) => {
                if frames.send(sse::event(id.as_deref(), message)).is_err() {
                    // The reader went away; a legacy client may come back for the rest.
                    *reader = None;
                }
            }
            None => {
                if let Some(parked) = lock(&self.parked).as_mut() {
                    parked.push((id, message.to_vec()));
                }
            }
        }
    }
}

/// The notification sink of one request: into its outlet.
pub(crate) struct OutletSink(pub(crate) Arc<Outlet>);

impl NotificationSink for OutletSink {
    fn send(&self, notification: Notification) {
        if let Ok(bytes) = serde_json::to_vec(&notification) {
            self.0.send(bytes);
        }
    }

    fn backlog(&self) -> usize {
        self.0.unread()
    }
}
