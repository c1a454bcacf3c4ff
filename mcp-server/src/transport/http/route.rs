//! Routes: HTTP paths any crate serves beside the endpoint, for any method,
//! with full control of the response: a server card, a health probe, an
//! OAuth callback.
//!
//! A route is a member of the registration kind [`Routes`], keyed by path:
//! two crates serving one path fail boot naming both, whether they serve a
//! [`Document`] or a handler; [`try_router`](super::try_router) refuses a
//! route at the endpoint's own path. Routes sit outside the endpoint's
//! checks (`Host`, CORS, authentication, HTTP interceptors): what they
//! serve is the crate's to guard. A path may sit beneath the endpoint's
//! (`/mcp/server-card`) or at the origin (`/.well-known/…`).
//!
//! ```
//! use axum::http::StatusCode;
//! use axum::routing::get;
//! use mcp_server::seam::Item;
//! use mcp_server::transport::http::{Route, Routes};
//!
//! let card = Route::new(
//!     "/mcp/server-card",
//!     get(|| async { (StatusCode::OK, [("cache-control", "no-store")], "{}") })
//!         .options(|| async { StatusCode::NO_CONTENT }),
//! )
//! .unwrap();
//! let server = mcp_server::Server::builder()
//!     .without_linked()
//!     .register(mcp_server::origin!(), "server-card", 0, Item::route(card))
//!     .build();
//! assert_eq!(server.members::<Routes>()[0].path(), "/mcp/server-card");
//! ```

use std::fmt;

use axum::routing::MethodRouter;

use super::Document;
use crate::seam::{Item, Kind, SeamWord};

/// One path served beside the endpoint: a fixed [`Document`], or axum
/// handlers for any methods.
#[derive(Clone)]
pub struct Route {
    path: String,
    pub(crate) serve: Serve,
}

/// What a route serves.
#[derive(Clone)]
pub(crate) enum Serve {
    Document(Document),
    Methods(MethodRouter),
}

impl fmt::Debug for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let serves = match &self.serve {
            Serve::Document(_) => "document",
            Serve::Methods(_) => "handlers",
        };
        f.debug_struct("Route")
            .field("path", &self.path)
            .field("serves", &serves)
            .finish()
    }
}

impl Route {
    /// `methods` served at `path` (absolute, of plain segments), each
    /// answering with whatever status, headers and body it returns.
    ///
    /// # Errors
    ///
    /// What is wrong with `path`.
    pub fn new(path: impl Into<String>, methods: MethodRouter) -> Result<Self, String> {
        Ok(Self {
            path: plain_path(path.into(), "route")?,
            serve: Serve::Methods(methods),
        })
    }

    /// The path it is served at.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The document it serves, if it is one.
    pub fn document(&self) -> Option<&Document> {
        match &self.serve {
            Serve::Document(document) => Some(document),
            Serve::Methods(_) => None,
        }
    }
}

impl From<Document> for Route {
    fn from(document: Document) -> Self {
        Self {
            path: document.path().to_owned(),
            serve: Serve::Document(document),
        }
    }
}

/// `path`, if absolute and of plain segments; a `what` is named in the error.
pub(crate) fn plain_path(path: String, what: &str) -> Result<String, String> {
    if !path.starts_with('/') {
        return Err(format!("the {what} path `{path}` does not start with `/`"));
    }
    if let Some(c) = path
        .chars()
        .find(|c| matches!(c, '{' | '}' | '*' | '?' | '#') || c.is_whitespace())
    {
        return Err(format!(
            "the {what} path `{path}` holds `{c}`: give plain path segments"
        ));
    }
    Ok(path)
}

/// The registration kind of [`Route`]s and [`Document`]s, keyed by path.
#[derive(Debug)]
pub struct Routes;

impl Kind for Routes {
    type Member = Route;
    const NAME: &'static str = "HTTP route";
    const CODE: &'static str = "mcp::duplicate_http_route";
    const WORD: SeamWord = SeamWord::Contributor;
    const HELP: &'static str = "serve the path from one crate only, or give one another path";

    fn key(route: &Route) -> String {
        route.path.clone()
    }
}

impl Item {
    /// A route or a document served beside the endpoint ([`Routes`]).
    pub fn route(route: impl Into<Route>) -> Self {
        Self::member::<Routes>(route.into())
    }
}
