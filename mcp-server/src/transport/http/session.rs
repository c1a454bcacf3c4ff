//! Legacy (2025-11-25) sessions over HTTP: minted by `initialize`, named by
//! `Mcp-Session-Id` on every later request, ended by `DELETE` or by idling
//! past their expiry, and capped in number.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::frames::{FrameSender, WeakFrameSender};
use mcp_core::jsonrpc::RequestId;
use tokio_util::sync::CancellationToken;

use super::outlet::Streams;
use crate::connection::Connection;
use crate::lock::lock;
use crate::source::Principal;
use crate::store::EventStore;
use crate::transport::outbound::Outbound;
use crate::transport::running::Running;

/// Every live session of one endpoint.
pub(crate) struct Sessions {
    live: Mutex<HashMap<String, Arc<HttpSession>>>,
    idle: Duration,
    cap: usize,
    events: Arc<dyn EventStore>,
}

impl Sessions {
    pub(crate) fn new(idle: Duration, cap: usize, events: Arc<dyn EventStore>) -> Self {
        Self {
            live: Mutex::new(HashMap::new()),
            idle,
            cap,
            events,
        }
    }

    /// A new session, once expired ones are swept out; `None` when the cap
    /// is still reached.
    /// A new session, opened by the caller named `owner` (`None`: anonymous).
    pub(crate) fn create(&self, owner: Option<String>) -> Option<Arc<HttpSession>> {
        let mut live = lock(&self.live);
        let now = Instant::now();
        live.retain(|_, session| {
            let expired = session.expired(now, self.idle);
            if expired {
                session.end();
            }
            !expired
        });
        if live.len() >= self.cap {
            return None;
        }
        let session = Arc::new(HttpSession::new(mint_id(), owner, self.events.clone()));
        live.insert(session.id.clone(), session.clone());
        Some(session)
    }

    /// The live session named `id`, touched; an expired one is ended and forgotten.
    pub(crate) fn get(&self, id: &str) -> Option<Arc<HttpSession>> {
        let mut live = lock(&self.live);
        let session = live.get(id)?.clone();
        if session.expired(Instant::now(), self.idle) {
            live.remove(id);
            session.end();
            return None;
        }
        session.touch();
        Some(session)
    }

    /// Ends the session named `id`; `false` when there was none.
    pub(crate) fn remove(&self, id: &str) -> bool {
        let removed = lock(&self.live).remove(id);
        removed.map(|session| session.end()).is_some()
    }
}

/// 128 random bits as 32 hex digits: visible ASCII, unguessable.
fn mint_id() -> String {
    let mut bytes = [0u8; 16];
    // The operating system's generator failing leaves no safe way to mint ids.
    getrandom::fill(&mut bytes).expect("the operating system's random generator failed");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One legacy client's session.
pub(crate) struct HttpSession {
    pub(crate) id: String,
    /// The subject of the caller that opened it.
    owner: Option<String>,
    pub(crate) connection: Arc<Connection>,
    pub(crate) outbound: Arc<Outbound>,
    pub(crate) streams: Arc<Streams>,
    /// Fires when the session ends; every request of the session is its child.
    pub(crate) ended: CancellationToken,
    last_seen: Mutex<Instant>,
    pub(crate) running: Running,
    standalone: Mutex<Option<WeakFrameSender>>,
}

impl HttpSession {
    /// Whether `principal` is the caller that opened the session: another
    /// caller is told of no such session.
    pub(crate) fn owned_by(&self, principal: &Principal) -> bool {
        self.owner == principal.subject
    }

    fn new(id: String, owner: Option<String>, events: Arc<dyn EventStore>) -> Self {
        Self {
            streams: Arc::new(Streams::new(id.clone(), events)),
            connection: Arc::new(Connection::over("http").with_id(id.clone())),
            id,
            owner,
            outbound: Arc::new(Outbound::default()),
            ended: CancellationToken::new(),
            last_seen: Mutex::new(Instant::now()),
            running: Running::default(),
            standalone: Mutex::new(None),
        }
    }

    fn idle_since(&self, now: Instant) -> Duration {
        now.saturating_duration_since(*lock(&self.last_seen))
    }

    /// Whether the session is expired: idle past `idle` with nothing running
    /// and no standalone stream open.
    fn expired(&self, now: Instant, idle: Duration) -> bool {
        self.idle_since(now) >= idle && self.running.is_empty() && !self.standalone_open()
    }

    fn standalone_open(&self) -> bool {
        lock(&self.standalone)
            .as_ref()
            .and_then(WeakFrameSender::upgrade)
            .is_some_and(|frames| !frames.is_closed())
    }

    /// Makes `frames` the session's one standalone stream; `false` while
    /// another is open (a message goes out on one stream only).
    pub(crate) fn claim_standalone(&self, frames: &FrameSender) -> bool {
        let mut standalone = lock(&self.standalone);
        let open = standalone
            .as_ref()
            .and_then(WeakFrameSender::upgrade)
            .is_some_and(|frames| !frames.is_closed());
        if open {
            return false;
        }
        *standalone = Some(frames.downgrade());
        true
    }

    pub(crate) fn touch(&self) {
        *lock(&self.last_seen) = Instant::now();
    }

    fn end(&self) {
        self.ended.cancel();
        self.streams.close();
        self.connection.close();
    }

    /// Tracks a running request, cancelled with the session or by the client.
    pub(crate) fn start(&self, id: RequestId) -> CancellationToken {
        let token = self.ended.child_token();
        self.running.start(id, token.clone());
        token
    }

    /// Forgets a finished request; the session was active until now.
    pub(crate) fn stop(&self, id: &RequestId) {
        self.running.stop(id);
        self.touch();
    }
}
