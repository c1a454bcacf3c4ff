//! Bytes to a [`Message`], or to the error response the sender should get.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{
    ErrorResponse, JsonRpcVersion, Message, Notification, Request, RequestId, Response,
    ResultResponse,
};
use crate::error::ErrorObject;

/// A message that could not be decoded, with the id to answer when it was readable.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{error}")]
pub struct DecodeError {
    /// The id of the offending request, when it could be read.
    pub id: Option<RequestId>,
    /// The error to send back: `-32700`, `-32600` or `-32602`.
    pub error: ErrorObject,
}

impl DecodeError {
    fn new(id: Option<RequestId>, error: ErrorObject) -> Self {
        Self { id, error }
    }

    /// The error response to send back.
    pub fn into_response(self) -> ErrorResponse {
        ErrorResponse::new(self.id, self.error)
    }
}

/// Every member a message may have, each left raw until it is checked.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    jsonrpc: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    method: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    params: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    error: Option<&'a RawValue>,
}

/// The nesting of arrays and objects at which a message is refused, the
/// message itself being the first level: 128, serde_json's own recursion
/// limit.
///
/// A message that reaches it is a parse error (`-32700`), found in one scan
/// of its bytes before any of it is decoded. So a message that passes holds
/// at most 127 levels, which serde_json decodes whole, and each of its
/// parts (`params` decoded later by whatever type its method takes)
/// decodes without reaching the limit either.
///
/// ```
/// use mcp_core::jsonrpc::{self, NESTING_LIMIT};
///
/// let deep = format!("{}{}", "[".repeat(NESTING_LIMIT), "]".repeat(NESTING_LIMIT));
/// assert_eq!(jsonrpc::decode(deep.as_bytes()).unwrap_err().error.code.0, -32700);
/// assert!(serde_json::from_str::<serde_json::Value>(&deep).is_err());
/// ```
pub const NESTING_LIMIT: usize = 128;

/// Decodes one JSON-RPC message.
///
/// Bytes that are not JSON, or that nest arrays and objects
/// [`NESTING_LIMIT`] levels deep, give `-32700`; JSON that is not a single
/// JSON-RPC 2.0 message gives `-32600` (batches included: MCP does not
/// batch); a request whose `params` is an array gives `-32602`, as MCP
/// params are always objects. Params are not decoded here: see [`Request::params_as`].
///
/// # Errors
///
/// A [`DecodeError`] carrying the request id whenever it could be read.
#[allow(
    clippy::result_large_err,
    reason = "the error is the response to send, built once per bad message"
)]
pub fn decode(bytes: &[u8]) -> Result<Message, DecodeError> {
    if nests_too_deep(bytes) {
        return Err(DecodeError::new(
            None,
            ErrorObject::parse_error(format!(
                "Parse error: arrays and objects nest {NESTING_LIMIT} levels deep or more; at most {} are allowed",
                NESTING_LIMIT - 1
            )),
        ));
    }
    // JSON is UTF-8 text; read as text, a message is decoded by the same
    // code as the params it carries.
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(DecodeError::new(
            None,
            ErrorObject::parse_error("Parse error: the message is not valid UTF-8"),
        ));
    };
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => {}
        Some(b'[') if is_json(text) => {
            return invalid(&None, "Invalid Request: batches are not supported");
        }
        _ if is_json(text) => {
            return invalid(&None, "Invalid Request: a message is a JSON object");
        }
        _ => {
            return Err(DecodeError::new(
                None,
                ErrorObject::parse_error("Parse error: the message is not valid JSON"),
            ));
        }
    }
    let envelope: Envelope<'_> = match serde_json::from_str(text) {
        Ok(envelope) => envelope,
        Err(e) => return Err(DecodeError::new(None, classify(text, &e))),
    };
    let id = match envelope.id.map(read_id) {
        None => None,
        Some(Ok(id)) => id,
        Some(Err(why)) => return Err(DecodeError::new(None, ErrorObject::invalid_request(why))),
    };
    match envelope.jsonrpc.map(RawValue::get) {
        Some(r#""2.0""#) => {}
        Some(_) => return invalid(&id, "Invalid Request: `jsonrpc` must be \"2.0\""),
        None => return invalid(&id, "Invalid Request: missing `jsonrpc`"),
    }
    if let Some(method) = envelope.method {
        let Ok(method) = serde_json::from_str::<String>(method.get()) else {
            return invalid(&id, "Invalid Request: `method` must be a string");
        };
        if envelope.result.is_some() || envelope.error.is_some() {
            return invalid(
                &id,
                "Invalid Request: a request cannot carry `result` or `error`",
            );
        }
        let params = match envelope.params.map(|p| (p, p.get().as_bytes().first())) {
            None | Some((_, Some(b'n'))) => None,
            Some((p, Some(b'{'))) => Some(p.to_owned()),
            Some((_, Some(b'['))) => {
                let error = ErrorObject::invalid_params(
                    "Invalid params: MCP params are an object, not an array",
                );
                return Err(DecodeError::new(id, error));
            }
            Some(_) => return invalid(&id, "Invalid Request: `params` must be an object"),
        };
        return Ok(match (envelope.id, id) {
            (None, _) => Message::Notification(Notification {
                jsonrpc: JsonRpcVersion,
                method,
                params,
            }),
            (Some(_), Some(id)) => Message::Request(Request {
                jsonrpc: JsonRpcVersion,
                id,
                method,
                params,
            }),
            (Some(_), None) => return invalid(&None, "Invalid Request: `id` must not be null"),
        });
    }
    match (envelope.result, envelope.error) {
        (Some(result), None) => {
            let Some(id) = id else {
                return invalid(&id, "Invalid Request: a result response needs an `id`");
            };
            let result = serde_json::from_str(result.get()).map_err(|e| {
                DecodeError::new(
                    Some(id.clone()),
                    ErrorObject::invalid_request(format!("Invalid Request: {e}")),
                )
            })?;
            Ok(Message::Response(Response::Result(ResultResponse::new(
                id, result,
            ))))
        }
        (None, Some(error)) => {
            let error = serde_json::from_str(error.get()).map_err(|e| {
                DecodeError::new(
                    id.clone(),
                    ErrorObject::invalid_request(format!(
                        "Invalid Request: malformed `error`: {e}"
                    )),
                )
            })?;
            Ok(Message::Response(Response::Error(ErrorResponse::new(
                id, error,
            ))))
        }
        (Some(_), Some(_)) => invalid(
            &id,
            "Invalid Request: a response cannot carry both `result` and `error`",
        ),
        (None, None) => invalid(
            &id,
            "Invalid Request: a message needs a `method`, a `result` or an `error`",
        ),
    }
}

/// Whether `bytes` open [`NESTING_LIMIT`] arrays or objects inside one
/// another, brackets inside strings not counting: one pass, no allocation.
/// Bytes that are not JSON are scanned all the same; they fail later if
/// they pass here.
fn nests_too_deep(bytes: &[u8]) -> bool {
    // Fewer opening brackets than the limit cannot nest that deep: a count
    // the compiler vectorizes spares nearly every message the exact scan.
    let opening = bytes.iter().filter(|&&b| b == b'[' || b == b'{').count();
    if opening < NESTING_LIMIT {
        return false;
    }
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in bytes {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth >= NESTING_LIMIT {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// Reads an id: `Ok(None)` for `null` (allowed only on error responses).
fn read_id(raw: &RawValue) -> Result<Option<RequestId>, &'static str> {
    if raw.get() == "null" {
        return Ok(None);
    }
    serde_json::from_str(raw.get())
        .map(Some)
        .map_err(|_| "Invalid Request: `id` must be a string or an integer")
}

/// Tells bytes that are not JSON (`-32700`) from JSON of the wrong shape (`-32600`).
fn classify(text: &str, error: &serde_json::Error) -> ErrorObject {
    use serde_json::error::Category;
    match error.classify() {
        Category::Syntax | Category::Eof | Category::Io => {
            ErrorObject::parse_error(format!("Parse error: {error}"))
        }
        Category::Data if !is_json(text) => {
            ErrorObject::parse_error("Parse error: the message is not valid JSON")
        }
        Category::Data => ErrorObject::invalid_request(format!("Invalid Request: {error}")),
    }
}

#[allow(clippy::result_large_err, reason = "see `decode`")]
fn invalid(id: &Option<RequestId>, why: &str) -> Result<Message, DecodeError> {
    Err(DecodeError::new(
        id.clone(),
        ErrorObject::invalid_request(why),
    ))
}

fn is_json(text: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}

/// Reads a member that is present as `Some`, `null` included.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}
