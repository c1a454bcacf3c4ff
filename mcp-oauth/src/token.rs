//! From a validated token's claims to the request's principal.
//!
//! ```
//! let claims = serde_json::json!({"sub": "alice", "scope": "notes:read notes:write", "roles": ["admin"]});
//! let principal = mcp_oauth::token::principal(claims.as_object().unwrap().clone());
//! assert_eq!(principal.subject.as_deref(), Some("alice"));
//! assert!(principal.has_scope("notes:write") && principal.has_role("admin"));
//! assert_eq!(principal.claim("sub"), Some(&serde_json::json!("alice")));
//! ```

use mcp_server::auth::Principal;
use mcp_server::core::json::{JsonObject, JsonValue};

/// The principal of a token with `claims`: the subject is `sub` (or, for a
/// client's own token, `client_id`), the scopes come from `scope` (space
/// separated) or `scp`, the roles from `roles`, and every claim is kept.
pub fn principal(claims: JsonObject) -> Principal {
    let text = |name: &str| {
        claims
            .get(name)
            .and_then(JsonValue::as_str)
            .map(str::to_owned)
    };
    let mut principal = Principal::anonymous();
    principal.subject = text("sub").or_else(|| text("client_id"));
    principal.scopes = match claims.get("scope").or_else(|| claims.get("scp")) {
        Some(JsonValue::String(scopes)) => scopes.split_whitespace().map(str::to_owned).collect(),
        Some(JsonValue::Array(scopes)) => strings(scopes),
        _ => Default::default(),
    };
    if let Some(JsonValue::Array(roles)) = claims.get("roles") {
        principal.roles = strings(roles);
    }
    principal.claims = claims;
    principal
}

fn strings(values: &[JsonValue]) -> std::collections::BTreeSet<String> {
    values
        .iter()
        .filter_map(JsonValue::as_str)
        .map(str::to_owned)
        .collect()
}
