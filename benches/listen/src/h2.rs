//! The client side over HTTP/2 with prior knowledge (h2c): connections
//! made with `hyper::client::conn::http2::handshake`, and
//! `subscriptions/listen` requests sent on them, each read up to its
//! acknowledgement like the HTTP/1.1 ones ([`crate::client::listen`]).

use std::pin::Pin;

use axum::body::Body;
use hyper::body::{Body as _, Bytes, Incoming};
use hyper::client::conn::http2::SendRequest;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::task::JoinHandle;

use crate::client::{self, ACKNOWLEDGED, CHANGED, Matcher, VERSION};

/// One HTTP/2 connection: what sends requests on it, and the task that
/// dispatches them. (hyper drives the connection itself in a task of its
/// own, which ends, closing the connection, once this sender, its clones,
/// the dispatch task and every stream on it are gone.)
#[derive(Debug)]
pub(crate) struct Connection {
    pub(crate) sender: SendRequest<Body>,
    pub(crate) dispatch: JoinHandle<()>,
}

/// Connects to `port` and makes the HTTP/2 handshake, with prior
/// knowledge (no upgrade from HTTP/1.1).
pub(crate) async fn connect(port: u16) -> Result<Connection, String> {
    let tcp = client::connect(port).await?;
    let (sender, connection) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(tcp))
            .await
            .map_err(|e| format!("HTTP/2 handshake: {e}"))?;
    let dispatch = tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok(Connection { sender, dispatch })
}

/// A listen request for `notifications/tools/list_changed`, with id `id`,
/// carrying the same headers and body as the HTTP/1.1 one.
fn listen_request(port: u16, id: u64) -> Result<hyper::Request<Body>, String> {
    hyper::Request::post(format!("http://127.0.0.1:{port}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", VERSION)
        .header("mcp-method", "subscriptions/listen")
        .body(Body::from(client::listen_body(id)))
        .map_err(|e| format!("cannot build the request: {e}"))
}

/// The next data of a response body; `None` at its end or on an error
/// (a reset stream, a closed connection).
pub(crate) async fn next_data(body: &mut Incoming) -> Option<Bytes> {
    loop {
        let frame = std::future::poll_fn(|cx| Pin::new(&mut *body).poll_frame(cx)).await?;
        match frame.map(|frame| frame.into_data()) {
            Ok(Ok(data)) => return Some(data),
            // Trailers: the end follows.
            Ok(Err(_)) => {}
            Err(_) => return None,
        }
    }
}

/// Opens a listen stream with id `id` on `sender`'s connection and reads
/// it up to the acknowledgement; the response body, and a matcher for
/// [`CHANGED`] that has seen what followed the acknowledgement.
pub(crate) async fn listen(
    sender: &mut SendRequest<Body>,
    port: u16,
    id: u64,
) -> Result<(Incoming, Matcher, usize), String> {
    sender
        .ready()
        .await
        .map_err(|e| format!("connection: {e}"))?;
    let response = sender
        .send_request(listen_request(port, id)?)
        .await
        .map_err(|e| format!("request: {e}"))?;
    let status = response.status();
    let mut body = response.into_body();
    let mut read = Vec::with_capacity(1024);
    if status != hyper::StatusCode::OK {
        // A refusal is a complete JSON answer: read a little of it.
        while read.len() < 400 {
            let Some(data) = next_data(&mut body).await else {
                break;
            };
            read.extend_from_slice(&data);
        }
        return Err(format!("refused ({status}): {}", client::shown(&read)));
    }
    loop {
        let Some(data) = next_data(&mut body).await else {
            return Err(format!(
                "ended before the acknowledgement: {}",
                client::shown(&read)
            ));
        };
        read.extend_from_slice(&data);
        if let Some(at) = client::find(&read, ACKNOWLEDGED) {
            let mut matcher = Matcher::new(CHANGED);
            let early = matcher.feed(&read[at + ACKNOWLEDGED.len()..]);
            return Ok((body, matcher, early));
        }
    }
}
