//! Legacy (2025-11-25) sessions over HTTP: minted by `initialize`, named by
//! `Mcp-Session-Id` on every later request, ended by `DELETE` or by idling
//! past their expiry, and capped in number. With a shared
//! [`SessionStore`], a session another instance opened is loaded on its
//! first request here, and goes on with what it settled.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::frames::{FrameSender, WeakFrameSender};
use mcp_core::jsonrpc::RequestId;
use tokio_util::sync::CancellationToken;

use super::journal::Journal;
use super::outlet::Streams;
use crate::auth::Principal;
use crate::context::Negotiated;
use crate::seam::store::{EventStore, SessionRecord, SessionStore, Unavailable};
use crate::transport::{InFlight, Outbound, Session};
use crate::vocabulary::Shutdown;
use crate::vocabulary::lock;

/// Every live session of one endpoint.
pub(crate) struct Sessions {
    live: Mutex<HashMap<String, Arc<HttpSession>>>,
    idle: Duration,
    cap: usize,
    events: Arc<dyn EventStore>,
    /// The store other instances find sessions in; `None` when the active
    /// one keeps nothing, and no request asks it anything.
    shared: Option<Arc<dyn SessionStore>>,
    /// Whether the events go with the session when this instance lets it
    /// go: they stay when another instance may take it over and find them.
    forget_on_drop: bool,
    /// The drain a session's pending event writes hold open.
    shutdown: Shutdown,
}

impl Sessions {
    pub(crate) fn new(
        idle: Duration,
        cap: usize,
        events: Arc<dyn EventStore>,
        store: Arc<dyn SessionStore>,
        shutdown: Shutdown,
    ) -> Self {
        let shared = store.is_shared().then_some(store);
        let forget_on_drop = !(shared.is_some() && events.is_shared());
        Self {
            live: Mutex::new(HashMap::new()),
            idle,
            cap,
            events,
            shared,
            forget_on_drop,
            shutdown,
        }
    }

    /// Cancels every question a live session's requests wait on the
    /// client for, and asks no more: an answer sent to another instance
    /// would never reach them. The handlers hear the cancellation and
    /// answer their requests.
    pub(crate) fn close_questions(&self) {
        for session in lock(&self.live).values() {
            session.outbound.close();
        }
    }

    /// The writes of session `id`'s events.
    fn journal(&self, id: &str) -> Journal {
        Journal::new(id, self.events.clone(), self.shutdown.clone())
    }

    /// The session named `id` if `principal` opened it: live here, or
    /// taken over from the shared store (another instance opened it). A
    /// live session costs no store call; one taken over counts towards
    /// the cap like one opened here.
    ///
    /// # Errors
    ///
    /// When the session is not live here and the store cannot be asked.
    pub(crate) async fn find(
        &self,
        id: &str,
        principal: &Principal,
    ) -> Result<Option<Arc<HttpSession>>, Unavailable> {
        if let Some(session) = self.get(id) {
            if !session.owned_by(principal) {
                return Ok(None);
            }
            self.refresh(&session);
            return Ok(Some(session));
        }
        let Some(store) = &self.shared else {
            return Ok(None);
        };
        let Some(record) = store.load(id).await? else {
            return Ok(None);
        };
        if record.id != id || record.owner != principal.subject {
            return Ok(None);
        }
        let mut live = lock(&self.live);
        if let Some(session) = live.get(id) {
            // Taken over meanwhile by another request.
            return Ok(Some(session.clone()));
        }
        sweep(&mut live, self.idle);
        if live.len() >= self.cap {
            tracing::warn!(
                session = id,
                cap = self.cap,
                "a session of another instance was not taken over: the session cap is reached"
            );
            return Ok(None);
        }
        let journal = self.journal(&record.id);
        let session = Arc::new(HttpSession::restored(record, journal, self.forget_on_drop));
        live.insert(session.id.clone(), session.clone());
        Ok(Some(session))
    }

    /// Whether sessions are kept where other instances find them.
    pub(crate) fn shared(&self) -> bool {
        self.shared.is_some()
    }

    /// Saves what `session` keeps in the shared store, for the other
    /// instances; nothing without one, or before `initialize` settled it.
    ///
    /// # Errors
    ///
    /// When the store cannot be asked.
    pub(crate) async fn persist(&self, session: &HttpSession) -> Result<(), Unavailable> {
        let (Some(store), Some(record)) = (&self.shared, session.record()) else {
            return Ok(());
        };
        *lock(&session.stored_at) = Instant::now();
        store.save(&record, self.idle).await
    }

    /// Extends a session in use in the shared store before its copy there
    /// expires: at most four times per idle period, in the background.
    pub(crate) fn refresh(&self, session: &HttpSession) {
        let Some(store) = &self.shared else { return };
        {
            let mut stored_at = lock(&session.stored_at);
            if stored_at.elapsed() < self.idle / 4 {
                return;
            }
            *stored_at = Instant::now();
        }
        let (store, idle, id) = (store.clone(), self.idle, session.id.clone());
        tokio::spawn(async move {
            if let Err(error) = store.touch(&id, idle).await {
                tracing::warn!(session = %id, %error, "a session's shared copy was not extended");
            }
        });
    }

    /// Ends the session named `id` here and in the shared stores.
    ///
    /// # Errors
    ///
    /// When a store cannot be asked: its copy stays until it expires.
    pub(crate) async fn end(&self, id: &str) -> Result<(), Unavailable> {
        self.remove(id);
        let Some(store) = &self.shared else {
            return Ok(());
        };
        let removed = store.remove(id).await;
        let forgotten = if self.forget_on_drop {
            // Forgotten here already, with the session's last holder.
            Ok(())
        } else {
            self.events.forget(id).await
        };
        removed.and(forgotten)
    }

    /// A new session, opened by the caller named `owner` (`None`:
    /// anonymous), once expired ones are swept out; `None` when the cap is
    /// still reached.
    pub(crate) fn create(&self, owner: Option<String>) -> Option<Arc<HttpSession>> {
        let mut live = lock(&self.live);
        sweep(&mut live, self.idle);
        if live.len() >= self.cap {
            return None;
        }
        let id = mint_id();
        let streams = Streams::new(id.clone(), self.journal(&id), 0, self.forget_on_drop);
        let session = Session::over("http").with_id(id.clone());
        let session = Arc::new(HttpSession::new(id, owner, streams, session));
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

/// Ends and forgets the sessions of `live` expired after `idle`.
fn sweep(live: &mut HashMap<String, Arc<HttpSession>>, idle: Duration) {
    let now = Instant::now();
    live.retain(|_, session| {
        let expired = session.expired(now, idle);
        if expired {
            session.end();
        }
        !expired
    });
}

/// The `503` of a request whose session could not be found or kept, or
/// whose stream could not be replayed: a shared store is unavailable.
pub(crate) fn unavailable(
    id: Option<mcp_core::jsonrpc::RequestId>,
    unavailable: &Unavailable,
) -> axum::response::Response {
    super::response::error(
        axum::http::StatusCode::SERVICE_UNAVAILABLE,
        id,
        mcp_core::error::ErrorObject::internal_error(format!(
            "Internal error: the shared session store is unavailable ({}); retry later",
            unavailable.0
        )),
    )
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
    pub(crate) session: Arc<Session>,
    pub(crate) outbound: Arc<Outbound>,
    pub(crate) streams: Arc<Streams>,
    /// Fires when the session ends; every request of the session is its child.
    pub(crate) ended: CancellationToken,
    last_seen: Mutex<Instant>,
    pub(crate) in_flight: InFlight,
    standalone: Mutex<Option<WeakFrameSender>>,
    /// When the shared store last got a copy.
    stored_at: Mutex<Instant>,
}

impl HttpSession {
    /// Whether `principal` is the caller that opened the session: another
    /// caller is told of no such session.
    pub(crate) fn owned_by(&self, principal: &Principal) -> bool {
        self.owner == principal.subject
    }

    /// The session as the shared store keeps it; `None` before `initialize`.
    fn record(&self) -> Option<SessionRecord> {
        let negotiated = self.session.negotiated()?;
        Some(SessionRecord {
            id: self.id.clone(),
            owner: self.owner.clone(),
            protocol_version: negotiated.protocol_version.clone(),
            client_capabilities: negotiated.client_capabilities.clone(),
            client_info: negotiated.client_info.clone(),
            log_level: negotiated.log_level,
            subscriptions: self.session.subscriptions(),
        })
    }

    /// A session another instance opened, as the shared store kept it. Its
    /// streams and events are numbered from a random base, apart from the
    /// numbers the other instances gave theirs.
    fn restored(record: SessionRecord, journal: Journal, forget_on_drop: bool) -> Self {
        let mut bytes = [0u8; 4];
        // Without randomness the numbers still start apart from a new session's.
        let _ = getrandom::fill(&mut bytes);
        let base = (u64::from(u32::from_le_bytes(bytes) >> 1) + 1) << 32;
        let streams = Streams::new(record.id.clone(), journal, base, forget_on_drop);
        let session = Session::over("http")
            .with_id(record.id.clone())
            .with_negotiated(Negotiated {
                protocol_version: record.protocol_version,
                client_capabilities: record.client_capabilities,
                client_info: record.client_info,
                log_level: record.log_level,
            })
            .with_subscriptions(record.subscriptions);
        Self::new(record.id, record.owner, streams, session)
    }

    /// Session `id` of `owner`, its events numbered and kept by `streams`.
    fn new(id: String, owner: Option<String>, streams: Streams, session: Session) -> Self {
        Self {
            stored_at: Mutex::new(Instant::now()),
            streams: Arc::new(streams),
            session: Arc::new(session),
            id,
            owner,
            outbound: Arc::new(Outbound::default()),
            ended: CancellationToken::new(),
            last_seen: Mutex::new(Instant::now()),
            in_flight: InFlight::default(),
            standalone: Mutex::new(None),
        }
    }

    fn idle_since(&self, now: Instant) -> Duration {
        now.saturating_duration_since(*lock(&self.last_seen))
    }

    /// Whether the session is expired: idle past `idle` with nothing running
    /// and no standalone stream open.
    fn expired(&self, now: Instant, idle: Duration) -> bool {
        self.idle_since(now) >= idle && self.in_flight.is_empty() && !self.standalone_open()
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
        self.session.close();
    }

    /// Tracks a running request, cancelled with the session or by the client.
    pub(crate) fn start(&self, id: RequestId) -> CancellationToken {
        let token = self.ended.child_token();
        self.in_flight.start(id, token.clone());
        token
    }

    /// Forgets a finished request; the session was active until now.
    pub(crate) fn stop(&self, id: &RequestId) {
        self.in_flight.stop(id);
        self.touch();
    }
}
