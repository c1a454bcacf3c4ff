//! The MCP headers of a request: their names, their values as text, and
//! the standard ones of a 2026-07-28 request handed to the server, which
//! checks them against the body when it admits the request (a mismatch is
//! `-32020` with HTTP 400).

use std::fmt::Display;

use axum::http::header::AsHeaderName;
use axum::http::{HeaderMap, HeaderName};
use mcp_core::error::ErrorObject;

use crate::transport::Headers;

// As names a [`HeaderMap`] finds without parsing them first.
pub(crate) static PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
pub(crate) static METHOD: HeaderName = HeaderName::from_static("mcp-method");
pub(crate) static NAME: HeaderName = HeaderName::from_static("mcp-name");
pub(crate) static SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
pub(crate) static LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");
/// The prefix of the headers that mirror `tools/call` arguments.
pub(crate) const PARAM_PREFIX: &str = "mcp-param-";

/// A header's value as text; `Err` when it holds bytes a header may not.
pub(crate) fn text<N: AsHeaderName + Display + Copy>(
    headers: &HeaderMap,
    name: N,
) -> Result<Option<&str>, ErrorObject> {
    match headers.get(name) {
        None => Ok(None),
        Some(value) => value.to_str().map(|v| Some(v.trim())).map_err(|_| {
            ErrorObject::header_mismatch(format!(
                "Header mismatch: the {name} header holds characters a header may not"
            ))
        }),
    }
}

/// A request's headers, as the server reads the standard ones.
pub(crate) struct Mirrored<'h>(pub(crate) &'h HeaderMap);

impl Headers for Mirrored<'_> {
    fn protocol_version(&self) -> Result<Option<&str>, ErrorObject> {
        text(self.0, &PROTOCOL_VERSION)
    }

    fn method(&self) -> Result<Option<&str>, ErrorObject> {
        text(self.0, &METHOD)
    }

    fn name(&self) -> Result<Option<&str>, ErrorObject> {
        text(self.0, &NAME)
    }

    fn param(&self, header: &str) -> Result<Option<&str>, ErrorObject> {
        let name = format!("{PARAM_PREFIX}{}", header.to_ascii_lowercase());
        text(self.0, name.as_str())
    }
}
