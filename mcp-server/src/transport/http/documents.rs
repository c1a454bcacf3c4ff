//! Documents: fixed files any crate serves beside the endpoint, such as
//! OAuth protected resource metadata (RFC 9728) under `/.well-known/`.
//!
//! A document is a member of the registration kind [`Documents`], keyed by
//! its path: two crates serving one path fail boot naming both. [`router`]
//! serves each with `GET` (and `HEAD`), readable from any web origin, since
//! what it says is public.
//!
//! ```
//! use mcp_server::transport::http::{Document, Documents};
//!
//! let card = Document::new("/.well-known/example.json", "application/json", r#"{"ok":true}"#)
//!     .unwrap();
//! let server = mcp_server::Server::builder()
//!     .without_linked()
//!     .register(mcp_server::origin!(), "example-card", 0,
//!         mcp_server::seam::Item::member::<Documents>(card))
//!     .build();
//! assert_eq!(server.members::<Documents>()[0].path(), "/.well-known/example.json");
//! assert!(Document::new("no-slash", "text/plain", "x").is_err());
//! ```
//!
//! [`router`]: super::router

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

use crate::seam::{Kind, SeamWord};

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
        let path = path.into();
        if !path.starts_with('/') {
            return Err(format!(
                "the document path `{path}` does not start with `/`"
            ));
        }
        if let Some(c) = path
            .chars()
            .find(|c| matches!(c, '{' | '}' | '*' | '?' | '#') || c.is_whitespace())
        {
            return Err(format!(
                "the document path `{path}` holds `{c}`: give plain path segments"
            ));
        }
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

/// The registration kind of [`Document`]s, keyed by path.
#[derive(Debug)]
pub struct Documents;

impl Kind for Documents {
    type Member = Document;
    const NAME: &'static str = "HTTP document";
    const CODE: &'static str = "mcp::duplicate_http_document";
    const WORD: SeamWord = SeamWord::Contributor;
    const HELP: &'static str = "serve the document from one crate only, or give one another path";

    fn key(document: &Document) -> String {
        document.path.clone()
    }
}
