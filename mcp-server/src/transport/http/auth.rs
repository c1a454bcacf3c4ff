//! Who sends a request: its `Authorization` header, authenticated once by
//! the active principal source, before the request is read any further.
//!
//! A refusal is the principal source's [`Challenge`]: `401` (or `403`) with
//! its `WWW-Authenticate` header and a JSON-RPC error body. An access token
//! in the query string is refused with `400` whatever the source: it would
//! be written to logs and browser histories (RFC 6750 §2.3, and MCP's
//! authorization rules).

use std::sync::Arc;

use axum::http::header::AUTHORIZATION;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::Response;
use mcp_core::error::ErrorObject;
use mcp_core::jsonrpc::RequestId;

use super::response;
use crate::Server;
use crate::auth::{Challenge, Status};
use crate::auth::{Channel, Credentials, Principal};

/// The caller's credentials, from `Authorization`.
pub(crate) fn credentials(headers: &HeaderMap) -> Credentials {
    Credentials {
        authorization: headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        channel: Channel::Http,
    }
}

/// The caller of a request with `headers` and `uri`, or the response that
/// refuses it; `id` is the request's, when there is one.
#[allow(
    clippy::result_large_err,
    reason = "the refusal is the response itself, returned at once"
)]
pub(crate) async fn caller(
    server: &Server,
    headers: &HeaderMap,
    uri: &Uri,
    id: Option<RequestId>,
) -> Result<Arc<Principal>, Response> {
    if token_in_query(uri) {
        return Err(response::error(
            StatusCode::BAD_REQUEST,
            id,
            ErrorObject::invalid_request(
                "Access tokens are refused in the query string: send them in the Authorization header",
            ),
        ));
    }
    let credentials = credentials(headers);
    server
        .authenticate(&credentials)
        .await
        .map_err(|challenge| response::error(status(&challenge), id, challenge.into_error()))
}

/// The HTTP status of a challenge.
pub(crate) fn status(challenge: &Challenge) -> StatusCode {
    match challenge.status() {
        Status::Unauthorized => StatusCode::UNAUTHORIZED,
        Status::Forbidden => StatusCode::FORBIDDEN,
    }
}

/// Adds the `WWW-Authenticate` header of the challenge `error` carries, if
/// any, and returns the challenge's status.
pub(crate) fn challenge_header(error: &ErrorObject, headers: &mut HeaderMap) -> Option<StatusCode> {
    let challenge = Challenge::of(error)?;
    let value = HeaderValue::from_str(challenge.www_authenticate()).ok()?;
    headers.insert(axum::http::header::WWW_AUTHENTICATE, value);
    Some(status(&challenge))
}

/// Whether the query string carries an `access_token` parameter.
fn token_in_query(uri: &Uri) -> bool {
    uri.query().is_some_and(|query| {
        query
            .split('&')
            .any(|pair| pair.split('=').next() == Some("access_token"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_access_token_parameter_is_found_wherever_it_sits_in_the_query() {
        let found = |uri: &str| token_in_query(&uri.parse().unwrap());
        assert!(found("/mcp?access_token=abc"));
        assert!(found("/mcp?a=1&access_token=abc"));
        assert!(found("/mcp?access_token"));
        assert!(!found("/mcp"));
        assert!(!found("/mcp?my_access_token=abc"));
        assert!(!found("/mcp?x=access_token"));
    }
}
