//! Documents: fixed files any crate serves beside the endpoint, such as
//! OAuth protected resource metadata (RFC 9728) under `/.well-known/`.
//!
//! A document is a [`Route`] (it converts into one), so it shares the
//! registration kind [`Routes`], keyed by path: two crates serving one path
//! fail boot naming both. [`router`] serves each with `GET` (and `HEAD`),
//! readable from any web origin, since what it says is public.
//!
//! ```
//! use mcp_server::seam::Item;
//! use mcp_server::transport::http::{Document, Routes};
//!
//! let card = Document::new("/.well-known/example.json", "application/json", r#"{"ok":true}"#)
//!     .unwrap();
//! let server = mcp_server::Server::builder()
//!     .without_linked()
//!     .register(mcp_server::origin!(), "example-card", 0, Item::route(card))
//!     .build();
//! assert_eq!(server.members::<Routes>()[0].path(), "/.well-known/example.json");
//! assert!(Document::new("no-slash", "text/plain", "x").is_err());
//! ```
//!
//! [`router`]: super::router
//! [`Route`]: super::Route
//! [`Routes`]: super::Routes

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

/// A fixed document served at one path.
#[derive(Debug, Clone)]
pub struct Document {
    path: String,
    media_type: HeaderValue,
    body: Bytes,
}

impl Document {
    /// A document at `path` (absolute, of plain segments) of `media_type`.
    ///
    /// # Errors
    ///
    /// What is wrong with `path` or `media_type`.
    pub fn new(
        path: impl Into<String>,
        media_type: &str,
        body: impl Into<Bytes>,
    ) -> Result<Self, String> {
        let path = super::route::plain_path(path.into(), "document")?;
        let media_type = HeaderValue::from_str(media_type)
            .map_err(|_| format!("`{media_type}` is not a media type"))?;
        Ok(Self {
            path,
            media_type,
            body: body.into(),
        })
    }

    /// The path it is served at.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The body.
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// The response that serves it.
    pub(crate) fn response(&self) -> Response {
        let mut response = Response::new(Body::from(self.body.clone()));
        *response.status_mut() = StatusCode::OK;
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, self.media_type.clone());
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=300"),
        );
        response
    }
}
