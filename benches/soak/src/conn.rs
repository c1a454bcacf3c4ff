//! One keep-alive HTTP/1.1 connection to the server, made with hyper's
//! connection-level client, so that each client owns exactly one socket.

use std::time::Duration;

use axum::body::{Body, Bytes};
use hyper::client::conn::http1::SendRequest;
use hyper::header::{CONTENT_TYPE, HOST, HeaderValue};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::task::JoinHandle;

/// How long one exchange may take, the answer read in full.
const EXCHANGE_TIMEOUT: Duration = Duration::from_secs(30);

/// The largest answer read.
const MAX_ANSWER: usize = 1 << 20;

/// An answer read in full.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: StatusCode,
    /// `Content-Type`, empty when absent.
    pub(crate) content_type: String,
    /// `Mcp-Session-Id`, when present.
    pub(crate) session: Option<String>,
    pub(crate) body: Bytes,
}

/// A connection: what sends requests on it, and the task that drives it
/// (aborted, closing the socket, when the connection is dropped).
#[derive(Debug)]
pub(crate) struct Connection {
    sender: SendRequest<Body>,
    driver: JoinHandle<()>,
    host: HeaderValue,
}

impl Connection {
    /// Connects to the server on loopback `port`, without Nagle's delay.
    pub(crate) async fn open(port: u16) -> Result<Self, String> {
        let tcp = TcpStream::connect(("127.0.0.1", port))
            .await
            .map_err(|e| format!("connect: {e}"))?;
        tcp.set_nodelay(true)
            .map_err(|e| format!("set_nodelay: {e}"))?;
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tcp))
            .await
            .map_err(|e| format!("handshake: {e}"))?;
        let driver = tokio::spawn(async move {
            let _ = connection.await;
        });
        let host = HeaderValue::from_str(&format!("127.0.0.1:{port}"))
            .map_err(|e| format!("host header: {e}"))?;
        Ok(Self {
            sender,
            driver,
            host,
        })
    }

    /// Sends `request` (its `Host` filled in) and reads the whole answer.
    pub(crate) async fn send(&mut self, mut request: Request<Body>) -> Result<Reply, String> {
        request.headers_mut().insert(HOST, self.host.clone());
        tokio::time::timeout(EXCHANGE_TIMEOUT, self.exchange(request))
            .await
            .map_err(|_| format!("no answer within {} s", EXCHANGE_TIMEOUT.as_secs()))?
    }

    async fn exchange(&mut self, request: Request<Body>) -> Result<Reply, String> {
        self.sender
            .ready()
            .await
            .map_err(|e| format!("connection: {e}"))?;
        let response = self
            .sender
            .send_request(request)
            .await
            .map_err(|e| format!("request: {e}"))?;
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let status = response.status();
        let content_type = header(CONTENT_TYPE.as_str()).unwrap_or_default();
        let session = header("mcp-session-id");
        let body = axum::body::to_bytes(Body::new(response.into_body()), MAX_ANSWER)
            .await
            .map_err(|e| format!("reading the answer: {e}"))?;
        Ok(Reply {
            status,
            content_type,
            session,
            body,
        })
    }

    /// Whether the connection is still open (the server has not closed it).
    pub(crate) fn is_open(&self) -> bool {
        !self.sender.is_closed()
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.driver.abort();
    }
}
