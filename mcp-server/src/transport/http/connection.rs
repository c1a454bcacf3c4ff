//! How [`serve_on_with`](super::serve_on_with) serves one connection:
//! HTTP/1.1, or (with feature `http2`) HTTP/1.1 or HTTP/2 with prior
//! knowledge, request heads bounded in size and in the time they take to
//! arrive, HTTP/2 streams bounded in number and silent HTTP/2 peers pinged.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Sleep;

use super::HttpConfig;

/// The length of the HTTP/2 connection preface: how much a connection must
/// send before it is known to speak HTTP/2 or HTTP/1.1.
const PREFACE: usize = 24;

/// Applies the HTTP/1.1 settings of `config` to either kind of builder.
macro_rules! http1 {
    ($http1:expr, $config:expr) => {
        $http1
            .timer(TokioTimer::new())
            .header_read_timeout($config.header_timeout)
            // HTTP/1.1 reads a head through this buffer, and a head that fills it
            // is a 431; one read may fill it past its size, so this bound is
            // not exact (hyper's own `max_header_size` is).
            .max_buf_size($config.max_header)
    };
}

/// What serves one connection, with the settings of [`builder`].
#[cfg(feature = "http2")]
pub(crate) type Builder = hyper_util::server::conn::auto::Builder<hyper_util::rt::TokioExecutor>;
/// What serves one connection, with the settings of [`builder`].
#[cfg(not(feature = "http2"))]
pub(crate) type Builder = hyper::server::conn::http1::Builder;

/// The HTTP server settings every connection gets from `config`.
#[cfg(feature = "http2")]
pub(crate) fn builder(config: &HttpConfig) -> Builder {
    let mut builder = Builder::new(hyper_util::rt::TokioExecutor::new());
    http1!(builder.http1(), config);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(u32::try_from(config.max_header).unwrap_or(u32::MAX))
        .max_concurrent_streams(u32::try_from(config.max_streams).unwrap_or(u32::MAX))
        // A peer that leaves a ping unanswered is gone: its connection closes.
        .keep_alive_interval(config.ping_interval)
        .keep_alive_timeout(config.ping_timeout)
        // As `axum::serve` does: HTTP/2 WebSockets of a merged router.
        .enable_connect_protocol();
    builder
}

/// The HTTP server settings every connection gets from `config`.
#[cfg(not(feature = "http2"))]
pub(crate) fn builder(config: &HttpConfig) -> Builder {
    let mut builder = Builder::new();
    http1!(builder, config)
        // Exact, where the buffer's bound is not (a read may fill it past
        // its size): a head larger than this is a 431, however it arrived.
        .max_header_size(config.max_header);
    builder
}

/// The connections one listener serves: how many are open, and the token
/// that asks them to finish gracefully.
#[derive(Default)]
pub(crate) struct Connections {
    open: tokio_util::task::TaskTracker,
    pub(crate) draining: tokio_util::sync::CancellationToken,
}

impl Connections {
    /// Waits until no connection is open.
    pub(crate) async fn all_closed(&self) {
        self.open.close();
        self.open.wait().await;
    }
}

/// Serves `app` on one accepted connection, in a task of its own. When
/// `connections` start draining, an open connection finishes what it
/// serves and closes (HTTP/2: `GOAWAY`); one accepted during the drain is
/// served (probes must still be answered), and its answers close it.
pub(crate) fn spawn(
    builder: &Builder,
    tcp: TcpStream,
    app: Router,
    within: Duration,
    connections: &std::sync::Arc<Connections>,
) {
    let builder = builder.clone();
    let io = TokioIo::new(Opening::new(tcp, within));
    let service = TowerToHyperService::new(app);
    let connections = connections.clone();
    connections.open.clone().spawn(async move {
        let opened_draining = connections.draining.is_cancelled();
        #[cfg(feature = "http2")]
        let connection = builder.serve_connection_with_upgrades(io, service);
        #[cfg(not(feature = "http2"))]
        let connection = builder.serve_connection(io, service).with_upgrades();
        tokio::pin!(connection);
        // A connection that breaks or times out ends alone.
        tokio::select! {
            _ = connection.as_mut() => {}
            () = connections.draining.cancelled(), if !opened_draining => {
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            }
        }
    });
}

/// A connection whose first [`PREFACE`] bytes must arrive in time. With
/// `http2`, hyper reads them to tell HTTP/2 from HTTP/1.1 before its own
/// header timeout starts, so a client that sends nothing, or a few bytes,
/// would otherwise hold the connection forever; HTTP/1.1 alone times the
/// head from the start, and the same bound holds for both.
struct Opening<I> {
    io: I,
    /// How many of the first bytes have yet to arrive.
    awaited: usize,
    /// Until they have; `None` after.
    deadline: Option<Pin<Box<Sleep>>>,
}

impl<I> Opening<I> {
    fn new(io: I, within: Duration) -> Self {
        Self {
            io,
            awaited: PREFACE,
            deadline: Some(Box::pin(tokio::time::sleep(within))),
        }
    }

    /// Counts `read` bytes in; the deadline ends with the first bytes or
    /// the end of input.
    fn arrived(&mut self, read: usize) {
        self.awaited = self.awaited.saturating_sub(read);
        if self.awaited == 0 || read == 0 {
            self.deadline = None;
        }
    }

    /// Whether the first bytes are overdue (registering for the deadline
    /// while they are not).
    fn overdue(&mut self, cx: &mut Context<'_>) -> bool {
        self.deadline
            .as_mut()
            .is_some_and(|deadline| deadline.as_mut().poll(cx).is_ready())
    }
}

impl<I: AsyncRead + Unpin> AsyncRead for Opening<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                this.arrived(buf.filled().len() - before);
                Poll::Ready(Ok(()))
            }
            Poll::Pending if this.overdue(cx) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the request did not start in time",
            ))),
            other => other,
        }
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Opening<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}
