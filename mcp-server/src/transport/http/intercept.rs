//! HTTP interceptors: code any crate runs on each HTTP request to the
//! endpoint before its message is read, and on each response's head before
//! its body leaves.
//!
//! **Experimental**: the seam may change before 1.0. Members run in their
//! registration order (then name, then origin), outermost first: `before`
//! in that order, `after` in reverse. They run inside the CORS layer (a
//! refusal still carries the CORS headers a browser needs) and outside
//! everything else: before the `Host`, `Accept` and size checks, the
//! principal source, the body's parsing and dispatch. They do not run on
//! `OPTIONS`, which the CORS policy answers, nor on routes and documents,
//! which are public by design. With no member, no layer is added.
//!
//! ```
//! use mcp_server::BoxFuture;
//! use mcp_server::seam::Item;
//! use mcp_server::transport::http::{HttpInbound, HttpInterceptor};
//! use axum::response::{IntoResponse, Response};
//!
//! /// Refuses `tools/call` of `drop_table` unless the operator header is set,
//! /// from the headers alone, and tells handlers who the operator is.
//! struct Operators;
//!
//! #[derive(Clone)]
//! struct Operator(String);
//!
//! impl HttpInterceptor for Operators {
//!     fn before<'a>(&'a self, request: &'a mut HttpInbound) -> BoxFuture<'a, Result<(), Response>> {
//!         Box::pin(async move {
//!             let operator = request.headers().get("x-operator").and_then(|v| v.to_str().ok());
//!             match (request.mcp_name(), operator) {
//!                 (Some("drop_table"), None) => {
//!                     Err((axum::http::StatusCode::FORBIDDEN, "operators only").into_response())
//!                 }
//!                 (_, Some(operator)) => {
//!                     let operator = Operator(operator.to_owned());
//!                     request.attach(operator);
//!                     Ok(())
//!                 }
//!                 _ => Ok(()),
//!             }
//!         })
//!     }
//! }
//!
//! let item = Item::http_interceptor(Operators);
//! # let _ = item;
//! ```

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, Uri, response};
use axum::middleware::Next;
use axum::response::Response;

use super::endpoint::Endpoint;
use super::headers;
use crate::BoxFuture;
use crate::RequestContext;
use crate::seam::{Item, Kind, SeamWord};
use crate::transport::Peer;

/// Code run on each HTTP request to the endpoint before its message is
/// read, able to answer it itself with any response, and on the head of
/// each response before its body is sent.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an HTTP interceptor",
    note = "implement `mcp_server::transport::http::HttpInterceptor` and register it with `Item::http_interceptor`"
)]
pub trait HttpInterceptor: Send + Sync + 'static {
    /// Runs on `request` before its body is read: `Err(response)` answers
    /// the request with `response` (any status, headers and body), and
    /// nothing inside runs. It may rewrite the headers, and attach values
    /// the request's handlers and interceptors read.
    fn before<'a>(&'a self, request: &'a mut HttpInbound) -> BoxFuture<'a, Result<(), Response>>;

    /// Runs on the head of the response, before its body is sent: a
    /// streamed body is never waited for. Runs for every member whose
    /// `before` let the request through, innermost first. Does nothing
    /// unless overridden.
    fn after(&self, head: &mut response::Parts) {
        let _ = head;
    }
}

/// An HTTP request to the endpoint as its interceptors see it: the head,
/// never the body.
pub struct HttpInbound {
    parts: Parts,
    attached: Vec<Attach>,
}

type Attach = Arc<dyn Fn(&RequestContext) + Send + Sync>;

impl fmt::Debug for HttpInbound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpInbound")
            .field("method", &self.parts.method)
            .field("uri", &self.parts.uri)
            .finish_non_exhaustive()
    }
}

impl HttpInbound {
    /// The HTTP method.
    pub fn method(&self) -> &Method {
        &self.parts.method
    }

    /// The request's URI.
    pub fn uri(&self) -> &Uri {
        &self.parts.uri
    }

    /// The path of the URI.
    pub fn path(&self) -> &str {
        self.parts.uri.path()
    }

    /// The headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.parts.headers
    }

    /// The headers, to rewrite before anything inside reads them.
    pub fn headers_mut(&mut self) -> &mut HeaderMap {
        &mut self.parts.headers
    }

    /// The `Mcp-Method` header a 2026-07-28 client sends, when present and
    /// text. The transport checks it against the body later; a request
    /// whose header and body disagree is refused then.
    pub fn mcp_method(&self) -> Option<&str> {
        self.header(&headers::METHOD)
    }

    /// The `Mcp-Name` header (the tool, prompt or resource a 2026-07-28
    /// request names), when present and text; checked as `Mcp-Method` is.
    pub fn mcp_name(&self) -> Option<&str> {
        self.header(&headers::NAME)
    }

    fn header(&self, name: &axum::http::HeaderName) -> Option<&str> {
        self.parts.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Puts `value` on the request context of the message this request
    /// carries, for its interceptors and handler to read with
    /// [`RequestContext::get`]; a later value of one type replaces an
    /// earlier one.
    pub fn attach<T: Any + Send + Sync + Clone>(&mut self, value: T) {
        self.attached.push(Arc::new(move |ctx: &RequestContext| {
            ctx.insert(value.clone())
        }));
    }
}

/// What a request's HTTP interceptors attached, carried in its extensions
/// to the peer of its message.
#[derive(Clone)]
pub(crate) struct Attached(Arc<[Attach]>);

impl Attached {
    /// What the interceptors of the request of `parts` attached, if anything.
    pub(crate) fn of(parts: &Parts) -> Option<Self> {
        parts.extensions.get::<Self>().cloned()
    }

    /// `peer`, seeded with what `attached` holds.
    pub(crate) fn seed(attached: Option<&Self>, peer: Peer) -> Peer {
        match attached {
            Some(Attached(values)) => {
                let values = values.clone();
                peer.with_seed(move |ctx| values.iter().for_each(|attach| attach(ctx)))
            }
            None => peer,
        }
    }
}

/// The registration kind of HTTP interceptors: every one runs, in order.
#[derive(Debug)]
pub struct HttpInterceptors;

impl Kind for HttpInterceptors {
    type Member = Arc<dyn HttpInterceptor>;
    const NAME: &'static str = "HTTP interceptor";
    const EXPERIMENTAL: bool = true;
    const CODE: &'static str = "mcp::duplicate_http_interceptor";
    const WORD: SeamWord = SeamWord::Interceptor;
    const UNIQUE: bool = false;
    fn key(_: &Self::Member) -> String {
        String::new()
    }
}

impl Item {
    /// An HTTP interceptor ([`HttpInterceptors`]).
    pub fn http_interceptor(interceptor: impl HttpInterceptor) -> Self {
        Self::member::<HttpInterceptors>(Arc::new(interceptor))
    }
}

/// The layer that runs the endpoint's HTTP interceptors around `request`.
pub(crate) async fn intercept(
    State(endpoint): State<Arc<Endpoint>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() == Method::OPTIONS {
        return next.run(request).await;
    }
    let members = endpoint.server.members::<HttpInterceptors>();
    let (parts, body) = request.into_parts();
    let mut inbound = HttpInbound {
        parts,
        attached: Vec::new(),
    };
    let mut passed = 0;
    let mut refusal = None;
    for member in members {
        match member.before(&mut inbound).await {
            Ok(()) => passed += 1,
            Err(response) => {
                refusal = Some(response);
                break;
            }
        }
    }
    let response = match refusal {
        Some(response) => response,
        None => {
            let HttpInbound {
                mut parts,
                attached,
            } = inbound;
            if !attached.is_empty() {
                parts.extensions.insert(Attached(attached.into()));
            }
            next.run(Request::from_parts(parts, body)).await
        }
    };
    let (mut head, body) = response.into_parts();
    for member in members[..passed].iter().rev() {
        member.after(&mut head);
    }
    Response::from_parts(head, body)
}
