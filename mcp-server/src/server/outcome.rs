//! The outcome of one request: its result or its error, ready to encode as
//! the JSON-RPC response a transport sends.

use mcp_core::error::ErrorObject;
use mcp_core::jsonrpc::{ErrorResponse, RequestId};
use mcp_core::meta;
use mcp_core::version::Era;
use serde_json::value::RawValue;

use super::ServerInner;
use super::splice;

/// What serving one request came to, in the era it was served in: the
/// result, or the error to answer with.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use mcp_server::core::jsonrpc::{Request, RequestId};
/// use mcp_server::transport::Peer;
///
/// let server = mcp_server::Server::builder().without_linked().build();
/// let request = Request::new(RequestId::Number(1), "nothing/here", &serde_json::json!({})).unwrap();
/// let refused = server.admit(request, &Peer::modern(), None).await.unwrap_err();
/// let outcome = refused.into_outcome();
/// assert_eq!(outcome.error().unwrap().code.0, -32601);
/// assert!(String::from_utf8(outcome.encode()).unwrap().contains(r#""id":1"#));
/// # });
/// ```
#[derive(Debug)]
pub struct Outcome {
    id: RequestId,
    era: Era,
    result: Result<ResultText, ErrorObject>,
}

impl Outcome {
    pub(crate) fn new(id: RequestId, era: Era, result: Result<ResultText, ErrorObject>) -> Self {
        Self { id, era, result }
    }

    /// The outcome of a request a transport answers with `error` itself (a
    /// time limit it enforces, say).
    pub fn failure(id: RequestId, era: Era, error: ErrorObject) -> Self {
        Self::new(id, era, Err(error))
    }

    /// The id of the request.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    /// The era the request was served in: a transport that maps errors to
    /// statuses does so by era (Streamable HTTP answers a 2025-11-25
    /// error as an ordinary `200` response).
    pub fn era(&self) -> Era {
        self.era
    }

    /// The error the request is answered with, if it failed.
    pub fn error(&self) -> Option<&ErrorObject> {
        self.result.as_ref().err()
    }

    /// The JSON-RPC response that carries the outcome.
    pub fn encode(self) -> Vec<u8> {
        match self.result {
            Ok(result) => result.response(&self.id),
            Err(error) => encode_error(Some(self.id), error),
        }
    }
}

/// An error response, encoded: the one way every transport writes one.
///
/// ```
/// use mcp_server::core::error::ErrorObject;
///
/// let bytes = mcp_server::transport::encode_error(None, ErrorObject::parse_error("Parse error"));
/// assert!(String::from_utf8(bytes).unwrap().contains("-32700"));
/// ```
pub fn encode_error(id: Option<RequestId>, error: ErrorObject) -> Vec<u8> {
    serde_json::to_vec(&ErrorResponse::new(id, error)).unwrap_or_default()
}

/// The JSON text of a request's result, ready to go into its response.
#[derive(Debug)]
pub(crate) struct ResultText(Box<str>);

impl ResultText {
    /// The result of a request served in `era`: a modern one names the
    /// server, a legacy empty one is exactly `{}`.
    pub(crate) fn of(result: Box<RawValue>, era: Era, inner: &ServerInner) -> Self {
        match era {
            Era::Modern => with_server_info(result, inner),
            Era::Legacy => ResultText(legacy_result(result).into()),
        }
    }

    /// The encoded response to request `id` that carries this result.
    fn response(&self, id: &RequestId) -> Vec<u8> {
        const HEAD: &[u8] = br#"{"jsonrpc":"2.0","id":"#;
        const RESULT: &[u8] = br#","result":"#;
        // An id is a number or a short string: room for one of 24 bytes.
        let mut out = Vec::with_capacity(HEAD.len() + 24 + RESULT.len() + self.0.len() + 1);
        out.extend_from_slice(HEAD);
        if serde_json::to_writer(&mut out, id).is_err() {
            out.extend_from_slice(b"null");
        }
        out.extend_from_slice(RESULT);
        out.extend_from_slice(self.0.as_bytes());
        out.push(b'}');
        out
    }

    /// The result's text.
    #[cfg(test)]
    pub(crate) fn get(&self) -> &str {
        &self.0
    }
}

/// A legacy empty result is exactly `{}`, as 2025-11-25 clients check.
fn legacy_result(result: Box<RawValue>) -> Box<RawValue> {
    if result.get() == r#"{"resultType":"complete"}"# {
        return RawValue::from_string("{}".to_owned()).unwrap_or(result);
    }
    result
}

/// Adds `_meta["io.modelcontextprotocol/serverInfo"]` to a modern result
/// that does not name the server yet, in one pass over its text; the
/// result is valid JSON, and so is what the splice makes of it.
fn with_server_info(result: Box<RawValue>, inner: &ServerInner) -> ResultText {
    let text = result.get();
    let spliced = match splice::find(text, "_meta") {
        // Most results have no `_meta`: the member encoded at boot goes first.
        Ok(None) => splice::prepend(text, &inner.server_info_member),
        Ok(Some(span)) => {
            let meta = &text[span.clone()];
            let named = match splice::find(meta, meta::SERVER_INFO) {
                Ok(Some(_)) => None,
                Ok(None) => splice::prepend(meta, &inner.server_info_entry),
                Err(()) if meta == "null" => Some(format!("{{{}}}", inner.server_info_entry)),
                Err(()) => None,
            };
            named.map(|meta| [&text[..span.start], &meta, &text[span.end..]].concat())
        }
        Err(()) => None,
    };
    ResultText(spliced.map_or_else(|| result.into(), String::into_boxed_str))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Server;

    fn with_info(result: &str) -> serde_json::Value {
        let server = Server::builder()
            .without_linked()
            .without_environment()
            .named("s", "1")
            .build();
        let raw = RawValue::from_string(result.to_owned()).unwrap();
        serde_json::from_str(with_server_info(raw, &server.inner).get()).unwrap()
    }

    #[test]
    fn server_info_joins_a_result_with_or_without_meta() {
        let info = serde_json::json!({"name": "s", "version": "1"});
        let key = meta::SERVER_INFO;
        assert_eq!(with_info("{}")["_meta"][key], info);
        assert_eq!(with_info(r#" { "a" : 1 } "#)["a"], 1);
        assert_eq!(with_info(r#"{"a":1}"#)["_meta"][key], info);
        assert_eq!(with_info(r#"{"_meta":null,"a":1}"#)["_meta"][key], info);
        let kept = with_info(r#"{"_meta":{"x":2},"a":1}"#);
        assert_eq!(
            (&kept["_meta"]["x"], &kept["_meta"][key]),
            (&2.into(), &info)
        );
        let named =
            with_info(r#"{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"other"}}}"#);
        assert_eq!(named["_meta"][key]["name"], "other");
    }
}
