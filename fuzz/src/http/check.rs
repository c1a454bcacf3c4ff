//! What the endpoint's response to one request must be.
//!
//! Its status is one the endpoint gives that method (`404` off its path,
//! `405` for a method it does not serve). An `application/json` body is
//! one JSON-RPC response: an error when the status is not `200`, with a
//! code JSON-RPC or MCP defines (or one outside the reserved range), and
//! the id of the message sent (none for a refusal before the body is
//! read, or for what is not a request). A `text/event-stream` response is
//! a `200` to a `GET` or to a request, and is dropped unread: a stream may
//! stay open. Anything else has no body.

use axum::body::Body;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{Request, Response};
use mcp_server::core::error::ErrorCode;
use mcp_server::core::jsonrpc::{self, Message, RequestId, Response as JsonRpcResponse};

use super::input::{HttpInput, Sending};
use super::make::MAX_BODY;
use crate::check::{Decoded, Invalid, preview, valid_error_code};

/// The statuses of a refusal before the body is decoded: `Host` or
/// `Origin` (403), `Accept` (406), the body sent too slowly (408), too
/// large or broken off (413), `Content-Type` (415). Each is `-32600`
/// without an id.
const REFUSALS: [u16; 5] = [403, 406, 408, 413, 415];

/// The largest JSON response read.
const MAX_RESPONSE: usize = 256 << 20;

/// What was sent, as far as the response depends on it.
#[derive(Debug)]
pub struct Sent {
    method: String,
    /// Whether the path is the endpoint's.
    routed: bool,
    /// How the envelope decoder reads the body the endpoint gets; `None`
    /// when it gets no whole body (sent past the limit, or broken off).
    decoded: Option<Decoded>,
}

impl Sent {
    /// What `input`, sent as `request`, is.
    pub fn of(input: &HttpInput, request: &Request<Body>) -> Self {
        let whole = !matches!(input.sending, Sending::Failing(_))
            && input.body.len().max(input.pad_to) <= *MAX_BODY;
        Self {
            method: input.method.clone(),
            routed: request.uri().path() == "/mcp",
            decoded: if whole {
                Some(jsonrpc::decode(&input.full_body()))
            } else {
                None
            },
        }
    }

    /// The statuses the endpoint answers this method with.
    fn statuses(&self) -> &'static [u16] {
        if !self.routed {
            return &[404];
        }
        match self.method.as_str() {
            "POST" => &[200, 202, 400, 403, 404, 406, 408, 413, 415, 503],
            "GET" | "HEAD" => &[200, 400, 403, 404, 405, 406, 409],
            "DELETE" => &[200, 400, 403, 404, 405],
            "OPTIONS" => &[204, 403],
            _ => &[405],
        }
    }

    fn posted(&self) -> bool {
        self.routed && self.method == "POST"
    }
}

/// Checks `response` to what was `sent`; the code of the JSON-RPC error
/// it carries, if it carries one.
///
/// # Errors
///
/// What is wrong with it.
pub async fn response(sent: &Sent, response: Response<Body>) -> Result<Option<i64>, Invalid> {
    let status = response.status().as_u16();
    let headers = response.headers();
    let what = |problem: &str| {
        Invalid(format!(
            "{problem}: status {status} to a {} ({})",
            sent.method,
            headers
                .iter()
                .map(|(name, value)| format!(
                    "{name}: {}",
                    String::from_utf8_lossy(value.as_bytes())
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    };
    if !sent.statuses().contains(&status) {
        return Err(what("a status the endpoint does not give"));
    }
    if let Some(minted) = headers.get("mcp-session-id") {
        let initialize =
            matches!(&sent.decoded, Some(Ok(Message::Request(r))) if r.method == "initialize");
        let well_formed = minted.len() == 32
            && minted
                .as_bytes()
                .iter()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b));
        if !sent.posted() || status != 200 || !initialize || !well_formed {
            return Err(what("a session minted where none should be"));
        }
    }
    let content_type = headers.get(CONTENT_TYPE).map(|v| v.as_bytes().to_vec());
    match content_type.as_deref() {
        Some(b"text/event-stream") => {
            let streams = match sent.method.as_str() {
                "GET" | "HEAD" => true,
                "POST" => matches!(sent.decoded, Some(Ok(Message::Request(_)))),
                _ => false,
            };
            if status != 200 || !streams || !sent.routed {
                return Err(what("a stream where none should be"));
            }
            if headers.get(CACHE_CONTROL).map(|v| v.as_bytes()) != Some(b"no-cache") {
                return Err(what("a stream without `Cache-Control: no-cache`"));
            }
            // Dropped unread: a stream may stay open.
            Ok(None)
        }
        Some(b"application/json") => {
            if sent.method == "HEAD" {
                return Ok(None);
            }
            let body = axum::body::to_bytes(response.into_body(), MAX_RESPONSE)
                .await
                .map_err(|e| Invalid(format!("a JSON body that does not read: {e}")))?;
            json(sent, status, &body)
        }
        None => {
            let expected = match status {
                202 => {
                    sent.posted()
                        && matches!(
                            sent.decoded,
                            Some(Ok(Message::Notification(_) | Message::Response(_)))
                        )
                }
                204 => sent.method == "OPTIONS",
                200 => sent.method == "DELETE",
                404 => !sent.routed,
                405 => !matches!(
                    sent.method.as_str(),
                    "POST" | "GET" | "HEAD" | "DELETE" | "OPTIONS"
                ),
                _ => false,
            };
            if !expected {
                return Err(what("no JSON-RPC body where one is due"));
            }
            let body = axum::body::to_bytes(response.into_body(), MAX_RESPONSE)
                .await
                .map_err(|e| Invalid(format!("a body that does not read: {e}")))?;
            if body.is_empty() || sent.method == "HEAD" {
                Ok(None)
            } else {
                Err(Invalid(format!(
                    "a body without a content type, status {status}: {}",
                    preview(&body)
                )))
            }
        }
        Some(other) => Err(what(&format!(
            "a content type the endpoint does not send ({})",
            String::from_utf8_lossy(other)
        ))),
    }
}

/// Checks a JSON body with `status`; the code of its error, if it is one.
fn json(sent: &Sent, status: u16, body: &[u8]) -> Result<Option<i64>, Invalid> {
    let wrong = |problem: String| Invalid(format!("{problem}, status {status}: {}", preview(body)));
    if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(body) {
        return Err(wrong(format!("a JSON body that is not JSON ({e})")));
    }
    let (id, code) = match jsonrpc::decode(body) {
        Ok(Message::Response(JsonRpcResponse::Result(result))) => (Some(result.id), None),
        Ok(Message::Response(JsonRpcResponse::Error(error))) => {
            (error.id, Some(error.error.code.0))
        }
        Ok(_) => return Err(wrong("a JSON body that is not a JSON-RPC response".into())),
        Err(e) => {
            return Err(wrong(format!(
                "a JSON body that is not a JSON-RPC message ({e})"
            )));
        }
    };
    match code {
        None if status != 200 => return Err(wrong("a result with an error status".into())),
        Some(code) if !valid_error_code(code) => {
            return Err(wrong(format!("error code {code}, which nothing defines")));
        }
        _ => {}
    }
    if !sent.posted() {
        // `GET` and `DELETE` refusals: nothing sent had an id.
        return match (&id, status) {
            (None, 200) => Err(wrong("a JSON answer to what is not a POST".into())),
            (None, _) => Ok(code),
            (Some(_), _) => Err(wrong("an id in the answer to what is not a POST".into())),
        };
    }
    // Refused before the body is read: an Invalid Request without an id.
    // (A `406` may also come after, for what only a stream can answer.)
    if REFUSALS.contains(&status) && id.is_none() {
        return if code == Some(ErrorCode::INVALID_REQUEST.0) {
            Ok(code)
        } else {
            Err(wrong(
                "a refusal before the body is read that is not -32600".into(),
            ))
        };
    }
    let expect_id = |due: Option<&RequestId>| {
        if id.as_ref() == due {
            Ok(code)
        } else {
            Err(wrong(format!(
                "a response with id {id:?} where {due:?} was due"
            )))
        }
    };
    match &sent.decoded {
        None => Err(wrong(
            "an answer past the body to a body that did not arrive whole".into(),
        )),
        Some(Ok(Message::Request(request))) => expect_id(Some(&request.id)),
        Some(Ok(_)) if status == 200 => Err(wrong(
            "a 200 JSON answer to a message that is not a request".into(),
        )),
        Some(Ok(_)) => expect_id(None),
        Some(Err(error)) => {
            if status != 400 || code != Some(error.error.code.0) {
                return Err(wrong(format!(
                    "a body the decoder refuses with {} answered otherwise",
                    error.error.code.0
                )));
            }
            expect_id(error.id.as_ref())
        }
    }
}
