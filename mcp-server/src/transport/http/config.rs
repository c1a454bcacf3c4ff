//! What an HTTP endpoint allows: hosts and origins, sizes, times, counts.

use std::time::Duration;

use super::cors_policy::CorsPolicy;
use crate::context::DEFAULT_INPUT_TIMEOUT;

/// The smallest limit on a request head: HTTP/1.1 reads heads through a
/// buffer no smaller.
const MIN_HEADER_BYTES: usize = 8 << 10;

/// The limits and allow-lists of a Streamable HTTP endpoint.
///
/// The defaults suit a local server: only loopback hosts and origins,
/// 64 KiB of headers and 4 MiB bodies, each sent within 30 s, five minutes
/// per request, 256 requests at once, 200 streams per HTTP/2 connection
/// pinged after 30 s of silence (20 s to answer), 4 MiB unread per SSE
/// stream, 1,024 legacy sessions that expire after 30 idle minutes, and no
/// CORS.
///
/// ```
/// use std::time::Duration;
/// use mcp_server::transport::http::HttpConfig;
///
/// let config = HttpConfig::default()
///     .allow_host("mcp.example.com")
///     .allow_origin("https://app.example.com")
///     .max_body_bytes(1 << 20)
///     .request_timeout(Duration::from_secs(30));
/// assert_eq!(config.max_body(), 1 << 20);
/// ```
#[derive(Clone)]
pub struct HttpConfig {
    pub(crate) hosts: Vec<String>,
    pub(crate) origins: Vec<String>,
    pub(crate) loopback: bool,
    pub(crate) max_body: usize,
    pub(crate) max_header: usize,
    pub(crate) header_timeout: Duration,
    pub(crate) body_timeout: Duration,
    pub(crate) request_timeout: Duration,
    pub(crate) max_concurrent: usize,
    pub(crate) max_streams: usize,
    pub(crate) ping_interval: Option<Duration>,
    pub(crate) ping_timeout: Duration,
    pub(crate) session_idle: Duration,
    pub(crate) max_sessions: usize,
    pub(crate) input_timeout: Duration,
    pub(crate) retry: Duration,
    pub(crate) keep_alive: Duration,
    pub(crate) stream_backlog: usize,
    pub(crate) cors: CorsPolicy,
    pub(crate) liveness_path: Option<String>,
    pub(crate) readiness_path: Option<String>,
}

impl std::fmt::Debug for HttpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpConfig")
            .field("hosts", &self.hosts)
            .field("origins", &self.origins)
            .field("loopback", &self.loopback)
            .field("max_body", &self.max_body)
            .field("max_header", &self.max_header)
            .field("header_timeout", &self.header_timeout)
            .field("body_timeout", &self.body_timeout)
            .field("request_timeout", &self.request_timeout)
            .field("max_concurrent", &self.max_concurrent)
            .field("max_streams", &self.max_streams)
            .field("ping_interval", &self.ping_interval)
            .field("ping_timeout", &self.ping_timeout)
            .field("session_idle", &self.session_idle)
            .field("max_sessions", &self.max_sessions)
            .field("input_timeout", &self.input_timeout)
            .field("retry", &self.retry)
            .field("keep_alive", &self.keep_alive)
            .field("stream_backlog", &self.stream_backlog)
            .field("cors", &self.cors)
            .finish()
    }
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            hosts: Vec::new(),
            origins: Vec::new(),
            loopback: true,
            max_body: 4 << 20,
            max_header: 64 << 10,
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(30),
            request_timeout: Duration::from_secs(300),
            max_concurrent: 256,
            max_streams: 200,
            ping_interval: Some(Duration::from_secs(30)),
            ping_timeout: Duration::from_secs(20),
            session_idle: Duration::from_secs(30 * 60),
            max_sessions: 1024,
            input_timeout: DEFAULT_INPUT_TIMEOUT,
            retry: Duration::from_secs(1),
            keep_alive: Duration::from_secs(15),
            stream_backlog: 4 << 20,
            cors: CorsPolicy::default(),
            liveness_path: Some("/healthz".to_owned()),
            readiness_path: Some("/readyz".to_owned()),
        }
    }
}

impl HttpConfig {
    /// Also accepts requests whose `Host` is `host` (a name, with or without a port).
    #[must_use]
    pub fn allow_host(mut self, host: impl Into<String>) -> Self {
        self.hosts.push(host.into().to_ascii_lowercase());
        self
    }

    /// Also accepts requests whose `Origin` is `origin` (`scheme://host[:port]`).
    #[must_use]
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.origins.push(origin.into().to_ascii_lowercase());
        self
    }

    /// Accepts any `Host` and `Origin`: for a server behind a proxy that checks them.
    #[must_use]
    pub fn allow_any_host(mut self) -> Self {
        self.loopback = false;
        self.hosts = vec!["*".into()];
        self.origins = vec!["*".into()];
        self
    }

    /// The largest request body, in bytes; larger ones get `413`.
    #[must_use]
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body = bytes;
        self
    }

    /// The largest request body, in bytes.
    pub fn max_body(&self) -> usize {
        self.max_body
    }

    /// The largest request head (request line and headers), in bytes, at
    /// least 8 KiB; a larger one gets `431` and its connection is closed.
    ///
    /// Enforced by [`serve_on_with`](super::serve_on_with), which owns the
    /// connections; a router served otherwise has its server's limit.
    #[must_use]
    pub fn max_header_bytes(mut self, bytes: usize) -> Self {
        self.max_header = bytes.max(MIN_HEADER_BYTES);
        self
    }

    /// How long a client may take to send a request's headers, from when
    /// its connection opens or falls idle; a slower connection is closed.
    ///
    /// Enforced by [`serve_on_with`](super::serve_on_with), which owns the
    /// connections; a router served otherwise has its server's timeout.
    #[must_use]
    pub fn header_timeout(mut self, timeout: Duration) -> Self {
        self.header_timeout = timeout;
        self
    }

    /// How long a client may take to send a request's body once its
    /// headers are in; a slower one gets `408` and its connection is closed.
    #[must_use]
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// How long one request may run before it is cancelled and answered with an error.
    #[must_use]
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// How many requests may run at once; more get `503`.
    #[must_use]
    pub fn max_concurrent_requests(mut self, count: usize) -> Self {
        self.max_concurrent = count.max(1);
        self
    }

    /// How many streams one HTTP/2 connection may have open at once (200
    /// unless set, at least 1), advertised in its `SETTINGS`; the client
    /// waits for a stream to close before opening more, and a stream
    /// opened beyond it is refused with `REFUSED_STREAM`.
    ///
    /// A listen stream or a running request holds one. Enforced by
    /// [`serve_on_with`](super::serve_on_with), which owns the
    /// connections, when built with feature `http2`; a router served
    /// otherwise has its server's limit.
    #[must_use]
    pub fn max_streams_per_connection(mut self, count: usize) -> Self {
        self.max_streams = count.max(1);
        self
    }

    /// How long an HTTP/2 connection may stay silent before the server
    /// pings it (30 s unless set); `None` never pings.
    ///
    /// A peer that does not answer within
    /// [`http2_ping_timeout`](Self::http2_ping_timeout) has its connection
    /// closed, so a client that vanished without closing it (a crashed
    /// machine, a dropped network) stops holding its streams and
    /// listeners. A ping also keeps an idle connection open through NATs
    /// and proxies that drop silent ones. Enforced by
    /// [`serve_on_with`](super::serve_on_with), which owns the connections,
    /// when built with feature `http2`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_server::transport::http::HttpConfig;
    ///
    /// let config = HttpConfig::default()
    ///     .http2_ping_interval(Duration::from_secs(10))
    ///     .http2_ping_timeout(Duration::from_secs(5));
    /// let quiet = HttpConfig::default().http2_ping_interval(None);
    /// # let _ = (config, quiet);
    /// ```
    #[must_use]
    pub fn http2_ping_interval(mut self, every: impl Into<Option<Duration>>) -> Self {
        self.ping_interval = every.into();
        self
    }

    /// How long an HTTP/2 peer has to answer a ping (20 s unless set)
    /// before its connection is closed.
    #[must_use]
    pub fn http2_ping_timeout(mut self, timeout: Duration) -> Self {
        self.ping_timeout = timeout;
        self
    }

    /// How long a legacy session may stay idle before it expires.
    #[must_use]
    pub fn session_idle_timeout(mut self, idle: Duration) -> Self {
        self.session_idle = idle;
        self
    }

    /// How many legacy sessions may live at once; more `initialize`s get `503`.
    #[must_use]
    pub fn max_sessions(mut self, count: usize) -> Self {
        self.max_sessions = count.max(1);
        self
    }

    /// How long a handler waits for the client's answer to an input request.
    #[must_use]
    pub fn input_timeout(mut self, timeout: Duration) -> Self {
        self.input_timeout = timeout;
        self
    }

    /// How long a 2025-11-25 client should wait before reconnecting to a
    /// broken stream (the `retry:` of the priming event).
    #[must_use]
    pub fn sse_retry(mut self, retry: Duration) -> Self {
        self.retry = retry;
        self
    }

    /// The most bytes one SSE stream may hold that its client has not read
    /// (4 MiB unless set; one message alone may be larger). A client that
    /// stops reading while the server keeps sending passes it: the stream
    /// is closed with a log line, and the server's memory stays flat; a
    /// 2025-11-25 client may resume it with `Last-Event-ID`.
    ///
    /// ```
    /// use mcp_server::transport::http::HttpConfig;
    ///
    /// let config = HttpConfig::default().max_stream_backlog_bytes(1 << 20);
    /// # let _ = config;
    /// ```
    #[must_use]
    pub fn max_stream_backlog_bytes(mut self, bytes: usize) -> Self {
        self.stream_backlog = bytes;
        self
    }

    /// How often an idle standalone stream gets a keep-alive comment.
    #[must_use]
    pub fn keep_alive(mut self, every: Duration) -> Self {
        self.keep_alive = every.max(Duration::from_millis(1));
        self
    }

    /// Lets web pages from `origin` (`scheme://host[:port]`) call the
    /// endpoint from a browser (CORS); repeat it for more origins.
    ///
    /// Without it the endpoint sends no CORS headers at all. An allowed
    /// origin's preflight is answered `204`, granting the methods and the
    /// headers an MCP client sends (`Mcp-Param-*` included), and its
    /// responses expose `Mcp-Session-Id`, `Mcp-Protocol-Version` and
    /// `WWW-Authenticate`. The origin also passes the DNS-rebinding check
    /// (as with [`allow_origin`](Self::allow_origin)); `Host` is still
    /// checked.
    ///
    /// `*` allows every origin and is answered with a literal `*`. The
    /// endpoint never reads cookies and never sends
    /// `Access-Control-Allow-Credentials`, so a page gets no ambient
    /// credentials of the user's, only what it could send itself; but it
    /// runs on the user's machine, inside their network. Use `*` only for
    /// a server every client must reach with an `Authorization` token a
    /// foreign page does not have, never for a local server without one.
    ///
    /// ```
    /// use axum::body::Body;
    /// use axum::http::{Request, StatusCode};
    /// use mcp_server::transport::http::{HttpConfig, router};
    /// use tower::ServiceExt;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let config = HttpConfig::default().cors_allow_origin("https://app.example.com");
    /// let server = mcp_server::Server::builder().without_linked().build();
    /// let preflight = Request::options("/mcp")
    ///     .header("origin", "https://app.example.com")
    ///     .header("access-control-request-method", "POST")
    ///     .header("access-control-request-headers", "content-type, mcp-method")
    ///     .body(Body::empty())
    ///     .unwrap();
    /// let answer = router(server, "/mcp", config).oneshot(preflight).await.unwrap();
    /// assert_eq!(answer.status(), StatusCode::NO_CONTENT);
    /// assert_eq!(
    ///     answer.headers()["access-control-allow-origin"],
    ///     "https://app.example.com"
    /// );
    /// # }
    /// ```
    #[must_use]
    pub fn cors_allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.cors.allow(&origin.into());
        self
    }

    /// How long a browser may cache a granted preflight
    /// (`Access-Control-Max-Age`, in whole seconds); two hours by default.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_server::transport::http::HttpConfig;
    ///
    /// let config = HttpConfig::default()
    ///     .cors_allow_origin("https://app.example.com")
    ///     .cors_max_age(Duration::from_secs(600));
    /// # let _ = config;
    /// ```
    #[must_use]
    pub fn cors_max_age(mut self, max_age: Duration) -> Self {
        self.cors.set_max_age(max_age);
        self
    }
}

impl HttpConfig {
    /// Serves the liveness probe at `path` (`/healthz` by default): `200`
    /// while the process can serve, even while it drains.
    #[must_use]
    pub fn liveness_path(mut self, path: impl Into<String>) -> Self {
        self.liveness_path = Some(path.into());
        self
    }

    /// Serves the readiness probe at `path` (`/readyz` by default): `503`
    /// while the server drains or a readiness check fails.
    #[must_use]
    pub fn readiness_path(mut self, path: impl Into<String>) -> Self {
        self.readiness_path = Some(path.into());
        self
    }

    /// Serves neither probe.
    #[must_use]
    pub fn without_probes(mut self) -> Self {
        self.liveness_path = None;
        self.readiness_path = None;
        self
    }
}
