//! The JSON-RPC errors the framework answers with beyond the protocol's own.
//!
//! A target that does not exist and a target the caller's guards hide get
//! the very same answer, so no answer tells a caller what it may not see.
//!
//! ```
//! use mcp_server::handler::unknown_target;
//!
//! let error = unknown_target("tool", "deploy");
//! assert_eq!(error.code.0, -32602);
//! assert_eq!(error.message, "Unknown tool: deploy");
//! ```

use mcp_core::error::ErrorObject;
use serde_json::json;

/// The error for a call to a tool, prompt or resource that does not exist
/// or that the caller may not see (`-32602`, as the specification says for
/// unknown tools and, since 2026-07-28, unknown resources).
///
/// The data names the target as the request did: `uri` for a resource or a
/// resource template, `name` for the rest.
pub fn unknown_target(kind: &str, name: &str) -> ErrorObject {
    let key = if kind.starts_with("resource") {
        "uri"
    } else {
        "name"
    };
    ErrorObject::invalid_params(format!("Unknown {kind}: {name}")).with_data(json!({ key: name }))
}

/// The `-32602` for a 2026-07-28 request whose `params._meta` lacks `key`.
pub(crate) fn missing_meta(key: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("Invalid params: `params._meta` must carry `{key}`"))
}
