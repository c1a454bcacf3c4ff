//! The framework's own JSON-RPC errors, beside the protocol's.
//!
//! ```
//! use mcp_server::error::{FORBIDDEN, forbidden};
//! use mcp_server::target::{Target, TargetKind};
//!
//! let target = Target::new(TargetKind::Tool, "deploy", mcp_server::origin!());
//! let error = forbidden(&target, "admins only");
//! assert_eq!(error.code, FORBIDDEN);
//! assert_eq!(error.message, "Forbidden: the caller may not use tool `deploy`");
//! ```

use mcp_core::error::{ErrorCode, ErrorObject};
use serde_json::json;

use crate::target::Target;

/// `-32010`: a guard denied the caller. Implementation-defined range
/// (`-32000` to `-32019`), which the specification leaves to servers.
pub const FORBIDDEN: ErrorCode = ErrorCode(-32010);

/// The error for a call a guard denied; `data` names the target and the reason.
pub fn forbidden(target: &Target, reason: &str) -> ErrorObject {
    ErrorObject::new(
        FORBIDDEN,
        format!("Forbidden: the caller may not use {target}"),
    )
    .with_data(json!({
        "kind": target.kind,
        "name": target.name,
        "reason": reason,
    }))
}

/// The error for a call to a tool, prompt or resource that does not exist
/// (`-32602`, as the specification says for unknown tools and, since
/// 2026-07-28, unknown resources).
///
/// The data names the target as the request did: `uri` for a resource,
/// `name` for the rest.
pub fn unknown_target(kind: &str, name: &str) -> ErrorObject {
    let key = if kind == "resource" { "uri" } else { "name" };
    ErrorObject::invalid_params(format!("Unknown {kind}: {name}")).with_data(json!({ key: name }))
}

/// The `-32602` for a 2026-07-28 request whose `params._meta` lacks `key`.
pub(crate) fn missing_meta(key: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("Invalid params: `params._meta` must carry `{key}`"))
}
