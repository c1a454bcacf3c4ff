//! The client side, over raw HTTP/1.1: a `subscriptions/listen` request
//! read up to its acknowledgement, and a `tools/call` of `publish`; and
//! what the HTTP/2 client ([`crate::h2`]) shares with it: the listen
//! request's body and the [`Matcher`].
//!
//! Responses are searched as bytes for the methods they carry, whatever
//! their framing (SSE bodies come chunked): a method name never spans a
//! chunk boundary's hex size line, and [`Matcher`] finds it across reads.

use std::time::Instant;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The protocol version every request declares.
pub(crate) const VERSION: &str = "2026-07-28";

/// The method of a listen stream's first message.
pub(crate) const ACKNOWLEDGED: &[u8] = b"notifications/subscriptions/acknowledged";

/// The method `publish` makes every listener hear.
pub(crate) const CHANGED: &[u8] = b"notifications/tools/list_changed";

/// The bytes of one request: a `POST /mcp` with the 2026-07-28 headers.
fn request(port: u16, method: &str, name: Option<&str>, body: &str, close: bool) -> Vec<u8> {
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\n\
         Host: 127.0.0.1:{port}\r\n\
         Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n\
         MCP-Protocol-Version: {VERSION}\r\n\
         Mcp-Method: {method}\r\n"
    );
    if let Some(name) = name {
        head.push_str(&format!("Mcp-Name: {name}\r\n"));
    }
    if close {
        head.push_str("Connection: close\r\n");
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.as_bytes());
    bytes
}

/// The `_meta` every 2026-07-28 request carries.
fn meta() -> String {
    format!(
        r#"{{"io.modelcontextprotocol/protocolVersion":"{VERSION}","io.modelcontextprotocol/clientCapabilities":{{}}}}"#
    )
}

/// The body of a listen request for `notifications/tools/list_changed`,
/// with id `id`.
pub(crate) fn listen_body(id: u64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"subscriptions/listen","params":{{"_meta":{},"notifications":{{"toolsListChanged":true}}}}}}"#,
        meta()
    )
}

/// A listen request for `notifications/tools/list_changed`, with id `id`.
fn listen_request(port: u16, id: u64) -> Vec<u8> {
    request(port, "subscriptions/listen", None, &listen_body(id), false)
}

/// A call of the tool `publish`, on a connection closed after it.
fn publish_request(port: u16, id: u64) -> Vec<u8> {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"_meta":{},"name":"publish","arguments":{{}}}}}}"#,
        meta()
    );
    request(port, "tools/call", Some("publish"), &body, true)
}

/// A connection on `port`, without Nagle's delay.
pub(crate) async fn connect(port: u16) -> Result<TcpStream, String> {
    let stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| format!("connect: {e}"))?;
    stream
        .set_nodelay(true)
        .map_err(|e| format!("set_nodelay: {e}"))?;
    Ok(stream)
}

/// Opens a listen stream with id `id` and reads it up to the
/// acknowledgement; the connection, and a matcher for [`CHANGED`] that has
/// seen what followed the acknowledgement.
pub(crate) async fn listen(port: u16, id: u64) -> Result<(TcpStream, Matcher, usize), String> {
    let mut stream = connect(port).await?;
    stream
        .write_all(&listen_request(port, id))
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut read = Vec::with_capacity(1024);
    let mut buf = [0u8; 2048];
    loop {
        let n = stream
            .read(&mut buf)
            .await
            .map_err(|e| format!("read: {e}"))?;
        if n == 0 {
            return Err(format!(
                "closed before the acknowledgement: {}",
                shown(&read)
            ));
        }
        read.extend_from_slice(&buf[..n]);
        if !read.starts_with(b"HTTP/1.1 200") && read.len() >= 12 {
            // A refusal is a complete JSON answer: read a little of it.
            if find(&read, b"\r\n\r\n").is_some_and(|end| read.len() > end + 4) {
                return Err(format!("refused: {}", shown(&read)));
            }
            continue;
        }
        if let Some(at) = find(&read, ACKNOWLEDGED) {
            let mut matcher = Matcher::new(CHANGED);
            let early = matcher.feed(&read[at + ACKNOWLEDGED.len()..]);
            return Ok((stream, matcher, early));
        }
    }
}

/// Calls `publish` on a fresh connection: the instant just before the
/// request went out, and the task that reads the whole response.
pub(crate) async fn publish(
    port: u16,
    id: u64,
) -> Result<(Instant, tokio::task::JoinHandle<Result<(), String>>), String> {
    let mut stream = connect(port).await?;
    let request = publish_request(port, id);
    let sent = Instant::now();
    stream
        .write_all(&request)
        .await
        .map_err(|e| format!("write: {e}"))?;
    let answer = tokio::spawn(async move {
        let mut response = Vec::new();
        stream
            .read_to_end(&mut response)
            .await
            .map_err(|e| format!("read: {e}"))?;
        if response.starts_with(b"HTTP/1.1 200") && find(&response, b"published").is_some() {
            Ok(())
        } else {
            Err(format!("publish failed: {}", shown(&response)))
        }
    });
    Ok((sent, answer))
}

/// Counts occurrences of a needle in a byte stream fed in pieces.
#[derive(Debug)]
pub(crate) struct Matcher {
    needle: &'static [u8],
    /// What was fed and not searched through yet: the end of the last
    /// piece, shorter than the needle, where a match may start.
    pending: Vec<u8>,
}

impl Matcher {
    pub(crate) fn new(needle: &'static [u8]) -> Self {
        Self {
            needle,
            pending: Vec::new(),
        }
    }

    /// Feeds the next bytes; how many needles ended in them.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> usize {
        self.pending.extend_from_slice(bytes);
        let mut count = 0;
        let mut from = 0;
        while let Some(at) = find(&self.pending[from..], self.needle) {
            count += 1;
            from += at + self.needle.len();
        }
        // Past the last match, only a needle's length less one can still
        // be the start of one.
        let keep = (self.needle.len() - 1).min(self.pending.len() - from);
        let searched = self.pending.len() - keep;
        self.pending.drain(..searched);
        count
    }
}

/// Where `needle` first occurs in `hay`.
pub(crate) fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The start of a response, for an error message.
pub(crate) fn shown(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(400)]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_needle_is_counted_once_however_the_stream_is_cut() {
        let stream = b"data: {\"method\":\"notifications/tools/list_changed\"}\n\n\
                       : keep-alive\n\ndata: notifications/tools/list_changed\n\n";
        for cut in 1..stream.len() {
            let mut matcher = Matcher::new(CHANGED);
            let counted: usize = stream.chunks(cut).map(|piece| matcher.feed(piece)).sum();
            assert_eq!(counted, 2, "pieces of {cut} bytes");
        }
    }

    #[test]
    fn a_listen_request_carries_the_modern_headers_and_its_length() {
        let request = String::from_utf8(listen_request(8080, 7)).unwrap();
        let (head, body) = request.split_once("\r\n\r\n").unwrap();
        assert!(head.contains("Mcp-Method: subscriptions/listen\r\n"));
        assert!(head.contains("MCP-Protocol-Version: 2026-07-28\r\n"));
        assert!(head.ends_with(&format!("Content-Length: {}", body.len())));
        let body: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(body["id"], 7);
        assert_eq!(body["params"]["notifications"]["toolsListChanged"], true);
    }
}
