//! A transport written as a third party would write one: newline-delimited
//! JSON-RPC over TCP, one session per connection, on the public transport
//! interface of `mcp-server` and nothing else (`mcp_server::transport`).
//!
//! It serves both eras as stdio does: a 2026-07-28 request stands alone, a
//! 2025-11-25 client's `initialize` makes the connection a legacy session
//! that hears of list changes and answers the server's questions, and
//! `notifications/cancelled` cancels the request it names.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let server = mcp_server::Server::builder().build();
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:7000").await?;
//! acme_transport::listen(server, listener).await
//! # }
//! ```

use std::io;
use std::sync::Arc;
use std::time::Duration;

use mcp_server::Server;
use mcp_server::core::jsonrpc::{Message, Notification, Request};
use mcp_server::transport::{
    ChangeFeed, ClientRequester, InFlight, NotificationSink, Outbound, Peer, Requester, Session,
    decode, encode_error,
};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc::{self, UnboundedSender};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

/// The transport's name, as a session says which transport keeps it.
pub const TRANSPORT: &str = "acme-tcp";

/// How long a tool waits for the client's answer to its question.
const INPUT_TIMEOUT: Duration = Duration::from_secs(30);

/// Serves every connection `listener` accepts, each in a task of its own,
/// until accepting fails.
///
/// # Errors
///
/// When accepting a connection fails.
pub async fn listen(server: Server, listener: TcpListener) -> io::Result<()> {
    loop {
        let (stream, _) = listener.accept().await?;
        let server = server.clone();
        tokio::spawn(async move { serve(server, stream).await });
    }
}

/// Serves one TCP connection until its client closes its side.
///
/// # Errors
///
/// An I/O error reading or writing the connection.
pub async fn serve(server: Server, stream: TcpStream) -> io::Result<()> {
    let (input, output) = stream.into_split();
    serve_lines(server, input, output).await
}

/// Serves one client on a pair of byte streams, one JSON-RPC message per
/// line, until `input` ends.
///
/// # Errors
///
/// An I/O error reading `input` or writing `output`.
pub async fn serve_lines<R, W>(server: Server, input: R, output: W) -> io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let closing = CancellationToken::new();
    let (lines, writer) = spawn_writer(output, closing.clone());
    let connection = Connection {
        server,
        session: Arc::new(Session::over(TRANSPORT)),
        in_flight: Arc::new(InFlight::default()),
        outbound: Arc::new(Outbound::default()),
        lines,
    };
    let changes = connection.forward_changes();
    let mut requests = JoinSet::new();
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).await? == 0 {
            break;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match decode(&line) {
            Err(error) => connection.send(encode_error(error.id, error.error)),
            Ok(Message::Notification(notification)) => connection.heard(&notification).await,
            Ok(Message::Response(response)) => {
                connection.outbound.settle(response);
            }
            // `initialize` decides the era of the lines after it: answered
            // before the next line is read.
            Ok(Message::Request(request)) if request.method == "initialize" => {
                connection.clone().answer(request).await;
            }
            Ok(Message::Request(request)) => {
                requests.spawn(connection.clone().answer(request));
            }
        }
        while requests.try_join_next().is_some() {}
    }
    // The client is gone, and so is every request it made and every
    // question asked of it.
    connection.in_flight.cancel_all();
    connection.outbound.close();
    requests.shutdown().await;
    changes.abort();
    connection.session.close();
    // Work that outlives its request (a task) may still hold the output:
    // the writer writes what is queued and ends.
    closing.cancel();
    drop(connection);
    writer.await.unwrap_or(Ok(()))
}

/// One client's connection: its legacy session, its requests in flight,
/// the server's questions waiting for it, and the lines on their way out.
#[derive(Clone)]
struct Connection {
    server: Server,
    session: Arc<Session>,
    in_flight: Arc<InFlight>,
    outbound: Arc<Outbound>,
    lines: UnboundedSender<Vec<u8>>,
}

impl Connection {
    /// Queues one line for the client.
    fn send(&self, line: Vec<u8>) {
        let _ = self.lines.send(line);
    }

    /// A client notification: acted on (a cancellation) once admitted.
    async fn heard(&self, notification: &Notification) {
        let peer = Peer::on(self.session.clone());
        if self.server.admit_notification(notification, &peer).await {
            self.in_flight.notify(notification);
        }
    }

    /// Admits and serves one request, and sends its response unless the
    /// client cancelled it.
    async fn answer(self, request: Request) {
        let id = request.id.clone();
        let cancellation = CancellationToken::new();
        self.in_flight.start(id.clone(), cancellation.clone());
        let lines = self.lines.clone();
        let requester: Arc<dyn ClientRequester> = Arc::new(Requester {
            outbound: self.outbound.clone(),
            send: move |bytes| lines.send(bytes).is_ok(),
        });
        let peer = Peer::on(self.session.clone())
            .with_notifications(Arc::new(Lines {
                lines: self.lines.clone(),
                cancellation: cancellation.clone(),
            }))
            .with_cancellation(cancellation)
            .with_requester(Some(requester), INPUT_TIMEOUT);
        let response = match self.server.admit(request, &peer, None).await {
            Ok(admitted) => self.server.serve(admitted).await.encode(),
            Err(refusal) => refusal.into_outcome().encode(),
        };
        // A cancelled request is answered with nothing at all.
        if self.in_flight.stop(&id) {
            self.send(response);
        }
    }

    /// Tells the legacy session of the changes it hears of.
    fn forward_changes(&self) -> tokio::task::JoinHandle<()> {
        let mut feed = ChangeFeed::new(&self.server, self.session.clone());
        let lines = self.lines.clone();
        tokio::spawn(async move {
            while let Some(notification) = feed.next().await {
                if let Ok(line) = serde_json::to_vec(&notification) {
                    let _ = lines.send(line);
                }
            }
        })
    }
}

/// Sends one request's notifications on the connection, until it is
/// cancelled.
struct Lines {
    lines: UnboundedSender<Vec<u8>>,
    cancellation: CancellationToken,
}

impl NotificationSink for Lines {
    fn send(&self, notification: Notification) {
        if self.cancellation.is_cancelled() {
            return;
        }
        if let Ok(line) = serde_json::to_vec(&notification) {
            let _ = self.lines.send(line);
        }
    }
}

/// Writes each queued line, in order, until every sender is gone or
/// `closing` fires, then what is queued still.
fn spawn_writer<W>(
    mut output: W,
    closing: CancellationToken,
) -> (
    UnboundedSender<Vec<u8>>,
    tokio::task::JoinHandle<io::Result<()>>,
)
where
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (sender, mut lines) = mpsc::unbounded_channel::<Vec<u8>>();
    let writer = tokio::spawn(async move {
        loop {
            let line = tokio::select! {
                biased;
                line = lines.recv() => line,
                () = closing.cancelled() => {
                    lines.close();
                    lines.recv().await
                }
            };
            let Some(mut line) = line else { break };
            line.push(b'\n');
            output.write_all(&line).await?;
            output.flush().await?;
        }
        Ok(())
    });
    (sender, writer)
}
