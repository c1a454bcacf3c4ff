//! What a reply must be, given how the envelope decoder read the input.
//!
//! A request gets a JSON-RPC response carrying its id; bytes that do not
//! decode get the error response the decoder chose, with the id it read; a
//! notification or a response gets nothing. Whatever comes back must itself
//! decode as a JSON-RPC response.

use std::fmt;

use mcp_server::core::error::ErrorCode;
use mcp_server::core::jsonrpc::{self, DecodeError, Message, RequestId, Response};

/// Why a reply, or the decoder's reading of an input, is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid(pub String);

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How the decoder read an input.
pub type Decoded = Result<Message, DecodeError>;

/// Checks `reply` against `decoded`.
///
/// # Errors
///
/// What is wrong with the reply, quoting its beginning.
pub fn reply(decoded: &Decoded, reply: Option<&[u8]>) -> Result<(), Invalid> {
    match (decoded, reply) {
        (Ok(Message::Request(request)), Some(bytes)) => {
            let response = response_of(bytes)?;
            expect_id(id_of(&response), Some(&request.id), bytes)
        }
        (Ok(Message::Request(request)), None) => Err(Invalid(format!(
            "no reply to request {:?} for `{}`",
            request.id, request.method
        ))),
        (Ok(Message::Notification(_) | Message::Response(_)), None) => Ok(()),
        (Ok(Message::Notification(_) | Message::Response(_)), Some(bytes)) => {
            Err(Invalid(format!(
                "a reply to a message that is not a request: {}",
                preview(bytes)
            )))
        }
        (Err(error), Some(bytes)) => {
            let Response::Error(response) = response_of(bytes)? else {
                return Err(Invalid(format!(
                    "a result for a message that does not decode: {}",
                    preview(bytes)
                )));
            };
            if response.error.code != error.error.code {
                return Err(Invalid(format!(
                    "error {} where the decoder said {}: {}",
                    response.error.code.0,
                    error.error.code.0,
                    preview(bytes)
                )));
            }
            expect_id(response.id.as_ref(), error.id.as_ref(), bytes)
        }
        (Err(error), None) => Err(Invalid(format!(
            "no reply to a message that does not decode ({})",
            error.error.message
        ))),
    }
}

/// Checks that the message the decoder made encodes to bytes it decodes to
/// the same message.
///
/// # Errors
///
/// The message, when it does not come back the same.
pub fn round_trip(message: &Message) -> Result<(), Invalid> {
    let bytes = serde_json::to_vec(message)
        .map_err(|e| Invalid(format!("a decoded message does not encode: {e}")))?;
    match jsonrpc::decode(&bytes) {
        Ok(again) if again == *message => Ok(()),
        Ok(again) => Err(Invalid(format!(
            "a decoded message re-encodes to another one: {message:?} became {again:?}"
        ))),
        Err(error) => Err(Invalid(format!(
            "a decoded message re-encodes to bytes that do not decode ({error}): {}",
            preview(&bytes)
        ))),
    }
}

/// The reply as a JSON-RPC response.
fn response_of(bytes: &[u8]) -> Result<Response, Invalid> {
    if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
        return Err(Invalid(format!(
            "a reply that is not JSON ({e}): {}",
            preview(bytes)
        )));
    }
    match jsonrpc::decode(bytes) {
        Ok(Message::Response(response)) => Ok(response),
        Ok(other) => Err(Invalid(format!(
            "a reply that is a {} rather than a response: {}",
            kind(&other),
            preview(bytes)
        ))),
        Err(error) => Err(Invalid(format!(
            "a reply that is not a JSON-RPC response ({error}): {}",
            preview(bytes)
        ))),
    }
}

/// The id a response carries.
fn id_of(response: &Response) -> Option<&RequestId> {
    match response {
        Response::Result(result) => Some(&result.id),
        Response::Error(error) => error.id.as_ref(),
    }
}

/// Checks that a reply carries the id it should.
fn expect_id(
    got: Option<&RequestId>,
    want: Option<&RequestId>,
    bytes: &[u8],
) -> Result<(), Invalid> {
    if got == want {
        return Ok(());
    }
    Err(Invalid(format!(
        "a reply with id {got:?} where {want:?} was due: {}",
        preview(bytes)
    )))
}

/// What kind of message `message` is.
fn kind(message: &Message) -> &'static str {
    match message {
        Message::Request(_) => "request",
        Message::Notification(_) => "notification",
        Message::Response(_) => "response",
    }
}

/// Whether a server may send error `code`: one JSON-RPC or MCP defines,
/// one of the range JSON-RPC leaves to servers (-32099 to -32000), or one
/// outside the range JSON-RPC reserves (-32768 to -32000).
pub fn valid_error_code(code: i64) -> bool {
    ErrorCode::ALL.contains(&ErrorCode(code))
        || (-32099..=-32000).contains(&code)
        || !(-32768..=-32000).contains(&code)
}

/// The first 300 bytes of `bytes`, lossily as text.
pub fn preview(bytes: &[u8]) -> String {
    const LIMIT: usize = 300;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(LIMIT)]).into_owned();
    if bytes.len() > LIMIT {
        format!("{text}… ({} bytes)", bytes.len())
    } else {
        text
    }
}
