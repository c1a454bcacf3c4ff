//! Checks of an answer: HTTP 200 and a JSON-RPC response to the request's
//! id (the whole JSON body, or the SSE event that carries it) with a
//! `result` and no `error`; for a `tools/call`, the expected text.

use hyper::StatusCode;
use serde_json::Value;

use crate::conn::Reply;

/// The `result` of the response to request `id`.
pub(crate) fn result(reply: &Reply, id: u64) -> Result<Value, String> {
    if reply.status != StatusCode::OK {
        return Err(format!("HTTP {}: {}", reply.status, shown(&reply.body)));
    }
    let mut message = if reply.content_type.starts_with("text/event-stream") {
        from_events(&reply.body, id)?
    } else {
        serde_json::from_slice::<Value>(&reply.body)
            .map_err(|e| format!("not JSON ({e}): {}", shown(&reply.body)))?
    };
    if message.get("id").and_then(Value::as_u64) != Some(id) {
        return Err(format!("not the response to id {id}: {message}"));
    }
    if let Some(error) = message.get("error") {
        return Err(format!("JSON-RPC error: {error}"));
    }
    match message.get_mut("result") {
        Some(result) => Ok(result.take()),
        None => Err(format!("no result: {message}")),
    }
}

/// Checks that request `id`, a `tools/call`, succeeded with `expected` as
/// its first text content.
pub(crate) fn tool_text(reply: &Reply, id: u64, expected: &str) -> Result<(), String> {
    let result = result(reply, id)?;
    if result.get("isError") == Some(&Value::Bool(true)) {
        return Err(format!("the tool failed: {result}"));
    }
    match result.pointer("/content/0/text").and_then(Value::as_str) {
        Some(text) if text == expected => Ok(()),
        _ => Err(format!("expected the text {expected:?}, got {result}")),
    }
}

/// The message of an SSE body that answers request `id`.
fn from_events(body: &[u8], id: u64) -> Result<Value, String> {
    let text = std::str::from_utf8(body).map_err(|e| format!("SSE body not UTF-8: {e}"))?;
    let mut data = String::new();
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            if let Some(found) = response_to(&data, id) {
                return Ok(found);
            }
            data.clear();
        } else if let Some(rest) = line.strip_prefix("data:") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
        }
    }
    response_to(&data, id).ok_or_else(|| format!("no response to id {id} in {}", shown(body)))
}

/// The event data `data` when it is the response to request `id`.
fn response_to(data: &str, id: u64) -> Option<Value> {
    let message: Value = serde_json::from_str(data).ok()?;
    let answers = message.get("id").and_then(Value::as_u64) == Some(id)
        && (message.get("result").is_some() || message.get("error").is_some());
    answers.then_some(message)
}

/// The start of a body, for an error message.
pub(crate) fn shown(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(300)]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(status: StatusCode, content_type: &str, body: &str) -> Reply {
        Reply {
            status,
            content_type: content_type.into(),
            session: None,
            body: body.to_owned().into(),
        }
    }

    const OK: &str =
        r#"{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"hi"}]}}"#;

    #[test]
    fn a_json_answer_with_the_text_passes() {
        let ok = reply(StatusCode::OK, "application/json", OK);
        assert_eq!(tool_text(&ok, 4, "hi"), Ok(()));
        assert!(tool_text(&ok, 4, "ho").is_err());
        assert!(tool_text(&ok, 5, "hi").is_err(), "another request's answer");
    }

    #[test]
    fn the_answer_is_found_among_the_events_of_a_stream() {
        let body = format!(
            "event: message\r\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}}\r\n\r\n\
             id: 1\ndata: {OK}\n\n"
        );
        let sse = reply(StatusCode::OK, "text/event-stream", &body);
        assert_eq!(tool_text(&sse, 4, "hi"), Ok(()));
    }

    #[test]
    fn errors_and_refusals_fail() {
        let busy = reply(StatusCode::SERVICE_UNAVAILABLE, "application/json", OK);
        assert!(result(&busy, 4).unwrap_err().starts_with("HTTP 503"));
        let error = r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"bad"}}"#;
        let error = reply(StatusCode::OK, "application/json", error);
        assert!(result(&error, 4).unwrap_err().starts_with("JSON-RPC error"));
        let failed = r#"{"jsonrpc":"2.0","id":4,"result":{"isError":true,"content":[{"type":"text","text":"hi"}]}}"#;
        let failed = reply(StatusCode::OK, "application/json", failed);
        assert!(tool_text(&failed, 4, "hi").is_err());
    }
}
