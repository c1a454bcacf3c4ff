//! Challenges: a refusal that tells the client how to authenticate, or
//! which further permission to ask for.
//!
//! A [`PrincipalSource`](crate::seam::source::PrincipalSource) answers missing or
//! invalid credentials with an [unauthorized](Challenge::unauthorized)
//! challenge; a [`Guard`](crate::seam::guard::Guard) that lets a caller see a
//! target but not call it answers with a [forbidden](Challenge::forbidden)
//! one ([`Decision::Challenge`](crate::seam::guard::Decision::Challenge)).
//! Streamable HTTP answers a challenge with `401` or `403` and its
//! `WWW-Authenticate` header; every transport sends the JSON-RPC error of
//! [`Challenge::into_error`], whose `data` carries the same header value,
//! so a client of either era, or on stdio, reads the same thing.
//!
//! ```
//! use mcp_server::auth::{Challenge, Status};
//!
//! let challenge = Challenge::forbidden(
//!     r#"Bearer error="insufficient_scope", scope="files:write""#,
//!     "the tool needs the scope files:write",
//! );
//! let error = challenge.clone().into_error();
//! assert_eq!(error.code, mcp_server::auth::INSUFFICIENT_PERMISSION);
//! assert_eq!(Challenge::of(&error), Some(challenge));
//! assert_eq!(Challenge::of(&error).unwrap().status(), Status::Forbidden);
//! ```

use mcp_core::error::{ErrorCode, ErrorObject};
use mcp_core::json::JsonValue;

/// `-32001`: the request carries no credentials, or ones the server refuses
/// (HTTP `401`). A code of this framework's, in the range JSON-RPC leaves to
/// servers; MCP defines none for it.
pub const AUTHENTICATION_REQUIRED: ErrorCode = ErrorCode(-32001);

/// `-32003`: the caller is known but lacks a permission the request needs
/// (HTTP `403`). A code of this framework's, as above.
pub const INSUFFICIENT_PERMISSION: ErrorCode = ErrorCode(-32003);

/// The `data` member that carries the `WWW-Authenticate` value.
const HEADER_MEMBER: &str = "wwwAuthenticate";

/// Whether a challenge asks for credentials or for more permission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// No credentials, or refused ones: HTTP `401 Unauthorized`.
    Unauthorized,
    /// Valid credentials without the permission needed: HTTP `403 Forbidden`.
    Forbidden,
}

impl Status {
    /// The HTTP status code.
    pub fn code(self) -> u16 {
        match self {
            Status::Unauthorized => 401,
            Status::Forbidden => 403,
        }
    }
}

/// A refusal with the `WWW-Authenticate` value that tells the client what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    status: Status,
    www_authenticate: String,
    message: String,
}

impl Challenge {
    /// Credentials are missing or refused; `www_authenticate` is the header
    /// value (such as `Bearer resource_metadata="…"`), `message` the
    /// JSON-RPC error message.
    pub fn unauthorized(www_authenticate: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            status: Status::Unauthorized,
            www_authenticate: www_authenticate.into(),
            message: message.into(),
        }
    }

    /// The caller lacks a permission (such as `Bearer
    /// error="insufficient_scope", scope="…"`).
    pub fn forbidden(www_authenticate: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            status: Status::Forbidden,
            www_authenticate: www_authenticate.into(),
            message: message.into(),
        }
    }

    /// Unauthorized or forbidden.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The `WWW-Authenticate` header value.
    pub fn www_authenticate(&self) -> &str {
        &self.www_authenticate
    }

    /// The error message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The JSON-RPC error that carries this challenge:
    /// [`AUTHENTICATION_REQUIRED`] or [`INSUFFICIENT_PERMISSION`], with
    /// `data.wwwAuthenticate`.
    pub fn into_error(self) -> ErrorObject {
        let code = match self.status {
            Status::Unauthorized => AUTHENTICATION_REQUIRED,
            Status::Forbidden => INSUFFICIENT_PERMISSION,
        };
        let mut data = mcp_core::json::JsonObject::new();
        data.insert(
            HEADER_MEMBER.to_owned(),
            JsonValue::String(self.www_authenticate),
        );
        ErrorObject::new(code, self.message).with_data(JsonValue::Object(data))
    }

    /// The challenge an error carries, if it is one made by
    /// [`into_error`](Self::into_error).
    pub fn of(error: &ErrorObject) -> Option<Self> {
        let status = match error.code {
            AUTHENTICATION_REQUIRED => Status::Unauthorized,
            INSUFFICIENT_PERMISSION => Status::Forbidden,
            _ => return None,
        };
        let header = error.data.as_ref()?.get(HEADER_MEMBER)?.as_str()?;
        Some(Self {
            status,
            www_authenticate: header.to_owned(),
            message: error.message.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_without_the_header_member_is_no_challenge() {
        let error = ErrorObject::new(AUTHENTICATION_REQUIRED, "no");
        assert_eq!(Challenge::of(&error), None);
        let error = ErrorObject::invalid_params("no");
        assert_eq!(Challenge::of(&error), None);
    }

    #[test]
    fn an_unauthorized_challenge_round_trips_through_its_error() {
        let challenge = Challenge::unauthorized(r#"Bearer resource_metadata="x""#, "sign in");
        let error = challenge.clone().into_error();
        assert_eq!(error.code, AUTHENTICATION_REQUIRED);
        assert_eq!(error.message, "sign in");
        assert_eq!(Challenge::of(&error), Some(challenge));
    }
}
