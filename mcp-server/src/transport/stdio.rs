//! stdio: newline-delimited JSON-RPC on stdin and stdout. Logs belong on
//! stderr; stdout carries only protocol messages.
//!
//! Requests run concurrently; `notifications/cancelled` cancels the request
//! it names; end of input cancels what is still running and returns. A
//! 2025-11-25 client's `initialize` makes the process a legacy session.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
//!
//! let server = mcp_server::Server::builder().without_linked().build();
//! // One pipe each way, as stdin and stdout are.
//! let (mut to_server, server_in) = tokio::io::duplex(4096);
//! let (server_out, from_server) = tokio::io::duplex(4096);
//! let serving = tokio::spawn(mcp_server::transport::stdio::serve(server, server_in, server_out));
//! to_server.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n").await.unwrap();
//! let mut lines = BufReader::new(from_server).lines();
//! let answer = lines.next_line().await.unwrap().unwrap();
//! assert!(answer.contains("-32601"), "ping is a legacy method: {answer}");
//! drop(to_server); // end of input: the transport returns
//! serving.await.unwrap().unwrap();
//! # });
//! ```

use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex};

use mcp_core::cancellation::CancelledNotificationParams;
use mcp_core::error::ErrorObject;
use mcp_core::jsonrpc::{
    self, ErrorResponse, Message, Notification, Request, RequestId, ResultResponse,
};
use mcp_core::legacy::initialize::InitializeRequestParams;
use mcp_core::legacy::logging::SetLevelRequestParams;
use mcp_core::result::EmptyResult;
use mcp_core::version::Era;
use serde::Serialize;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::legacy;
use crate::server::{Caller, Server, Session};
use crate::sink::NotificationSink;
use crate::source::Credentials;

/// Serves `server` on this process's stdin and stdout until stdin ends.
///
/// # Errors
///
/// An I/O error reading stdin or writing stdout.
pub async fn serve_stdio(server: Server) -> io::Result<()> {
    serve(server, tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serves `server` on any pair of byte streams, one JSON-RPC message per line.
///
/// # Errors
///
/// An I/O error reading `input` or writing `output`.
pub async fn serve<R, W>(server: Server, input: R, output: W) -> io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (lines_out, writer) = spawn_writer(output);
    let state = Arc::new(State::default());
    let mut running = JoinSet::new();
    let mut input = BufReader::new(input).lines();
    while let Some(line) = input.next_line().await? {
        if line.trim().is_empty() {
            continue;
        }
        match jsonrpc::decode(line.as_bytes()) {
            Err(error) => send(&lines_out, &error.into_response()),
            Ok(Message::Notification(notification)) => state.notify(&notification),
            Ok(Message::Response(_)) => {}
            Ok(Message::Request(request)) => {
                if let Some(answer) = state.lifecycle(&server, &request) {
                    let _ = lines_out.send(answer);
                    continue;
                }
                let cancellation = CancellationToken::new();
                state
                    .running()
                    .insert(request.id.clone(), cancellation.clone());
                let caller = Caller {
                    era: if state.session().is_some() {
                        Era::Legacy
                    } else {
                        Era::Modern
                    },
                    credentials: Credentials::none(),
                    notifications: Arc::new(LineSink(lines_out.clone())),
                    cancellation,
                    session: state.session(),
                };
                let (server, state, lines_out) = (server.clone(), state.clone(), lines_out.clone());
                running.spawn(async move {
                    let id = request.id.clone();
                    let response = server.handle_request(request, &caller).await;
                    state.running().remove(&id);
                    let _ = lines_out.send(response);
                });
            }
        }
        while running.try_join_next().is_some() {}
    }
    // End of input: the client is gone, so is every request it made.
    for (_, cancellation) in state.running().drain() {
        cancellation.cancel();
    }
    running.shutdown().await;
    drop(lines_out);
    writer.await.unwrap_or(Ok(()))
}

/// What one stdio connection remembers: its legacy session and its running requests.
#[derive(Default)]
struct State {
    session: Mutex<Option<Arc<Session>>>,
    running: Mutex<HashMap<RequestId, CancellationToken>>,
}

impl State {
    fn session(&self) -> Option<Arc<Session>> {
        self.session
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<RequestId, CancellationToken>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A client notification: `notifications/cancelled` cancels what it names.
    fn notify(&self, notification: &Notification) {
        if notification.method != "notifications/cancelled" {
            return;
        }
        let Ok(params) = notification.params_as::<CancelledNotificationParams>() else {
            return;
        };
        let cancelled = self.running().remove(&params.request_id);
        if let Some(cancellation) = cancelled {
            cancellation.cancel();
        }
    }

    /// Answers the legacy lifecycle methods the transport owns; `None` for the rest.
    fn lifecycle(&self, server: &Server, request: &Request) -> Option<Vec<u8>> {
        let legacy = self.session().is_some();
        let answer = match request.method.as_str() {
            "initialize" => request
                .params_as::<InitializeRequestParams>()
                .map(|params| {
                    let (session, result) = legacy::initialize(server, params);
                    *self.session.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some(Arc::new(session));
                    encode_result(&request.id, &result)
                }),
            "ping" if legacy => Ok(encode_result(&request.id, &serde_json::json!({}))),
            "logging/setLevel" if legacy => {
                request.params_as::<SetLevelRequestParams>().map(|params| {
                    let mut session = self.session.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(current) = session.as_mut() {
                        let mut updated = Session::clone(current);
                        updated.log_level = Some(params.level);
                        *current = Arc::new(updated);
                    }
                    encode_result(&request.id, &EmptyResult::default())
                })
            }
            _ => return None,
        };
        Some(answer.unwrap_or_else(|error| encode_error(&request.id, error)))
    }
}

fn encode_result<T: Serialize>(id: &RequestId, result: &T) -> Vec<u8> {
    serde_json::to_vec(&ResultResponse::new(id.clone(), result)).unwrap_or_default()
}

fn encode_error(id: &RequestId, error: ErrorObject) -> Vec<u8> {
    serde_json::to_vec(&ErrorResponse::new(Some(id.clone()), error)).unwrap_or_default()
}

fn send<T: Serialize>(lines_out: &mpsc::UnboundedSender<Vec<u8>>, message: &T) {
    if let Ok(bytes) = serde_json::to_vec(message) {
        let _ = lines_out.send(bytes);
    }
}

/// Writes each message on its own line, in the order they are sent.
fn spawn_writer<W>(
    mut output: W,
) -> (
    mpsc::UnboundedSender<Vec<u8>>,
    tokio::task::JoinHandle<io::Result<()>>,
)
where
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (lines_out, mut lines) = mpsc::unbounded_channel::<Vec<u8>>();
    let writer = tokio::spawn(async move {
        while let Some(mut line) = lines.recv().await {
            line.push(b'\n');
            output.write_all(&line).await?;
            output.flush().await?;
        }
        Ok(())
    });
    (lines_out, writer)
}

/// Sends a request's notifications on the output, between responses.
struct LineSink(mpsc::UnboundedSender<Vec<u8>>);

impl NotificationSink for LineSink {
    fn send(&self, notification: Notification) {
        send(&self.0, &notification);
    }
}
