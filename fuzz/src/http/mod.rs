//! The Streamable HTTP transport in process: the demo server's router
//! (`mcp_server::transport::http::router`, default limits, at `/mcp`)
//! sent one hostile request per input with tower's `oneshot`, no socket.
//!
//! An input is a whole request ([`input`]): a method, a path, headers and
//! a body made around a message of the generator ([`make`]). It may name a
//! 2025-11-25 session: one opened for it alone and deleted after, one that
//! inputs share (replaced every [`SHARED_USES`] inputs, so requests it
//! leaves waiting for the client end with it), or one already deleted. A
//! session the request itself mints is deleted after it too. The response
//! is checked ([`check`]); a stream is dropped unread.

pub mod check;
pub mod input;
pub mod make;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Mutex;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use mcp_server::Server;
use mcp_server::transport::http::{HttpConfig, router};
use tokio::sync::OnceCell;
use tower::ServiceExt;

use crate::busy::Busy;
use crate::check::{Invalid, preview};
use crate::tally::lock;
use input::{ENDED_SESSION, HttpInput, OWN_SESSION, SHARED_SESSION, SessionIds};

/// How many inputs use one shared session before it is replaced.
pub const SHARED_USES: u32 = 500;

/// The endpoint under test, and the sessions inputs name.
pub struct HttpTarget {
    router: Router,
    /// The shared session and how many inputs used it.
    shared: Mutex<Option<(String, u32)>>,
    /// A session opened and deleted, made once.
    ended: OnceCell<String>,
    /// How many responses had each status (and JSON-RPC error code).
    statuses: Mutex<BTreeMap<(u16, Option<i64>), u64>>,
}

impl fmt::Debug for HttpTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpTarget").finish_non_exhaustive()
    }
}

impl HttpTarget {
    /// The endpoint of `server` at `/mcp`, with the default limits.
    pub fn new(server: Server) -> Self {
        Self {
            router: router(server, "/mcp", HttpConfig::default()),
            shared: Mutex::new(None),
            ended: OnceCell::new(),
            statuses: Mutex::new(BTreeMap::new()),
        }
    }

    /// Sends the request `bytes` hold ([`HttpInput`]) and checks the
    /// response. Returns the time the endpoint spent on it: the polls of
    /// `oneshot` (opening and closing sessions aside).
    ///
    /// # Errors
    ///
    /// What is wrong with the response, or with `bytes`.
    pub async fn run(&self, bytes: &[u8]) -> Result<Duration, Invalid> {
        let input =
            HttpInput::parse(bytes).map_err(|e| Invalid(format!("not an HTTP input: {e}")))?;
        let mut ids = SessionIds::default();
        if input.names(OWN_SESSION) {
            ids.own = Some(self.open().await?);
        }
        if input.names(SHARED_SESSION) {
            ids.shared = Some(self.shared().await?);
        }
        if input.names(ENDED_SESSION) {
            ids.ended = Some(self.ended().await?);
        }
        let request = input
            .request(&ids)
            .map_err(|e| Invalid(format!("not an HTTP request: {e}")))?;
        let sent = check::Sent::of(&input, &request);
        let (response, busy) = Busy::new(self.send(request)).await;
        let status = response.status().as_u16();
        let minted = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let checked = check::response(&sent, response).await;
        for session in ids.own.iter().chain(&minted) {
            self.close(session).await;
        }
        let code = checked?;
        *lock(&self.statuses).entry((status, code)).or_default() += 1;
        Ok(busy)
    }

    /// How many valid responses had each status and error code, as one line.
    pub fn note(&self) -> String {
        let statuses = lock(&self.statuses);
        let counts: Vec<String> = statuses
            .iter()
            .map(|((status, code), n)| match code {
                Some(code) => format!("{status}/{code} ×{n}"),
                None => format!("{status} ×{n}"),
            })
            .collect();
        format!("http responses {}", counts.join(", "))
    }

    /// Whether no request was sent.
    pub fn is_unused(&self) -> bool {
        lock(&self.statuses).is_empty()
    }

    async fn send(&self, request: Request<Body>) -> Response<Body> {
        match self.router.clone().oneshot(request).await {
            Ok(response) => response,
            Err(never) => match never {},
        }
    }

    /// Opens a 2025-11-25 session: `initialize`, then `notifications/initialized`.
    async fn open(&self) -> Result<String, Invalid> {
        let initialize = crate::target::initialize_request(0);
        let response = self.send(post(None, &initialize)).await;
        let status = response.status();
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let Some(session) = session.filter(|_| status == StatusCode::OK) else {
            let body = axum::body::to_bytes(response.into_body(), 1 << 20)
                .await
                .unwrap_or_default();
            return Err(Invalid(format!(
                "a session's initialize failed: {status} {}",
                preview(&body)
            )));
        };
        let initialized = crate::target::initialized_notification();
        let status = self.send(post(Some(&session), &initialized)).await.status();
        if status != StatusCode::ACCEPTED {
            return Err(Invalid(format!(
                "a session's notifications/initialized got {status}"
            )));
        }
        Ok(session)
    }

    /// Deletes a session.
    async fn close(&self, session: &str) {
        let request = Request::delete("/mcp")
            .header("mcp-session-id", session)
            .body(Body::empty());
        if let Ok(request) = request {
            let _ = self.send(request).await;
        }
    }

    /// The shared session, replaced (and the old one deleted) once it
    /// served [`SHARED_USES`] inputs.
    async fn shared(&self) -> Result<String, Invalid> {
        if let Some(id) = self.take_shared() {
            return Ok(id);
        }
        let fresh = self.open().await?;
        let (id, retired) = {
            let mut slot = lock(&self.shared);
            match slot.as_mut() {
                // Another input replaced it meanwhile: that one it is.
                Some((id, uses)) if *uses < SHARED_USES => {
                    *uses += 1;
                    (id.clone(), Some(fresh))
                }
                _ => {
                    let old = slot.replace((fresh.clone(), 1)).map(|(id, _)| id);
                    (fresh, old)
                }
            }
        };
        if let Some(retired) = retired {
            self.close(&retired).await;
        }
        Ok(id)
    }

    /// The shared session, counted as used once more, unless it is due
    /// to be replaced.
    fn take_shared(&self) -> Option<String> {
        let mut slot = lock(&self.shared);
        let (id, uses) = slot.as_mut()?;
        if *uses >= SHARED_USES {
            return None;
        }
        *uses += 1;
        Some(id.clone())
    }

    /// The id of a session opened and deleted.
    async fn ended(&self) -> Result<String, Invalid> {
        self.ended
            .get_or_try_init(|| async {
                let session = self.open().await?;
                self.close(&session).await;
                Ok(session)
            })
            .await
            .cloned()
    }
}

/// A POST of `body` that passes the endpoint's checks, on `session` if given.
fn post(session: Option<&str>, body: &serde_json::Value) -> Request<Body> {
    let mut request = Request::post("/mcp")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(session) = session {
        request = request.header("mcp-session-id", session).header(
            "mcp-protocol-version",
            mcp_server::core::version::LATEST_LEGACY,
        );
    }
    let body = serde_json::to_vec(body).unwrap_or_default();
    request
        .body(Body::from(body))
        .unwrap_or_else(|_| Request::new(Body::empty()))
}
