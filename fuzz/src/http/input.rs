//! One HTTP input as the corpus holds it: the request line, the headers
//! and the body, spelled as HTTP/1.1 spells them (`CRLF` after each line,
//! an empty line before the body), so a failing input reads as the
//! request it is and replays with `--replay`.
//!
//! Two things are decided only when the input runs, and stand in the text
//! for what they will be: the `Mcp-Session-Id` of a session opened for the
//! input alone ([`OWN_SESSION`]), of the session inputs share
//! ([`SHARED_SESSION`]) or of a session deleted before ([`ENDED_SESSION`]);
//! and how the body is sent, in two pseudo-headers that are not sent:
//! `x-mcp-fuzz-body: chunks N` (in `N` chunks) or `fail N` (`N` chunks,
//! then the body fails, as a connection that drops mid-body does), and
//! `x-mcp-fuzz-pad: N` (spaces after the body up to `N` bytes, for bodies
//! past the size limit without megabytes of text in the corpus).

use axum::body::{Body, Bytes};
use axum::http::{HeaderName, HeaderValue, Method, Request};

/// The session opened for this input alone, deleted after it.
pub const OWN_SESSION: &str = "$own-session";
/// The session that every input naming it shares.
pub const SHARED_SESSION: &str = "$shared-session";
/// A session that was opened and deleted.
pub const ENDED_SESSION: &str = "$ended-session";

/// The pseudo-header of how the body is sent.
const SENDING: &str = "x-mcp-fuzz-body";
/// The pseudo-header of the length the body is padded to.
const PAD: &str = "x-mcp-fuzz-pad";

/// How a body reaches the endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sending {
    /// In one piece.
    Whole,
    /// In this many chunks.
    Chunks(usize),
    /// This many chunks of the body's beginning, then an error.
    Failing(usize),
}

/// One HTTP request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpInput {
    /// The method.
    pub method: String,
    /// The request target: the path and any query.
    pub target: String,
    /// The headers in order, repeated names kept; values are bytes (a
    /// header may hold bytes that are not text).
    pub headers: Vec<(String, Vec<u8>)>,
    /// The body, before padding.
    pub body: Vec<u8>,
    /// How the body is sent.
    pub sending: Sending,
    /// The length the body is padded to with spaces (nothing when shorter).
    pub pad_to: usize,
}

/// The session ids the placeholders stand for.
#[derive(Debug, Default, Clone)]
pub struct SessionIds {
    /// For [`OWN_SESSION`].
    pub own: Option<String>,
    /// For [`SHARED_SESSION`].
    pub shared: Option<String>,
    /// For [`ENDED_SESSION`].
    pub ended: Option<String>,
}

impl HttpInput {
    /// Whether some header holds exactly `placeholder`.
    pub fn names(&self, placeholder: &str) -> bool {
        self.headers
            .iter()
            .any(|(_, value)| value == placeholder.as_bytes())
    }

    /// The body as the endpoint gets it, padded.
    pub fn full_body(&self) -> Vec<u8> {
        let mut body = self.body.clone();
        if body.len() < self.pad_to {
            body.resize(self.pad_to, b' ');
        }
        body
    }

    /// The request line, headers and body as written to the corpus.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.body.len() + 256);
        out.extend_from_slice(format!("{} {} HTTP/1.1\r\n", self.method, self.target).as_bytes());
        let mut line = |name: &str, value: &[u8]| {
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(b": ");
            out.extend_from_slice(value);
            out.extend_from_slice(b"\r\n");
        };
        for (name, value) in &self.headers {
            line(name, value);
        }
        match self.sending {
            Sending::Whole => {}
            Sending::Chunks(n) => line(SENDING, format!("chunks {n}").as_bytes()),
            Sending::Failing(n) => line(SENDING, format!("fail {n}").as_bytes()),
        }
        if self.pad_to > 0 {
            line(PAD, self.pad_to.to_string().as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&self.body);
        out
    }

    /// Reads what [`Self::to_bytes`] wrote.
    ///
    /// # Errors
    ///
    /// What makes `bytes` no such request.
    pub fn parse(bytes: &[u8]) -> Result<Self, String> {
        let end = find(bytes, b"\r\n\r\n").ok_or("no empty line after the headers")?;
        // The head with the CRLF of its last line.
        let (head, body) = (&bytes[..end + 2], &bytes[end + 4..]);
        let mut lines = Vec::new();
        let mut rest = head;
        while let Some(at) = find(rest, b"\r\n") {
            lines.push(&rest[..at]);
            rest = &rest[at + 2..];
        }
        let mut lines = lines.into_iter();
        let request_line = lines.next().ok_or("no request line")?;
        let request_line =
            std::str::from_utf8(request_line).map_err(|_| "a request line that is not text")?;
        let mut parts = request_line.split(' ');
        let (Some(method), Some(target), Some("HTTP/1.1"), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(format!("not a request line: {request_line:?}"));
        };
        let mut input = Self {
            method: method.to_owned(),
            target: target.to_owned(),
            headers: Vec::new(),
            body: body.to_vec(),
            sending: Sending::Whole,
            pad_to: 0,
        };
        for line in lines {
            let colon = line
                .iter()
                .position(|b| *b == b':')
                .ok_or("a header line without a colon")?;
            let name = std::str::from_utf8(&line[..colon])
                .map_err(|_| "a header name that is not text")?
                .to_ascii_lowercase();
            let value = line[colon + 1..]
                .strip_prefix(b" ")
                .unwrap_or(&line[colon + 1..]);
            match name.as_str() {
                SENDING => input.sending = sending(value)?,
                PAD => {
                    input.pad_to = std::str::from_utf8(value)
                        .ok()
                        .and_then(|v| v.parse().ok())
                        .ok_or("a pad length that is not a number")?;
                }
                _ => input.headers.push((name, value.to_vec())),
            }
        }
        Ok(input)
    }

    /// The request to send, with the placeholders filled from `ids` (a
    /// placeholder without an id is sent as it is).
    ///
    /// # Errors
    ///
    /// A method, target, header name or value HTTP does not allow.
    pub fn request(&self, ids: &SessionIds) -> Result<Request<Body>, String> {
        let method =
            Method::from_bytes(self.method.as_bytes()).map_err(|e| format!("method: {e}"))?;
        let mut request = Request::builder().method(method).uri(self.target.as_str());
        for (name, value) in &self.headers {
            let filled = [
                (OWN_SESSION, &ids.own),
                (SHARED_SESSION, &ids.shared),
                (ENDED_SESSION, &ids.ended),
            ]
            .into_iter()
            .find(|(placeholder, _)| value == placeholder.as_bytes())
            .and_then(|(_, id)| id.as_deref());
            let value = filled.map_or(value.as_slice(), str::as_bytes);
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|e| format!("header name {name:?}: {e}"))?;
            let value =
                HeaderValue::from_bytes(value).map_err(|e| format!("header {name}: {e}"))?;
            request = request.header(name, value);
        }
        request
            .body(self.body_to_send())
            .map_err(|e| format!("request: {e}"))
    }

    /// The body, as [`Self::sending`] says.
    fn body_to_send(&self) -> Body {
        let body = Bytes::from(self.full_body());
        let pieces = |n: usize| -> Vec<Bytes> {
            let n = n.max(1);
            let size = body.len().div_ceil(n).max(1);
            (0..n)
                .map(|i| body.slice((i * size).min(body.len())..((i + 1) * size).min(body.len())))
                .collect()
        };
        match self.sending {
            Sending::Whole => Body::from(body),
            Sending::Chunks(n) => {
                let chunks: Vec<Result<Bytes, std::io::Error>> =
                    pieces(n).into_iter().map(Ok).collect();
                Body::from_stream(futures_util::stream::iter(chunks))
            }
            Sending::Failing(n) => {
                // The first `n` of `n + 1` pieces arrive; the connection drops.
                let mut chunks: Vec<Result<Bytes, std::io::Error>> =
                    pieces(n + 1).into_iter().take(n).map(Ok).collect();
                chunks.push(Err(std::io::Error::new(
                    std::io::ErrorKind::ConnectionReset,
                    "the client went away mid-body",
                )));
                Body::from_stream(futures_util::stream::iter(chunks))
            }
        }
    }
}

/// What `x-mcp-fuzz-body` says.
fn sending(value: &[u8]) -> Result<Sending, String> {
    let text = std::str::from_utf8(value).unwrap_or("");
    let number = |n: &str| n.parse().map_err(|_| format!("{SENDING}: {text:?}"));
    match text.split_once(' ') {
        Some(("chunks", n)) => Ok(Sending::Chunks(number(n)?)),
        Some(("fail", n)) => Ok(Sending::Failing(number(n)?)),
        _ if text == "whole" => Ok(Sending::Whole),
        _ => Err(format!("{SENDING}: {text:?}")),
    }
}

/// Where `needle` first starts in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}
