//! Who is calling: the principal a [`PrincipalSource`](crate::vocabulary::seam::source::PrincipalSource)
//! makes of the credentials a transport read, and the challenge that
//! refuses them.

use std::collections::BTreeSet;

use mcp_core::json::{JsonObject, JsonValue};
use serde::Serialize;

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
