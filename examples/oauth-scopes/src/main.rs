//! An OAuth 2.1 resource server whose tools need scopes: `read_notes`
//! needs `notes:read`, `purge_notes` needs `notes:admin`. A request without
//! a valid bearer token gets `401` with the metadata's address; a tool the
//! token's scopes do not reach is hidden from it. Tokens are checked with
//! the authorization server's introspection endpoint (or its JWKS), set in
//! the `oauth` settings:
//!
//! ```sh
//! MCP_OAUTH__RESOURCE=http://127.0.0.1:8080/mcp \
//! MCP_OAUTH__AUTHORIZATION_SERVERS='["https://auth.example.com"]' \
//! MCP_OAUTH__INTROSPECTION_ENDPOINT=https://auth.example.com/introspect \
//! MCP_OAUTH__INTROSPECTION_CLIENT_ID=notes MCP_OAUTH__INTROSPECTION_CLIENT_SECRET=s3cret \
//! cargo run -p oauth-scopes -- 127.0.0.1:8080
//! ```

use mcp_server::prelude::*;

/// Reads every note.
#[tool]
async fn read_notes() -> &'static str {
    "buy milk; call Ada"
}
mcp_oauth::require_scope!(tool "read_notes", "notes:read");

/// Forgets every note.
#[tool]
async fn purge_notes() -> &'static str {
    "purged"
}
mcp_oauth::require_scope!(tool "purge_notes", "notes:admin");

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8080".into());
    let server = Server::builder()
        .named("oauth-scopes", env!("CARGO_PKG_VERSION"))
        .build();
    let address = address.parse().map_err(std::io::Error::other)?;
    mcp_server::transport::http::serve(server, address).await
}
