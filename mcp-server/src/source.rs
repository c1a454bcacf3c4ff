//! Sources: deployment-supplied strategies that tell the framework a fact
//! about a request. The first is the [`PrincipalSource`]: who is calling.
//!
//! Exactly one principal source is active. When none is registered the
//! framework uses [`AnonymousPrincipalSource`]; two registered fail boot.
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
use std::sync::Arc;

use serde::Serialize;

use crate::boot::BootContext;
use crate::seam::{OneActive, SeamWord};

/// Who is calling.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Principal {
    /// The subject; `None` for an anonymous caller.
    pub subject: Option<String>,
    /// Roles granted to the caller.
    pub roles: BTreeSet<String>,
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
            roles: BTreeSet::new(),
        }
    }

    /// Grants `role`.
    #[must_use]
    pub fn with_role(mut self, role: impl Into<String>) -> Self {
        self.roles.insert(role.into());
        self
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

/// What the transport knows about the caller's credentials.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    /// The `Authorization` header value (HTTP), if any.
    pub authorization: Option<String>,
}

impl Credentials {
    /// No credentials (stdio, or an HTTP request without `Authorization`).
    pub fn none() -> Self {
        Self::default()
    }

    /// An `Authorization: Bearer <token>` credential.
    pub fn bearer_token(token: &str) -> Self {
        Self {
            authorization: Some(format!("Bearer {token}")),
        }
    }

    /// The bearer token, if the authorization is one.
    pub fn bearer(&self) -> Option<&str> {
        self.authorization.as_deref()?.strip_prefix("Bearer ")
    }
}

/// Tells who is calling, from the request's credentials.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a principal source",
    note = "implement `mcp_server::source::PrincipalSource` and register it (the `#[source]` attribute on the `impl` block does both)"
)]
pub trait PrincipalSource: Send + Sync + 'static {
    /// The caller of a request carrying `credentials`.
    fn principal(&self, credentials: &Credentials) -> Arc<Principal>;
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
