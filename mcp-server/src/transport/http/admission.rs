//! What a `POST` must show before its message is decoded, each refusal a
//! JSON-RPC error without an id (the body is not read for one): an allowed
//! `Host` and `Origin` (`403`), an `Accept` that reads JSON or a stream
//! (`406`), a body declared `application/json` (`415`), then that body,
//! within the size limit (`413`) and sent in time (`408`).

use axum::body::{Body, Bytes};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use mcp_core::error::ErrorObject;

use super::accept::{self, Mode};
use super::deadline;
use super::{HttpConfig, rebinding, response};

/// Checks the headers of a `POST`: the response mode its `Accept` asks
/// for, or the refusal when a header is wrong.
#[allow(
    clippy::result_large_err,
    reason = "the refusal is the response itself, returned at once"
)]
pub(crate) fn admit(headers: &HeaderMap, config: &HttpConfig) -> Result<Mode, Response> {
    if let Err(why) = rebinding::check(headers, config) {
        return Err(refuse(StatusCode::FORBIDDEN, why));
    }
    let Some(mode) = accept::read(headers) else {
        return Err(refuse(
            StatusCode::NOT_ACCEPTABLE,
            "Not Acceptable: Accept must include application/json or text/event-stream",
        ));
    };
    if !declares_json(headers) {
        return Err(refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Unsupported Media Type: Content-Type must be application/json",
        ));
    }
    Ok(mode)
}

/// Reads the whole body, no larger than the limit and within the body
/// timeout; the refusal otherwise.
#[allow(
    clippy::result_large_err,
    reason = "the refusal is the response itself, returned at once"
)]
pub(crate) async fn body(body: Body, config: &HttpConfig) -> Result<Bytes, Response> {
    let limit = config.max_body;
    let timeout = config.body_timeout;
    match deadline::within(timeout, axum::body::to_bytes(body, limit)).await {
        Some(Ok(bytes)) => Ok(bytes),
        Some(Err(_)) => Err(refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("Request body too large: the limit is {limit} bytes"),
        )),
        // The unread rest of the body makes the server close the connection.
        None => Err(refuse(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "Request Timeout: the body did not arrive within {} s",
                timeout.as_secs_f64()
            ),
        )),
    }
}

/// Whether `Content-Type` is `application/json`, in any case, parameters
/// such as `charset` allowed.
fn declares_json(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
}

/// An Invalid Request error with `status`, without an id.
fn refuse(status: StatusCode, why: impl Into<String>) -> Response {
    response::error(status, None, ErrorObject::invalid_request(why))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content_type(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, value.parse().unwrap());
        headers
    }

    #[test]
    fn json_is_declared_in_any_case_and_with_parameters() {
        for json in [
            "application/json",
            "Application/JSON",
            "application/json; charset=utf-8",
            " application/json ;charset=UTF-8",
        ] {
            assert!(declares_json(&content_type(json)), "{json}");
        }
    }

    #[test]
    fn other_media_types_and_none_are_not_json() {
        for other in [
            "text/plain",
            "application/jsonx",
            "application/json-seq",
            "application/x-www-form-urlencoded",
            "",
        ] {
            assert!(!declares_json(&content_type(other)), "{other}");
        }
        assert!(!declares_json(&HeaderMap::new()));
    }
}
