//! The `oauth` configuration section: this server's resource URI, the
//! authorization servers it trusts, and how tokens are checked.
//!
//! Nothing is active until `oauth.resource` is set. Every key can come from
//! the builder, the command line or the environment
//! (`MCP_OAUTH__RESOURCE`, `MCP_OAUTH__INTROSPECTION_CLIENT_SECRET`, …).
//!
//! ```
//! use mcp_oauth::config::OAuthSection;
//!
//! let section: OAuthSection = serde_json::from_value(serde_json::json!({
//!     "resource": "https://mcp.example.com/mcp",
//!     "authorization_servers": ["https://auth.example.com"],
//!     "jwks_uri": "https://auth.example.com/jwks.json",
//! })).unwrap();
//! assert_eq!(section.issuer(), Some("https://auth.example.com"));
//! assert!(section.required);
//! ```

use mcp_server::config::{Secret, Section};
use serde::Deserialize;

/// The `oauth` section.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct OAuthSection {
    /// This server's canonical resource URI (`https://mcp.example.com/mcp`):
    /// the audience every token must name (RFC 8707), and where the
    /// protected resource metadata is served. Never taken from `Host`.
    pub resource: Option<String>,
    /// The authorization servers whose tokens this server accepts, as the
    /// metadata lists them (at least one).
    pub authorization_servers: Vec<String>,
    /// The `iss` tokens must carry; by default the first authorization server.
    pub issuer: Option<String>,
    /// Where the issuer publishes its signing keys (JWKS): JWTs are checked
    /// against them.
    pub jwks_uri: Option<String>,
    /// An RFC 7662 introspection endpoint, for tokens that are not JWTs
    /// (or when no `jwks_uri` is set).
    pub introspection_endpoint: Option<String>,
    /// The client id this server authenticates to the introspection endpoint with.
    pub introspection_client_id: Option<String>,
    /// Its secret.
    pub introspection_client_secret: Option<Secret>,
    /// The scopes the metadata advertises, and the first challenge asks for.
    pub scopes_supported: Vec<String>,
    /// Whether a request without a token is refused (`401`); when `false`
    /// it is served as anonymous, and only invalid tokens are refused.
    pub required: bool,
    /// Clock skew allowed on `exp` and `nbf`, in seconds.
    pub leeway_s: u64,
    /// The shortest time between two fetches of the JWKS for a key id it did
    /// not hold, in seconds: tokens naming unknown keys cannot make the
    /// server hammer the issuer.
    pub jwks_min_refresh_s: u64,
    /// How long fetched keys are used before they are fetched again, in seconds.
    pub jwks_ttl_s: u64,
    /// The signature algorithms accepted (asymmetric only).
    pub algorithms: Vec<String>,
    /// How long a request to the issuer may take, in milliseconds.
    pub http_timeout_ms: u64,
}

impl Default for OAuthSection {
    fn default() -> Self {
        Self {
            resource: None,
            authorization_servers: Vec::new(),
            issuer: None,
            jwks_uri: None,
            introspection_endpoint: None,
            introspection_client_id: None,
            introspection_client_secret: None,
            scopes_supported: Vec::new(),
            required: true,
            leeway_s: 30,
            jwks_min_refresh_s: 30,
            jwks_ttl_s: 3600,
            algorithms: [
                "ES256", "ES384", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA",
            ]
            .map(String::from)
            .to_vec(),
            http_timeout_ms: 5000,
        }
    }
}

impl Section for OAuthSection {
    const KEY: &'static str = "oauth";
}

impl OAuthSection {
    /// The issuer tokens must name.
    pub fn issuer(&self) -> Option<&str> {
        self.issuer
            .as_deref()
            .or(self.authorization_servers.first().map(String::as_str))
    }
}
