//! stdio: newline-delimited JSON-RPC on stdin and stdout. Logs belong on
//! stderr; stdout carries only protocol messages.
//!
//! Requests run concurrently, up to a limit ([`StdioConfig`]); one more
//! is refused at once. `notifications/cancelled` cancels the request it
//! names. At the end of input, or once the server's
//! [`Shutdown`](crate::server::Shutdown) begins, nothing more is read:
//! every request already read is answered, within the drain deadline
//! (`server.drain_timeout_s`), and only the questions to the client, which
//! can no longer answer, are cancelled; then the transport returns. A
//! 2025-11-25 client's `initialize` makes the process a legacy session.
//! What waits to be written is bounded too: a client that stops reading
//! stdout while the server keeps writing is disconnected with a log line.
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

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_core::error::ErrorObject;
use mcp_core::jsonrpc::{self, Message, Notification};
use serde::Serialize;
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader,
};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::Server;
use crate::auth::{Channel, Credentials};
use crate::context::DEFAULT_INPUT_TIMEOUT;
use crate::transport::{
    ChangeFeed, ClientRequester, InFlight, NotificationSink, Outbound, Peer, Requester, Session,
    encode_error,
};

/// Serves `server` on this process's stdin and stdout until stdin ends,
/// with the credentials of its environment ([`ENVIRONMENT_CREDENTIALS`]).
///
/// # Errors
///
/// An I/O error reading stdin or writing stdout.
pub async fn serve_stdio(server: Server) -> io::Result<()> {
    let config = StdioConfig::default().credentials(environment_credentials());
    serve_with(server, tokio::io::stdin(), tokio::io::stdout(), config).await
}

/// The environment variable a stdio process takes its caller's
/// credentials from, as an `Authorization` value (`Bearer <token>`): the
/// process that starts the server is the one that authenticates.
pub const ENVIRONMENT_CREDENTIALS: &str = "MCP_AUTHORIZATION";

/// The credentials of this process's environment.
fn environment_credentials() -> Credentials {
    Credentials {
        authorization: std::env::var(ENVIRONMENT_CREDENTIALS).ok(),
        channel: Channel::Stdio,
    }
}

/// Serves `server` on any pair of byte streams, one JSON-RPC message per
/// line, with the default [`StdioConfig`].
///
/// # Errors
///
/// An I/O error reading `input` or writing `output`, or a client that
/// stopped reading `output`.
pub async fn serve<R, W>(server: Server, input: R, output: W) -> io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    serve_with(server, input, output, StdioConfig::default()).await
}

/// The limits of a stdio process.
///
/// By default 256 requests run at once, and 16 MiB may wait to be
/// written to a client that does not read.
///
/// ```
/// use mcp_server::transport::stdio::StdioConfig;
///
/// let config = StdioConfig::default()
///     .max_concurrent_requests(64)
///     .max_backlog_bytes(1 << 20);
/// # let _ = config;
/// ```
#[derive(Debug, Clone)]
pub struct StdioConfig {
    max_concurrent: usize,
    max_backlog: usize,
    credentials: Credentials,
}

impl Default for StdioConfig {
    fn default() -> Self {
        Self {
            max_concurrent: 256,
            max_backlog: 16 << 20,
            credentials: Credentials::none().on(Channel::Stdio),
        }
    }
}

impl StdioConfig {
    /// Every message comes with `credentials` (by default none; the
    /// process's own stdio, [`serve_stdio`], reads them from its environment).
    #[must_use]
    pub fn credentials(mut self, credentials: Credentials) -> Self {
        self.credentials = credentials.on(Channel::Stdio);
        self
    }

    /// How many requests may run at once; one more gets an error at once.
    #[must_use]
    pub fn max_concurrent_requests(mut self, count: usize) -> Self {
        self.max_concurrent = count.max(1);
        self
    }

    /// The most bytes that may wait to be written (one message alone may
    /// be larger); past it the client, which stopped reading, is
    /// disconnected: [`serve_with`] returns an error.
    #[must_use]
    pub fn max_backlog_bytes(mut self, bytes: usize) -> Self {
        self.max_backlog = bytes;
        self
    }
}

/// Serves `server` on any pair of byte streams, one JSON-RPC message per
/// line, within the limits of `config`.
///
/// # Errors
///
/// An I/O error reading `input` or writing `output`, or a client that
/// stopped reading `output` while more than `config`'s backlog waited.
pub async fn serve_with<R, W>(
    server: Server,
    input: R,
    output: W,
    config: StdioConfig,
) -> io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    // Only reading lines depends on the streams' types; the rest is
    // compiled once, whatever streams a program serves.
    let mut process = Process::start(server, Box::new(output), config);
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    let shutdown = process.server.shutdown().clone();
    loop {
        let next = tokio::select! {
            read = next_line(&mut input, &mut line) => match read? {
                Some(read) => Next::Line(read),
                None => Next::End,
            },
            // A drain reads no more: what was read is answered below.
            () = shutdown.draining() => Next::End,
            () = process.lines_out.overflow.cancelled() => Next::Overflow,
        };
        match next {
            // Boxed, so that the reading loop stays small: the future of
            // `read` is compiled once, not into each loop's.
            Next::Line(read) => Box::pin(process.read(read, &line)).await,
            Next::End => break,
            Next::Overflow => return Err(process.overflowed().await),
        }
    }
    process.finish().await
}

/// What the reading loop of [`serve_with`] meets next.
enum Next {
    /// A line, in the buffer.
    Line(Line),
    /// The end of input, or a drain.
    End,
    /// The client stopped reading while too much waited to be written.
    Overflow,
}

/// One stdio process being served: what [`serve_with`] holds between lines.
struct Process {
    server: Server,
    config: StdioConfig,
    state: Arc<State>,
    lines_out: Lines,
    writer: tokio::task::JoinHandle<io::Result<()>>,
    forwarding: tokio::task::JoinHandle<()>,
    running: JoinSet<()>,
}

impl Process {
    fn start(
        server: Server,
        output: Box<dyn AsyncWrite + Unpin + Send>,
        config: StdioConfig,
    ) -> Self {
        let (lines_out, writer) = spawn_writer(output, config.max_backlog);
        let state = Arc::new(State::default());
        let forwarding = forward_changes(&server, &state, &lines_out);
        Self {
            server,
            config,
            state,
            lines_out,
            writer,
            forwarding,
            running: JoinSet::new(),
        }
    }

    /// Answers what one line holds.
    async fn read(&mut self, read: Line, line: &[u8]) {
        let lines_out = &self.lines_out;
        if read == Line::TooLong {
            let _ = lines_out.send(encode_error(
                None,
                ErrorObject::invalid_request(format!(
                    "Message too large: the limit is {MAX_LINE} bytes"
                )),
            ));
            return;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let state = &self.state;
        let credentials = &self.config.credentials;
        match jsonrpc::decode(line) {
            Err(error) => {
                let _ = lines_out.send(encode_error(error.id, error.error));
            }
            Ok(Message::Notification(notification)) => {
                let peer = Peer::on(state.session.clone()).with_credentials(credentials.clone());
                if self.server.admit_notification(&notification, &peer).await {
                    state.in_flight.notify(&notification);
                }
            }
            Ok(Message::Response(response)) => {
                state.outbound.settle(response);
            }
            Ok(Message::Request(request)) if self.running.len() >= self.config.max_concurrent => {
                let _ = lines_out.send(encode_error(
                    Some(request.id),
                    ErrorObject::internal_error(format!(
                        "Server busy: {} requests are already running; retry later",
                        self.config.max_concurrent
                    )),
                ));
            }
            Ok(Message::Request(request)) => {
                let cancellation = CancellationToken::new();
                state
                    .in_flight
                    .start(request.id.clone(), cancellation.clone());
                let requester = {
                    let lines_out = lines_out.clone();
                    Arc::new(Requester {
                        outbound: state.outbound.clone(),
                        send: move |bytes| lines_out.send(bytes),
                    }) as Arc<dyn ClientRequester>
                };
                let peer = Peer::on(state.session.clone())
                    .with_credentials(credentials.clone())
                    .with_notifications(Arc::new(LineSink {
                        lines_out: lines_out.clone(),
                        cancellation: cancellation.clone(),
                    }))
                    .with_cancellation(cancellation)
                    .with_requester(Some(requester), DEFAULT_INPUT_TIMEOUT);
                let (server, state, lines_out) =
                    (self.server.clone(), state.clone(), lines_out.clone());
                // `initialize` decides the era of what follows: it is answered
                // before the next line is read.
                let inline = request.method == "initialize";
                let serving = async move {
                    let id = request.id.clone();
                    let response = server.handle_request(request, &peer).await;
                    // A cancelled request is answered with nothing at all.
                    if state.in_flight.stop(&id) {
                        let _ = lines_out.send(response);
                    }
                };
                if inline {
                    serving.await;
                } else {
                    self.running.spawn(serving);
                }
            }
        }
        while self.running.try_join_next().is_some() {}
    }

    /// Ends the process whose client stopped reading: the error
    /// [`serve_with`] returns.
    async fn overflowed(mut self) -> io::Error {
        self.stop_work().await;
        self.writer.abort();
        io::Error::other("the client stopped reading stdout: too much waited to be written")
    }

    /// Stops what still runs: the requests, with their questions to the
    /// client cancelled, and the forwarding of changes; closes the session.
    async fn stop_work(&mut self) {
        self.state.in_flight.cancel_all();
        self.running.shutdown().await;
        self.forwarding.abort();
        self.state.session.close();
    }

    /// Ends the process at the end of input, or in a drain: every request
    /// read is answered, within the drain deadline; only questions to the
    /// client, which can no longer answer, are cancelled (their handlers
    /// hear so and answer). Work that outlives its request (a task) may
    /// still hold the output: the writer ends once what is queued is
    /// written, and what such work sends later goes nowhere.
    async fn finish(mut self) -> io::Result<()> {
        self.state.outbound.close();
        let shutdown = self.server.shutdown().clone();
        let deadline = tokio::time::sleep(shutdown.drain_timeout());
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                joined = self.running.join_next() => if joined.is_none() { break },
                () = &mut deadline => break,
                () = shutdown.expired() => break,
            }
        }
        self.stop_work().await;
        self.lines_out.closing.cancel();
        drop(self.lines_out);
        self.writer.await.unwrap_or(Ok(()))
    }
}

/// The longest message a client may send on one line.
pub const MAX_LINE: usize = 4 << 20;

/// What [`next_line`] read.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A whole line, in the buffer without its newline.
    Complete,
    /// A line longer than [`MAX_LINE`], skipped to its end.
    TooLong,
}

/// Reads the next line into `line`, never holding more than [`MAX_LINE`]
/// bytes of it; `None` at the end of input.
async fn next_line<R: AsyncBufRead + Unpin>(
    input: &mut R,
    line: &mut Vec<u8>,
) -> io::Result<Option<Line>> {
    line.clear();
    let limit = MAX_LINE as u64 + 1;
    let read = (&mut *input).take(limit).read_until(b'\n', line).await?;
    if read == 0 {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        return Ok(Some(Line::Complete));
    }
    if line.len() <= MAX_LINE {
        // The last line of the input, without a newline.
        return Ok(Some(Line::Complete));
    }
    // Too long: skip the rest of it without keeping it.
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            break;
        }
        match available.iter().position(|b| *b == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                break;
            }
            None => {
                let all = available.len();
                input.consume(all);
            }
        }
    }
    line.clear();
    Ok(Some(Line::TooLong))
}

/// Tells a legacy session about list changes and the resources it subscribed to.
fn forward_changes(
    server: &Server,
    state: &Arc<State>,
    lines_out: &Lines,
) -> tokio::task::JoinHandle<()> {
    let mut feed = ChangeFeed::new(server, state.session.clone());
    let lines_out = lines_out.clone();
    tokio::spawn(async move {
        while let Some(notification) = feed.next().await {
            send(&lines_out, &notification);
        }
    })
}

/// What one stdio process remembers: its legacy session, its requests in
/// flight and its requests to the client.
struct State {
    session: Arc<Session>,
    in_flight: InFlight,
    outbound: Arc<Outbound>,
}

impl Default for State {
    fn default() -> Self {
        Self {
            session: Arc::new(Session::over("stdio")),
            in_flight: InFlight::default(),
            outbound: Arc::default(),
        }
    }
}

fn send<T: Serialize>(lines_out: &Lines, message: &T) {
    if let Ok(bytes) = serde_json::to_vec(message) {
        let _ = lines_out.send(bytes);
    }
}

/// The lines on their way to the output, with a count of those not written
/// yet (a listen stream waits while the client does not read) and of their
/// bytes, which may not pass a limit.
#[derive(Clone)]
struct Lines {
    sender: mpsc::UnboundedSender<Vec<u8>>,
    unwritten: Arc<AtomicUsize>,
    unwritten_bytes: Arc<AtomicUsize>,
    limit: usize,
    /// Cancelled when the limit was passed: the client stopped reading.
    overflow: CancellationToken,
    /// Cancelled at the end of input: the writer writes what is queued and ends.
    closing: CancellationToken,
}

impl Lines {
    /// Queues one line; `false` once the writer is gone or the output
    /// overflowed.
    fn send(&self, line: Vec<u8>) -> bool {
        if self.overflow.is_cancelled() {
            return false;
        }
        let size = line.len();
        let waiting = self.unwritten_bytes.fetch_add(size, Ordering::AcqRel);
        if waiting > 0 && waiting + size > self.limit {
            self.unwritten_bytes.fetch_sub(size, Ordering::AcqRel);
            tracing::warn!(
                target: "mcp_server::stdio",
                waiting_bytes = waiting,
                limit = self.limit,
                "the client stopped reading stdout; disconnecting"
            );
            self.overflow.cancel();
            return false;
        }
        self.unwritten.fetch_add(1, Ordering::AcqRel);
        let sent = self.sender.send(line).is_ok();
        if !sent {
            self.unwritten.fetch_sub(1, Ordering::AcqRel);
            self.unwritten_bytes.fetch_sub(size, Ordering::AcqRel);
        }
        sent
    }
}

/// Writes each message on its own line, in the order they are sent; at
/// most `limit` bytes wait.
fn spawn_writer(
    mut output: Box<dyn AsyncWrite + Unpin + Send>,
    limit: usize,
) -> (Lines, tokio::task::JoinHandle<io::Result<()>>) {
    let (sender, mut lines) = mpsc::unbounded_channel::<Vec<u8>>();
    let lines_out = Lines {
        sender,
        unwritten: Arc::default(),
        unwritten_bytes: Arc::default(),
        limit,
        overflow: CancellationToken::new(),
        closing: CancellationToken::new(),
    };
    let closing = lines_out.closing.clone();
    let (written, written_bytes) = (
        lines_out.unwritten.clone(),
        lines_out.unwritten_bytes.clone(),
    );
    let writer = tokio::spawn(async move {
        loop {
            let line = tokio::select! {
                biased;
                line = lines.recv() => line,
                // Closed, the channel hands over what it holds, then `None`.
                () = closing.cancelled() => {
                    lines.close();
                    lines.recv().await
                }
            };
            let Some(mut line) = line else { break };
            let size = line.len();
            line.push(b'\n');
            output.write_all(&line).await?;
            output.flush().await?;
            written.fetch_sub(1, Ordering::AcqRel);
            written_bytes.fetch_sub(size, Ordering::AcqRel);
        }
        Ok(())
    });
    (lines_out, writer)
}

/// Sends a request's notifications on the output, between responses.
struct LineSink {
    lines_out: Lines,
    cancellation: CancellationToken,
}

impl NotificationSink for LineSink {
    fn send(&self, notification: Notification) {
        // Nothing more goes out for a cancelled request.
        if !self.cancellation.is_cancelled() {
            send(&self.lines_out, &notification);
        }
    }

    fn backlog(&self) -> usize {
        self.lines_out.unwritten.load(Ordering::Acquire)
    }
}
