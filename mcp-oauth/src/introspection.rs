//! Opaque tokens, asked about at the issuer's introspection endpoint
//! (RFC 7662): active, issued by the issuer, for this server, not expired.

use std::time::{SystemTime, UNIX_EPOCH};

use mcp_server::config::Secret;
use mcp_server::core::json::{JsonObject, JsonValue};

/// The endpoint and how this server authenticates to it.
pub(crate) struct Introspection {
    pub(crate) endpoint: String,
    pub(crate) client_id: Option<String>,
    pub(crate) client_secret: Option<Secret>,
    pub(crate) client: reqwest::Client,
}

impl Introspection {
    /// The token's claims, or why it is refused.
    pub(crate) async fn validate(
        &self,
        token: &str,
        issuer: &str,
        audience: &str,
        leeway_s: u64,
    ) -> Result<JsonObject, String> {
        let mut request = self
            .client
            .post(&self.endpoint)
            .form(&[("token", token), ("token_type_hint", "access_token")]);
        if let Some(id) = &self.client_id {
            request = request.basic_auth(id, self.client_secret.as_ref().map(Secret::expose));
        }
        let claims: JsonObject = request
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| format!("the token could not be introspected: {e}"))?
            .json()
            .await
            .map_err(|e| format!("the introspection answer is not JSON: {e}"))?;
        check(&claims, issuer, audience, leeway_s, now())?;
        Ok(claims)
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Checks an introspection answer.
fn check(
    claims: &JsonObject,
    issuer: &str,
    audience: &str,
    leeway_s: u64,
    now: u64,
) -> Result<(), String> {
    if claims.get("active") != Some(&JsonValue::Bool(true)) {
        return Err("the token is not active".into());
    }
    if let Some(iss) = claims.get("iss")
        && iss.as_str() != Some(issuer)
    {
        return Err("the token was issued by another issuer".into());
    }
    let for_us = match claims.get("aud") {
        Some(JsonValue::String(aud)) => aud == audience,
        Some(JsonValue::Array(auds)) => auds.iter().any(|a| a.as_str() == Some(audience)),
        _ => false,
    };
    if !for_us {
        return Err("the token was issued for another resource".into());
    }
    if let Some(exp) = claims.get("exp").and_then(JsonValue::as_u64)
        && exp.saturating_add(leeway_s) <= now
    {
        return Err("the token expired".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(value: JsonValue) -> JsonObject {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn an_active_token_for_this_resource_passes() {
        let ok = claims(serde_json::json!({
            "active": true, "iss": "https://as", "aud": ["x", "https://rs/mcp"], "exp": 200
        }));
        assert_eq!(check(&ok, "https://as", "https://rs/mcp", 0, 100), Ok(()));
    }

    #[test]
    fn inactive_foreign_and_expired_tokens_are_refused_with_their_reason() {
        let check = |v| check(&claims(v), "https://as", "https://rs/mcp", 10, 100);
        let refused = |v| check(v).unwrap_err();
        assert_eq!(
            refused(serde_json::json!({"active": false})),
            "the token is not active"
        );
        assert_eq!(
            refused(serde_json::json!({"active": true, "aud": "https://other/mcp"})),
            "the token was issued for another resource"
        );
        assert_eq!(
            refused(serde_json::json!({"active": true})),
            "the token was issued for another resource"
        );
        assert_eq!(
            refused(
                serde_json::json!({"active": true, "aud": "https://rs/mcp", "iss": "https://evil"})
            ),
            "the token was issued by another issuer"
        );
        assert_eq!(
            refused(serde_json::json!({"active": true, "aud": "https://rs/mcp", "exp": 89})),
            "the token expired"
        );
        assert!(
            check(serde_json::json!({"active": true, "aud": "https://rs/mcp", "exp": 95})).is_ok()
        );
    }
}
