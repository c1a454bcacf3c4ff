//! What a stdio connection owes its client for what the client wrote, read
//! line by line as the transport reads it: a line longer than the limit
//! gets one `-32600` without an id; a blank one nothing; one the envelope
//! decoder refuses gets its error at once; a request gets at most one
//! response (none when it was cancelled, by the client or by the end of
//! its input); a notification or a response gets nothing.

use std::collections::HashMap;

use mcp_server::core::error::ErrorCode;
use mcp_server::core::jsonrpc::{self, Message, RequestId, Response};
use mcp_server::transport::stdio::MAX_LINE;

use crate::check::{Invalid, preview, valid_error_code};

/// What the lines written to a connection are owed.
#[derive(Debug, Default)]
pub struct Expected {
    /// How many lines were read (blank ones aside).
    pub lines: usize,
    /// The requests, by id: how many lines carry each.
    requests: HashMap<RequestId, usize>,
    /// The lines refused before they are decoded or by the decoder: the
    /// id and code of the error each is owed.
    refused: Vec<(Option<RequestId>, i64)>,
}

impl Expected {
    /// What `input` is owed.
    pub fn of(input: &[u8]) -> Self {
        let mut expected = Self::default();
        let mut rest = input;
        while !rest.is_empty() {
            let (line, next) = match memchr::memchr(b'\n', rest) {
                Some(end) => (&rest[..end], &rest[end + 1..]),
                None => (rest, &[][..]),
            };
            rest = next;
            if line.len() > MAX_LINE {
                expected.lines += 1;
                expected.refused.push((None, ErrorCode::INVALID_REQUEST.0));
                continue;
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            expected.lines += 1;
            match jsonrpc::decode(line) {
                Ok(Message::Request(request)) => {
                    *expected.requests.entry(request.id).or_default() += 1;
                }
                Ok(Message::Notification(_) | Message::Response(_)) => {}
                Err(error) => expected.refused.push((error.id, error.error.code.0)),
            }
        }
        expected
    }

    /// How many responses are due when nothing is cancelled.
    pub fn due(&self) -> usize {
        self.requests.values().sum::<usize>() + self.refused.len()
    }

    /// Checks what the connection wrote, line by line.
    ///
    /// # Errors
    ///
    /// A line that is not one JSON-RPC message, an error code nothing
    /// defines, more responses with an id than lines that carry it, or a
    /// refused line without its error.
    pub fn check(&self, output: &[u8]) -> Result<Outcome, Invalid> {
        let mut outcome = Outcome::default();
        if !output.is_empty() && !output.ends_with(b"\n") {
            return Err(Invalid(format!(
                "output that does not end with a newline: …{}",
                preview(&output[output.len().saturating_sub(300)..])
            )));
        }
        let mut answers: HashMap<Option<RequestId>, usize> = HashMap::new();
        let mut errors: HashMap<(Option<RequestId>, i64), usize> = HashMap::new();
        for line in output.split(|b| *b == b'\n') {
            if line.is_empty() {
                continue;
            }
            if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(line) {
                return Err(Invalid(format!(
                    "an output line that is not JSON ({e}): {}",
                    preview(line)
                )));
            }
            let (id, code) = match jsonrpc::decode(line) {
                Ok(Message::Response(Response::Result(result))) => (Some(result.id), None),
                Ok(Message::Response(Response::Error(error))) => {
                    (error.id, Some(error.error.code.0))
                }
                Ok(Message::Request(_) | Message::Notification(_)) => {
                    outcome.messages += 1;
                    continue;
                }
                Err(e) => {
                    return Err(Invalid(format!(
                        "an output line that is not a JSON-RPC message ({e}): {}",
                        preview(line)
                    )));
                }
            };
            if let Some(code) = code {
                if !valid_error_code(code) {
                    return Err(Invalid(format!(
                        "error code {code}, which nothing defines: {}",
                        preview(line)
                    )));
                }
                *errors.entry((id.clone(), code)).or_default() += 1;
            }
            *answers.entry(id).or_default() += 1;
            outcome.answers += 1;
        }
        for (id, count) in &answers {
            let requests = id
                .as_ref()
                .map_or(0, |id| self.requests.get(id).copied().unwrap_or(0));
            let refused = self.refused.iter().filter(|(r, _)| r == id).count();
            if *count > requests + refused {
                return Err(Invalid(format!(
                    "{count} responses with id {id:?} to {requests} requests and {refused} refused lines carrying it"
                )));
            }
        }
        let mut owed: HashMap<&(Option<RequestId>, i64), usize> = HashMap::new();
        for refused in &self.refused {
            *owed.entry(refused).or_default() += 1;
        }
        for ((id, code), count) in owed {
            let got = errors.get(&(id.clone(), *code)).copied().unwrap_or(0);
            if got < count {
                return Err(Invalid(format!(
                    "{count} lines refused with {code} (id {id:?}) got {got} such errors"
                )));
            }
        }
        Ok(outcome)
    }
}

/// What a connection wrote.
#[derive(Debug, Default, Clone, Copy)]
pub struct Outcome {
    /// Responses.
    pub answers: usize,
    /// Requests and notifications to the client.
    pub messages: usize,
}

/// Whether `line` (without its newline) is a JSON-RPC response.
pub fn is_response(line: &[u8]) -> bool {
    matches!(jsonrpc::decode(line), Ok(Message::Response(_)))
}
