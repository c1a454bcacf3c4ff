//! The peer of a request: what a transport tells the server of the other
//! end, besides the message.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use mcp_core::version::Era;
use tokio_util::sync::CancellationToken;

use crate::context::input::ClientRequester;
use crate::context::{DEFAULT_INPUT_TIMEOUT, RequestContext, Session};
use crate::seam::sink::{DiscardSink, NotificationSink};
use crate::vocabulary::auth::{Credentials, Principal};

/// What a peer runs on each request context made for it
/// ([`Peer::with_seed`]).
pub type Seed = Arc<dyn Fn(&RequestContext) + Send + Sync>;

/// The other end of a request, as its transport knows it: the credentials
/// it sent, and where the request's notifications, cancellation and
/// questions to the client go. Who the caller is, the server decides from
/// the credentials: that is its [`Principal`].
#[derive(Clone)]
pub struct Peer {
    /// The peer's credentials, for the principal source.
    pub credentials: Credentials,
    /// Who the caller is, when the transport authenticated it already;
    /// `None` authenticates [`credentials`](Self::credentials) when the
    /// message is served.
    pub principal: Option<Arc<Principal>>,
    /// Where this request's progress and log notifications go.
    pub notifications: Arc<dyn NotificationSink>,
    /// Fires when the client cancels the request or goes away.
    pub cancellation: CancellationToken,
    /// The legacy session the request comes on (a stdio process, an HTTP
    /// session); `None` where only 2026-07-28 requests arrive.
    pub session: Option<Arc<Session>>,
    /// Carries input requests to the client, when the transport can.
    pub requester: Option<Arc<dyn ClientRequester>>,
    /// How long a handler waits for the client's answer to an input request.
    pub input_timeout: Duration,
    /// Runs on each request context made for this peer, before any
    /// interceptor: what the embedding process (never the client) tells
    /// the request, as values read with [`RequestContext::get`].
    pub seed: Option<Seed>,
}

impl fmt::Debug for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Peer")
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

impl Peer {
    /// A peer without credentials, on no legacy session, whose
    /// notifications are dropped.
    pub fn modern() -> Self {
        Self {
            credentials: Credentials::none(),
            principal: None,
            notifications: DiscardSink::shared(),
            cancellation: CancellationToken::new(),
            session: None,
            requester: None,
            input_timeout: DEFAULT_INPUT_TIMEOUT,
            seed: None,
        }
    }

    /// A peer on the legacy session `session`.
    pub fn on(session: Arc<Session>) -> Self {
        Self {
            session: Some(session),
            ..Self::modern()
        }
    }

    /// With these credentials.
    #[must_use]
    pub fn with_credentials(mut self, credentials: Credentials) -> Self {
        self.credentials = credentials;
        self
    }

    /// Authenticated already, as `principal` (what
    /// [`Server::authenticate`](crate::Server::authenticate) made of its credentials).
    #[must_use]
    pub fn with_principal(mut self, principal: Arc<Principal>) -> Self {
        self.principal = Some(principal);
        self
    }

    /// With this request's notifications going to `sink`.
    #[must_use]
    pub fn with_notifications(mut self, sink: Arc<dyn NotificationSink>) -> Self {
        self.notifications = sink;
        self
    }

    /// Cancelled by `token`.
    #[must_use]
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.cancellation = token;
        self
    }

    /// Asking its client for input through `requester`, waiting at most `timeout`.
    #[must_use]
    pub fn with_requester(
        mut self,
        requester: Option<Arc<dyn ClientRequester>>,
        timeout: Duration,
    ) -> Self {
        self.requester = requester;
        self.input_timeout = timeout;
        self
    }

    /// With `seed` run on each request context made for this peer, before
    /// any interceptor: a process that replays a call on the client's
    /// behalf (a worker running a queued task) tells its interceptors so.
    ///
    /// ```
    /// use mcp_server::RequestContext;
    /// use mcp_server::transport::Peer;
    ///
    /// #[derive(Clone)]
    /// struct Replayed;
    ///
    /// let peer = Peer::modern().with_seed(|ctx: &RequestContext| ctx.insert(Replayed));
    /// assert!(peer.seed.is_some());
    /// ```
    #[must_use]
    pub fn with_seed(mut self, seed: impl Fn(&RequestContext) + Send + Sync + 'static) -> Self {
        self.seed = Some(Arc::new(seed));
        self
    }

    /// The era of a message for `method`: legacy on a negotiated session
    /// and for the `initialize` that negotiates it, modern otherwise.
    pub fn era_for(&self, method: &str) -> Era {
        match &self.session {
            Some(session) if session.is_initialized() || method == "initialize" => Era::Legacy,
            _ => Era::Modern,
        }
    }
}
