//! Sources: deployment-supplied strategies that tell the framework a fact
//! about a request. The first is the [`PrincipalSource`]: who is calling,
//! as a [`Principal`] made of the request's [`Credentials`].
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
//! use mcp_server::auth::{Credentials, Principal};
//! use mcp_server::seam::source::PrincipalSource;
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

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use crate::vocabulary::auth::{Challenge, Credentials, Principal};
use crate::vocabulary::seam::{OneActive, SeamWord};
use crate::vocabulary::{BootContext, BoxFuture};

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
    note = "implement `mcp_server::seam::source::PrincipalSource` and register it (the `#[source]` attribute on the `impl` block does both)"
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
