//! Streamable HTTP: one endpoint that serves 2026-07-28 clients statelessly
//! and 2025-11-25 clients in sessions, side by side.
//!
//! [`router`] returns an [`axum::Router`] to mount inside an application
//! (with its own tower layers); [`serve`] binds and serves it at `/mcp`.
//!
//! - **2026-07-28.** Every `POST` stands alone: the version and client
//!   capabilities come from the request's `params._meta`, checked against
//!   `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`. A mismatch is
//!   `400` with `-32020`, an unsupported version `400` with `-32022`,
//!   missing `_meta` keys `400` with `-32602`, a missing client capability
//!   `400` with `-32021`, an unknown method `404` with `-32601`. Closing the
//!   response stream cancels the request.
//! - **2025-11-25.** `initialize` mints an `Mcp-Session-Id`; the session
//!   answers `ping`, `logging/setLevel` and `resources/subscribe`, carries
//!   requests to the client on the `POST` stream of the call that makes
//!   them, streams list changes and resource updates on `GET`, resumes a
//!   broken stream from `Last-Event-ID`, and ends with `DELETE` or after
//!   idling.
//! - **Both.** A response is plain JSON unless something must reach the
//!   client first (progress, a log message, a request), then SSE.
//!   `Host` and `Origin` must be loopback or allowed (else `403`), a `POST`
//!   must accept JSON or a stream (else `406`) and send JSON (else `415`),
//!   a `GET` must accept a stream (else `406`);
//!   heads, bodies, the time to send them, running time and concurrent
//!   requests are bounded ([`HttpConfig`]).
//!   Browser pages of the origins
//!   [`cors_allow_origin`](HttpConfig::cors_allow_origin) names may call
//!   the endpoint across origins (CORS, off by default).
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let server = mcp_server::Server::builder().build();
//! mcp_server::transport::http::serve(server, "127.0.0.1:8080".parse().unwrap()).await
//! # }
//! ```

mod accept;
mod admission;
mod auth;
mod config;
mod connection;
mod cors;
mod cors_policy;
mod deadline;
mod documents;
mod drain;
mod endpoint;
mod frames;
mod headers;
mod intercept;
mod journal;
mod outlet;
mod post;
mod rebinding;
mod response;
mod route;
mod session;
mod sse;
mod stream;
mod work;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::middleware::from_fn_with_state;
use axum::routing::post as route_post;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

pub use config::HttpConfig;
pub use documents::Document;
pub use intercept::{HttpInbound, HttpInterceptor, HttpInterceptors};
pub use route::{Route, Routes};

use crate::Server;
use crate::seam::contributor::health::Probe;
use endpoint::Endpoint;
use session::Sessions;

/// The endpoint as a router with one route, `path`, for `POST`, `GET`,
/// `DELETE` and `OPTIONS`, beside every linked [`Route`] and [`Document`];
/// the linked [`HttpInterceptor`]s run on each request to the endpoint.
///
/// ```
/// use mcp_server::transport::http::{HttpConfig, router};
///
/// let server = mcp_server::Server::builder().without_linked().build();
/// let app: axum::Router = axum::Router::new()
///     .merge(router(server, "/mcp", HttpConfig::default()))
///     .route("/health", axum::routing::get(|| async { "ok" }));
/// # let _ = app;
/// ```
///
/// # Panics
///
/// When a linked route has the endpoint's own path, with the rendered
/// [`RouteConflict`]: [`try_router`] returns it instead.
pub fn router(server: Server, path: &str, config: HttpConfig) -> Router {
    match try_router(server, path, config) {
        Ok(router) => router,
        Err(conflict) => panic!("{conflict}"),
    }
}

/// The endpoint as [`router`] makes it, or the conflict that keeps a linked
/// route from being mounted.
///
/// ```
/// use mcp_server::seam::Item;
/// use mcp_server::transport::http::{Document, HttpConfig, try_router};
///
/// let card = Document::new("/mcp", "application/json", "{}").unwrap();
/// let server = mcp_server::Server::builder()
///     .without_linked()
///     .register(mcp_server::origin!(), "card", 0, Item::route(card))
///     .build();
/// let conflict = try_router(server, "/mcp", HttpConfig::default()).unwrap_err();
/// assert!(conflict.to_string().contains("the HTTP route `/mcp` (`card`"));
/// ```
///
/// # Errors
///
/// When a linked route has the endpoint's own path.
pub fn try_router(server: Server, path: &str, config: HttpConfig) -> Result<Router, RouteConflict> {
    let taken = |p: &str| {
        p == path
            || config.liveness_path.as_deref() == Some(p)
            || config.readiness_path.as_deref() == Some(p)
    };
    if let Some(route) = server.members::<Routes>().iter().find(|r| taken(r.path())) {
        let kind = <Routes as crate::seam::Kind>::describe(route);
        let registered = server
            .report()
            .members
            .iter()
            .find(|m| m.kind == kind)
            .map(|m| format!("`{}` ({})", m.name, m.origin))
            .unwrap_or_default();
        return Err(RouteConflict {
            path: route.path().to_owned(),
            registered,
        });
    }
    let endpoint = Arc::new(Endpoint {
        sessions: Sessions::new(
            config.session_idle,
            config.max_sessions,
            server.event_store().clone(),
            server.session_store(),
            server.shutdown().clone(),
        ),
        running: Arc::new(Semaphore::new(config.max_concurrent)),
        server,
        config,
    });
    let mut route = route_post(post::post)
        .get(stream::get)
        .delete(stream::delete)
        .options(cors::options);
    if !endpoint.server.members::<HttpInterceptors>().is_empty() {
        route = route.layer(from_fn_with_state(endpoint.clone(), intercept::intercept));
    }
    if endpoint.config.cors.is_on() {
        route = route.layer(from_fn_with_state(endpoint.clone(), cors::grant));
    }
    let mut router = Router::new()
        .route(path, route)
        .with_state(endpoint.clone());
    drain::watch(&endpoint);
    for (probe_path, probe) in [
        (&endpoint.config.liveness_path, Probe::Liveness),
        (&endpoint.config.readiness_path, Probe::Readiness),
    ] {
        if let Some(probe_path) = probe_path {
            let server = endpoint.server.clone();
            router = router.route(
                probe_path,
                axum::routing::get(move || drain::probe(server.clone(), probe)),
            );
        }
    }
    for linked in endpoint.server.members::<Routes>() {
        router = match &linked.serve {
            route::Serve::Document(document) => {
                let served = document.clone();
                router.route(
                    linked.path(),
                    axum::routing::get(move || std::future::ready(served.response())),
                )
            }
            route::Serve::Methods(methods) => router.route(linked.path(), methods.clone()),
        };
    }
    Ok(router)
}

/// A linked route [`try_router`] cannot mount: it has the endpoint's path.
#[derive(Debug, Clone)]
pub struct RouteConflict {
    /// The path both claim.
    pub path: String,
    /// The route's registration, by name and origin.
    pub registered: String,
}

impl std::fmt::Display for RouteConflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "error[mcp::route_at_endpoint]: the HTTP route `{}` ({}) has the path of the MCP endpoint or a probe\n  \
             = note: `transport::http::router` mounts the endpoint and the probes (`/healthz`, `/readyz` unless configured)\n  \
             = help: serve the route at another path, or mount the endpoint or probes elsewhere",
            self.path, self.registered
        )
    }
}

impl std::error::Error for RouteConflict {}

/// Serves `server` at `http://<addr>/mcp` with the default limits until the
/// process ends.
///
/// # Errors
///
/// When the address cannot be bound.
pub async fn serve(server: Server, addr: SocketAddr) -> std::io::Result<()> {
    serve_on(bind(addr)?, router(server, "/mcp", HttpConfig::default())).await
}

/// Binds `addr` with room for 4,096 connections waiting to be accepted (the
/// operating system may cap it lower): a burst of clients reconnecting
/// their listen streams is not dropped and made to retry a second later.
///
/// # Errors
///
/// When the address cannot be bound.
pub fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = match addr {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(4096)
}

/// Serves a router on a bound listener, over HTTP/1.1 and, with feature
/// `http2`, HTTP/2 (cleartext with prior knowledge), with `TCP_NODELAY` on
/// every connection (small
/// JSON-RPC answers must not wait for Nagle), and the default connection
/// limits of [`HttpConfig`].
///
/// # Errors
///
/// When accepting connections fails for good.
pub async fn serve_on(listener: TcpListener, app: Router) -> std::io::Result<()> {
    serve_on_with(listener, app, &HttpConfig::default()).await
}

/// Serves a router on a bound listener as [`serve_on`] does, with the
/// connection limits of `config`: a request head larger than
/// [`max_header_bytes`](HttpConfig::max_header_bytes) gets `431`, a
/// connection whose next request head takes longer than
/// [`header_timeout`](HttpConfig::header_timeout) to arrive (an idle one
/// included) is closed, and (with feature `http2`) an HTTP/2 connection holds at most
/// [`max_streams_per_connection`](HttpConfig::max_streams_per_connection)
/// streams at once, and one whose peer leaves a ping unanswered
/// ([`http2_ping_interval`](HttpConfig::http2_ping_interval)) is closed.
///
/// ```no_run
/// use std::time::Duration;
/// use mcp_server::transport::http::{HttpConfig, bind, router, serve_on_with};
///
/// # async fn run() -> std::io::Result<()> {
/// let config = HttpConfig::default().header_timeout(Duration::from_secs(10));
/// let server = mcp_server::Server::builder().build();
/// let app = router(server, "/mcp", config.clone());
/// serve_on_with(bind("127.0.0.1:8080".parse().unwrap())?, app, &config).await
/// # }
/// ```
///
/// # Errors
///
/// When accepting connections fails for good.
pub async fn serve_on_with(
    listener: TcpListener,
    app: Router,
    config: &HttpConfig,
) -> std::io::Result<()> {
    serve_draining(listener, app, config, None)
        .await
        .map(|_| ())
}

/// Serves a router on a bound listener as [`serve_on_with`] does, until
/// `shutdown` drains: once it begins, open connections finish what they
/// serve and close, the endpoint answers new work `503` (the server's
/// [`Shutdown`](crate::server::Shutdown), as [`router`] reads it), and the
/// listener keeps accepting (so probes are answered) until nothing is held
/// or the drain's deadline passes. Then it stops accepting, gives open
/// connections up to a second to finish writing, and returns how the
/// drain ended.
///
/// ```no_run
/// use mcp_server::transport::http::{HttpConfig, bind, router, serve_until_drained};
///
/// # async fn run() -> std::io::Result<()> {
/// let server = mcp_server::Server::builder().build();
/// let shutdown = server.shutdown().clone();
/// shutdown.on_signals()?; // SIGTERM or SIGINT begins the drain; a second ends it
/// let config = HttpConfig::default();
/// let app = router(server, "/mcp", config.clone());
/// let drained = serve_until_drained(bind("127.0.0.1:8080".parse().unwrap())?, app, &config, &shutdown).await?;
/// eprintln!("drained; {} requests cut", drained.cut);
/// # Ok(())
/// # }
/// ```
///
/// # Errors
///
/// When accepting connections fails for good.
pub async fn serve_until_drained(
    listener: TcpListener,
    app: Router,
    config: &HttpConfig,
    shutdown: &crate::server::Shutdown,
) -> std::io::Result<crate::server::Drained> {
    serve_draining(listener, app, config, Some(shutdown)).await
}

async fn serve_draining(
    listener: TcpListener,
    app: Router,
    config: &HttpConfig,
    shutdown: Option<&crate::server::Shutdown>,
) -> std::io::Result<crate::server::Drained> {
    use axum::serve::{Listener, ListenerExt};
    let mut listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let builder = connection::builder(config);
    let connections = Arc::new(connection::Connections::default());
    // Once the drain begins, open connections are asked to finish; the
    // loop below ends when the drain does.
    let drained = async {
        let Some(shutdown) = shutdown else {
            return std::future::pending().await;
        };
        let finishing = async {
            shutdown.draining().await;
            connections.draining.cancel();
        };
        tokio::join!(shutdown.drained(), finishing).0
    };
    tokio::pin!(drained);
    let drained = loop {
        tokio::select! {
            biased;
            drained = &mut drained => break drained,
            // Failures to accept are retried by the listener itself.
            (tcp, _) = listener.accept() => {
                connection::spawn(&builder, tcp, app.clone(), config.header_timeout, &connections);
            }
        }
    };
    // Connections already waiting to be accepted are served (their
    // requests refused with `503`), not reset when the listener closes:
    // it closes once none arrived for a moment, or after the grace.
    let quiet = std::time::Duration::from_millis(20);
    let last = tokio::time::Instant::now() + std::time::Duration::from_secs(1);
    while let Ok((tcp, _)) = tokio::time::timeout_at(
        last.min(tokio::time::Instant::now() + quiet),
        listener.accept(),
    )
    .await
    {
        connection::spawn(
            &builder,
            tcp,
            app.clone(),
            config.header_timeout,
            &connections,
        );
    }
    drop(listener);
    connections.draining.cancel();
    let grace = tokio::time::sleep(std::time::Duration::from_secs(1));
    tokio::select! {
        () = connections.all_closed() => {}
        () = grace => {}
    }
    Ok(drained)
}
