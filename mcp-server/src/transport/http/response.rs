//! HTTP responses: JSON-RPC bodies with the status each situation calls for.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use mcp_core::error::{ErrorCode, ErrorObject};
use mcp_core::jsonrpc::RequestId;
use mcp_core::version::Era;

use crate::auth::Challenge;
use crate::transport::{Outcome, encode_error};

/// A JSON body with `status`.
pub(crate) fn json(status: StatusCode, body: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// A JSON-RPC error response with `status`; a challenge's error gets the
/// challenge's status and `WWW-Authenticate` header instead.
pub(crate) fn error(status: StatusCode, id: Option<RequestId>, error: ErrorObject) -> Response {
    let mut headers = HeaderMap::new();
    let challenged = super::auth::challenge_header(&error, &mut headers);
    let mut response = json(challenged.unwrap_or(status), encode_error(id, error));
    response.headers_mut().extend(headers);
    response
}

/// An empty `202 Accepted`, for notifications and client responses.
pub(crate) fn accepted() -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::ACCEPTED;
    response
}

/// The status a modern error is answered with (2026-07-28 transport rules,
/// and a challenge's `401` or `403`); other errors are ordinary `200`
/// JSON-RPC responses.
pub(crate) fn status_of(error: &ErrorObject) -> StatusCode {
    if let Some(challenge) = Challenge::of(error) {
        return super::auth::status(&challenge);
    }
    match error.code {
        ErrorCode::METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        ErrorCode::HEADER_MISMATCH
        | ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
        | ErrorCode::UNSUPPORTED_PROTOCOL_VERSION
        | ErrorCode::PARSE_ERROR
        | ErrorCode::INVALID_REQUEST => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

/// The status an error is answered with in `era`: a legacy error is an
/// ordinary `200` JSON-RPC response unless it is a challenge.
pub(crate) fn status_in(era: Era, error: &ErrorObject) -> StatusCode {
    match era {
        Era::Modern => status_of(error),
        Era::Legacy if Challenge::of(error).is_some() => status_of(error),
        Era::Legacy => StatusCode::OK,
    }
}

/// The JSON response of a request's outcome, with the status its era
/// gives an error.
pub(crate) fn outcome(outcome: Outcome) -> Response {
    let status = outcome
        .error()
        .map_or(StatusCode::OK, |e| status_in(outcome.era(), e));
    outcome_with(status, outcome)
}

/// The JSON response of a request's outcome with `status`; a challenge's
/// error gets the challenge's status and `WWW-Authenticate` header instead.
pub(crate) fn outcome_with(status: StatusCode, outcome: Outcome) -> Response {
    let mut headers = HeaderMap::new();
    let challenged = outcome
        .error()
        .and_then(|e| super::auth::challenge_header(e, &mut headers));
    let mut response = json(challenged.unwrap_or(status), outcome.encode());
    response.headers_mut().extend(headers);
    response
}
