//! Sources: deployment-supplied strategies that tell the framework a fact
//! about a request. The first is the [`PrincipalSource`]: who is calling.
//!
//! Exactly one principal source is active. When none is registered the
//! framework uses [`AnonymousPrincipalSource`]; two registered fail boot.
//!
//! A source that decides at once implements [`PrincipalSource::principal`];
//! one that must wait (for an issuer's keys, an introspection endpoint) or
//! refuse credentials overrides [`PrincipalSource::authenticate`] as well.
//! The transports authenticate every request once, before anything else
//! reads it: a refusal is a [`Challenge`], which Streamable HTTP answers
//! with `401` and its `WWW-Authenticate` header.
//!
//! ```
//! use mcp_server::source::{Principal, PrincipalSource, Credentials};
//! use std::sync::Arc;
//!
//! struct BearerSource;
//! impl PrincipalSource for BearerSource {
//!     fn principal(&self, credentials: &Credentials) -> Arc<Principal> {
//!         match credentials.bearer() {
//!             Some("secret") => Arc::new(Principal::named("alice").with_role("admin")),
//!             _ => Arc::new(Principal::anonymous()),
//!         }
//!     }
//! }
//! let alice = BearerSource.principal(&Credentials::bearer_token("secret"));
//! assert!(alice.has_role("admin"));
//! ```

use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use mcp_core::json::{JsonObject, JsonValue};
use serde::Serialize;

use crate::boot::BootContext;
use crate::challenge::Challenge;
use crate::future::BoxFuture;
use crate::seam::{OneActive, SeamWord};

/// Who is calling.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Principal {
    /// The subject; `None` for an anonymous caller.
    pub subject: Option<String>,
    /// Roles granted to the caller.
    pub roles: BTreeSet<String>,
    /// Scopes the caller's credentials were granted (OAuth `scope`).
    pub scopes: BTreeSet<String>,
    /// What the credentials say besides (a token's claims), for guards and
    /// handlers to read; empty when the source tells nothing more.
    pub claims: JsonObject,
}

impl Principal {
    /// An unauthenticated caller.
    pub fn anonymous() -> Self {
        Self::default()
    }

    /// An authenticated caller named `subject`, with no roles.
    pub fn named(subject: impl Into<String>) -> Self {
        Self {
            subject: Some(subject.into()),
            ..Self::default()
        }
    }

    /// Grants `role`.
    #[must_use]
    pub fn with_role(mut self, role: impl Into<String>) -> Self {
        self.roles.insert(role.into());
        self
    }

    /// Grants `scope`.
    #[must_use]
    pub fn with_scope(mut self, scope: impl Into<String>) -> Self {
        self.scopes.insert(scope.into());
        self
    }

    /// With the claim `name` set to `value`.
    #[must_use]
    pub fn with_claim(mut self, name: impl Into<String>, value: impl Into<JsonValue>) -> Self {
        self.claims.insert(name.into(), value.into());
        self
    }

    /// Whether the caller's credentials carry `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.contains(scope)
    }

    /// The claim `name`, if the credentials carry it.
    pub fn claim(&self, name: &str) -> Option<&JsonValue> {
        self.claims.get(name)
    }

    /// Whether the caller is authenticated.
    pub fn is_authenticated(&self) -> bool {
        self.subject.is_some()
    }

    /// Whether the caller has `role`.
    pub fn has_role(&self, role: &str) -> bool {
        self.roles.contains(role)
    }
}

/// The channel credentials arrived on, for sources whose rules differ by
/// transport (MCP authorization is defined for HTTP only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Channel {
    /// In the same process (the in-memory client, a test).
    #[default]
    InProcess,
    /// A Streamable HTTP request.
    Http,
    /// A stdio process, whose credentials come from its environment.
    Stdio,
}

/// What the transport knows about the caller's credentials.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    /// The `Authorization` header value (HTTP), or the stdio process's
    /// `MCP_AUTHORIZATION` environment variable, if any.
    pub authorization: Option<String>,
    /// Where they arrived.
    pub channel: Channel,
}

impl Credentials {
    /// No credentials (an HTTP request without `Authorization`).
    pub fn none() -> Self {
        Self::default()
    }

    /// An `Authorization: Bearer <token>` credential.
    pub fn bearer_token(token: &str) -> Self {
        Self {
            authorization: Some(format!("Bearer {token}")),
            channel: Channel::InProcess,
        }
    }

    /// The same credentials, as having arrived on `channel`.
    #[must_use]
    pub fn on(mut self, channel: Channel) -> Self {
        self.channel = channel;
        self
    }

    /// The bearer token, if the authorization is one (the scheme is matched
    /// without regard to case, as RFC 9110 asks).
    pub fn bearer(&self) -> Option<&str> {
        let authorization = self.authorization.as_deref()?;
        let (scheme, token) = authorization.split_once(' ')?;
        scheme
            .eq_ignore_ascii_case("Bearer")
            .then(|| token.trim_start_matches(' '))
            .filter(|token| !token.is_empty())
    }
}

/// What authenticating a caller comes to: who it is, or the challenge
/// that refuses it.
pub type Authenticated = Result<Arc<Principal>, Challenge>;

/// The future of [`PrincipalSource::authenticate`]: ready at once for a
/// source that decides synchronously (without allocating), or boxed.
#[must_use = "a future does nothing unless awaited"]
pub struct Authentication<'a>(Pending<'a>);

enum Pending<'a> {
    Ready(Option<Authenticated>),
    Later(BoxFuture<'a, Authenticated>),
}

impl std::fmt::Debug for Authentication<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match &self.0 {
            Pending::Ready(_) => "ready",
            Pending::Later(_) => "pending",
        };
        f.debug_tuple("Authentication").field(&state).finish()
    }
}

impl<'a> Authentication<'a> {
    /// Decided already.
    pub fn ready(authenticated: Authenticated) -> Self {
        Self(Pending::Ready(Some(authenticated)))
    }

    /// Decided by `future`.
    pub fn later(future: impl Future<Output = Authenticated> + Send + 'a) -> Self {
        Self(Pending::Later(Box::pin(future)))
    }
}

impl Future for Authentication<'_> {
    type Output = Authenticated;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Authenticated> {
        match &mut self.get_mut().0 {
            Pending::Ready(decided) => Poll::Ready(
                decided
                    .take()
                    .expect("an authentication is not polled after it is ready"),
            ),
            Pending::Later(future) => future.as_mut().poll(cx),
        }
    }
}

/// Tells who is calling, from the request's credentials.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a principal source",
    note = "implement `mcp_server::source::PrincipalSource` and register it (the `#[source]` attribute on the `impl` block does both)"
)]
pub trait PrincipalSource: Send + Sync + 'static {
    /// The caller of a request carrying `credentials`, decided at once.
    fn principal(&self, credentials: &Credentials) -> Arc<Principal>;

    /// The caller of a request carrying `credentials`, or the challenge
    /// that refuses them; what the transports call, once per request.
    /// Unless overridden, [`principal`](Self::principal), which never refuses.
    fn authenticate<'a>(&'a self, credentials: &'a Credentials) -> Authentication<'a> {
        Authentication::ready(Ok(self.principal(credentials)))
    }
}

/// The default principal source: every caller is anonymous.
#[derive(Debug, Clone, Default)]
pub struct AnonymousPrincipalSource {
    anonymous: Arc<Principal>,
}

impl PrincipalSource for AnonymousPrincipalSource {
    fn principal(&self, _: &Credentials) -> Arc<Principal> {
        self.anonymous.clone()
    }
}

impl OneActive for dyn PrincipalSource {
    const NAME: &'static str = "PrincipalSource";
    const WORD: SeamWord = SeamWord::Source;
    fn fallback(_: &BootContext) -> (&'static str, Arc<Self>) {
        (
            "AnonymousPrincipalSource",
            Arc::new(AnonymousPrincipalSource::default()),
        )
    }
}
