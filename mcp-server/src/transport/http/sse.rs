//! Server-sent events: the framing of one event, and a response body fed
//! from a channel.

use std::io;
use std::time::Duration;

use super::frames::{FrameReceiver, Next};
use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::Response;

/// One event: an optional id and one JSON-RPC message on one `data:` line.
pub(crate) fn event(id: Option<&str>, message: &[u8]) -> Bytes {
    let mut frame = Vec::with_capacity(message.len() + 32);
    if let Some(id) = id {
        frame.extend_from_slice(b"id: ");
        frame.extend_from_slice(id.as_bytes());
        frame.push(b'\n');
    }
    frame.extend_from_slice(b"event: message\ndata: ");
    frame.extend_from_slice(message);
    frame.extend_from_slice(b"\n\n");
    Bytes::from(frame)
}

/// The priming event of a resumable stream: its first id, the reconnection
/// delay, and empty data.
pub(crate) fn priming(id: &str, retry_ms: u128) -> Bytes {
    Bytes::from(format!("id: {id}\nretry: {retry_ms}\ndata: \n\n"))
}

/// A reconnection hint alone, sent before a stream ends on purpose: the
/// client reconnects after `after`.
pub(crate) fn retry(after: std::time::Duration) -> Bytes {
    Bytes::from(format!("retry: {}\n\n", after.as_millis()))
}

/// A comment that keeps an idle stream open through proxies.
pub(crate) fn keep_alive() -> Bytes {
    Bytes::from_static(b": keep-alive\n\n")
}

/// A response body that yields each frame sent on the queue and ends when
/// every sender is gone, with a keep-alive comment whenever nothing was sent
/// for `keep_alive`, when given; it fails, closing the connection, when the
/// queue overflowed. `held` lives as long as the body: a drop guard that
/// cancels the request when the client goes away, say.
pub(crate) fn body<H: Send + 'static>(
    frames: FrameReceiver,
    keep_alive: Option<Duration>,
    held: H,
) -> Body {
    let stream = futures_util::stream::unfold(Some((frames, held)), move |state| async move {
        let (mut frames, held) = state?;
        let next = match keep_alive {
            None => frames.recv().await,
            Some(idle) => tokio::time::timeout(idle, frames.recv())
                .await
                .unwrap_or_else(|_| Next::Frame(self::keep_alive())),
        };
        match next {
            Next::Frame(frame) => Some((Ok(frame), Some((frames, held)))),
            Next::End => None,
            Next::Overflowed => Some((
                Err(io::Error::other(
                    "the client stopped reading; the stream overflowed",
                )),
                None,
            )),
        }
    });
    Body::from_stream(stream)
}

/// A `200 text/event-stream` response.
pub(crate) fn response(body: Body) -> Response {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}
