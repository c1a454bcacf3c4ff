//! One soak client: its own keep-alive connection, calling tools in a loop
//! until a deadline, either statelessly (2026-07-28) or on a 2025-11-25
//! session that it ends and opens anew every [`SESSION_CALLS`] calls.
//! Every answer is checked; a failure is counted, and the client goes on
//! on a fresh connection (and session).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hyper::StatusCode;

use crate::answer;
use crate::calls;
use crate::conn::Connection;
use crate::histogram::Histogram;
use crate::requests::{self, LEGACY};

/// Calls made on one session before it is ended and another opened.
pub(crate) const SESSION_CALLS: u64 = 500;

/// Failures whose messages are kept for the report.
const KEPT_FAILURES: usize = 10;

/// The pause after a failure, so a broken server is not hammered.
const PAUSE_AFTER_FAILURE: Duration = Duration::from_millis(100);

/// How a client speaks to the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Era {
    /// Stateless 2026-07-28 requests.
    Modern,
    /// Requests on a 2025-11-25 session.
    Session,
}

/// What every client adds to: calls, sessions, failures, latencies.
#[derive(Debug)]
pub(crate) struct Tally {
    pub(crate) modern_calls: AtomicU64,
    pub(crate) session_calls: AtomicU64,
    pub(crate) sessions: AtomicU64,
    pub(crate) errors: AtomicU64,
    pub(crate) failures: Mutex<Vec<String>>,
    pub(crate) latency: Histogram,
}

impl Tally {
    pub(crate) fn new() -> Self {
        Self {
            modern_calls: AtomicU64::new(0),
            session_calls: AtomicU64::new(0),
            sessions: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            failures: Mutex::new(Vec::new()),
            latency: Histogram::new(),
        }
    }

    /// Every successful `tools/call` so far.
    pub(crate) fn calls(&self) -> u64 {
        self.modern_calls.load(Ordering::Relaxed) + self.session_calls.load(Ordering::Relaxed)
    }

    /// Counts a failure, keeping the first few messages.
    pub(crate) fn fail(&self, message: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut kept = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() < KEPT_FAILURES {
            kept.push(message);
        }
    }
}

/// A client and its state.
#[derive(Debug)]
pub(crate) struct Client {
    index: usize,
    era: Era,
    port: u16,
    connection: Connection,
    /// The open session and the calls made on it.
    session: Option<(String, u64)>,
    next_id: u64,
    calls: u64,
}

impl Client {
    /// Connects client `index`, and opens its session when it has one.
    pub(crate) async fn open(
        index: usize,
        era: Era,
        port: u16,
        tally: &Tally,
    ) -> Result<Self, String> {
        let connection = Connection::open(port).await?;
        let mut client = Self {
            index,
            era,
            port,
            connection,
            session: None,
            next_id: 1,
            calls: 0,
        };
        if era == Era::Session {
            client.open_session(tally).await?;
        }
        Ok(client)
    }

    /// Calls tools until `deadline`, then ends its session.
    pub(crate) async fn run(mut self, deadline: Instant, tally: &Tally) {
        while Instant::now() < deadline {
            if let Err(error) = self.step(tally).await {
                tally.fail(format!("client {} ({:?}): {error}", self.index, self.era));
                self.recover().await;
            }
        }
        if let Some((session, _)) = self.session.take()
            && let Err(error) = self.end_session(&session).await
        {
            tally.fail(format!("client {} ending its session: {error}", self.index));
        }
    }

    /// One call, after renewing the session when it is due.
    async fn step(&mut self, tally: &Tally) -> Result<(), String> {
        if self.era == Era::Session {
            match self.session.take() {
                Some((session, made)) if made >= SESSION_CALLS => {
                    self.end_session(&session).await?;
                    self.open_session(tally).await?;
                }
                Some(open) => self.session = Some(open),
                None => self.open_session(tally).await?,
            }
        }
        let call = calls::nth(self.index, self.calls);
        self.calls += 1;
        let id = self.id();
        let request = match &self.session {
            Some((session, _)) => requests::session_call(id, &call, session)?,
            None => requests::modern_call(id, &call)?,
        };
        let started = Instant::now();
        let reply = self.connection.send(request).await?;
        answer::tool_text(&reply, id, &call.expected)
            .map_err(|e| format!("{} {}: {e}", call.name, call.arguments))?;
        tally.latency.record(started.elapsed());
        match &mut self.session {
            Some((_, made)) => {
                *made += 1;
                tally.session_calls.fetch_add(1, Ordering::Relaxed);
            }
            None => {
                tally.modern_calls.fetch_add(1, Ordering::Relaxed);
            }
        }
        Ok(())
    }

    /// After a failure: a fresh connection, and a fresh session next time
    /// (the old one, if it still lives, expires on the server).
    async fn recover(&mut self) {
        tokio::time::sleep(PAUSE_AFTER_FAILURE).await;
        self.session = None;
        if let Ok(connection) = Connection::open(self.port).await {
            self.connection = connection;
        }
    }

    /// Opens a session: `initialize`, checked to settle on 2025-11-25 and
    /// to mint a session id, then `notifications/initialized`.
    async fn open_session(&mut self, tally: &Tally) -> Result<(), String> {
        let id = self.id();
        let reply = self.connection.send(requests::initialize(id)?).await?;
        let result = answer::result(&reply, id).map_err(|e| format!("initialize: {e}"))?;
        if result.get("protocolVersion").and_then(|v| v.as_str()) != Some(LEGACY) {
            return Err(format!("initialize settled on another version: {result}"));
        }
        let session = reply
            .session
            .ok_or("initialize answered without an Mcp-Session-Id")?;
        let reply = self
            .connection
            .send(requests::initialized(&session)?)
            .await?;
        if reply.status != StatusCode::ACCEPTED {
            return Err(format!(
                "notifications/initialized: HTTP {}: {}",
                reply.status,
                answer::shown(&reply.body)
            ));
        }
        tally.sessions.fetch_add(1, Ordering::Relaxed);
        self.session = Some((session, 0));
        Ok(())
    }

    /// Ends `session` with `DELETE`.
    async fn end_session(&mut self, session: &str) -> Result<(), String> {
        let reply = self
            .connection
            .send(requests::end_session(session)?)
            .await?;
        if reply.status != StatusCode::OK {
            return Err(format!(
                "DELETE: HTTP {}: {}",
                reply.status,
                answer::shown(&reply.body)
            ));
        }
        Ok(())
    }

    /// The next request id.
    fn id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }
}
