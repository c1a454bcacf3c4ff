//! MCP authorization for `mcp-server`: the server as an OAuth 2.1 resource
//! server, as the MCP specification asks of HTTP servers.
//!
//! Linking the crate (`use mcp_oauth as _;`) and setting `oauth.resource`
//! turns it on; without that setting it registers nothing. Then:
//!
//! - **Protected resource metadata** (RFC 9728) is served at
//!   `/.well-known/oauth-protected-resource` followed by the resource's
//!   path (and at the bare well-known path), naming the authorization
//!   servers and scopes.
//! - **Every HTTP request needs a bearer token** in `Authorization` (never
//!   the query string). A missing one gets `401` with
//!   `WWW-Authenticate: Bearer resource_metadata="…"`; an invalid one `401`
//!   with `error="invalid_token"`. The body is a JSON-RPC error either way.
//! - **JWTs** are checked against the issuer's JWKS (fetched when needed,
//!   refreshed for an unknown key id at most once per interval):
//!   an asymmetric algorithm of the accepted list (never `none`, never a
//!   shared secret), the signature, `iss`, `aud` equal to the resource URI
//!   (RFC 8707: a token for another resource is refused), `exp` and `nbf`
//!   with a small leeway. **Opaque tokens** go to the introspection
//!   endpoint (RFC 7662) when one is configured.
//! - **The token becomes the principal** (subject, scopes, roles and every
//!   claim), which guards read; [`require_scope!`] guards a tool, prompt or
//!   resource in one line, hiding it or challenging with `403
//!   insufficient_scope`.
//! - **stdio** takes its credentials from the process's environment
//!   (`MCP_AUTHORIZATION`); without them the caller is anonymous.
//!
//! ```
//! use mcp_oauth as _;
//!
//! let server = mcp_server::Server::builder()
//!     .without_environment()
//!     .setting("oauth.resource", "https://mcp.example.com/mcp")
//!     .setting("oauth.authorization_servers", serde_json::json!(["https://auth.example.com"]))
//!     .setting("oauth.jwks_uri", "https://auth.example.com/jwks.json")
//!     .build();
//! let documents = server.members::<mcp_server::transport::http::Routes>();
//! assert!(documents.iter().any(|d| d.path() == "/.well-known/oauth-protected-resource/mcp"));
//! ```
//!
//! The guide is [docs/authorization.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/authorization.md).

pub mod config;
mod introspection;
mod jwks;
mod jwt;
pub mod metadata;
pub mod scope;
pub mod source;
pub mod token;

use std::sync::Arc;

use mcp_server::boot::Diagnostic;
use mcp_server::boot::{BootContext, BootError};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::seam::{Extension, Item, Registration};
use mcp_server::transport::http::Document;
use mcp_server::{origin, register};

use crate::config::OAuthSection;
use crate::metadata::{Metadata, Resource, WELL_KNOWN};
use crate::source::OAuthPrincipalSource;

fn extension(_: &BootContext) -> Item {
    Item::extension(Extension::new(
        env!("CARGO_PKG_NAME"),
        env!("CARGO_PKG_VERSION"),
    ))
}

fn section(_: &BootContext) -> Item {
    Item::section::<OAuthSection>()
}

const NOT_CONFIGURED: &str = "`oauth.resource` is not set";

fn principal_source(boot: &BootContext) -> Item {
    match OAuthPrincipalSource::from_section(&boot.section::<OAuthSection>()) {
        Ok(Some(source)) => {
            if let Some(keys) = source.keys() {
                let _ = boot.shared::<Keys>().0.set(keys);
            }
            let source: Arc<dyn PrincipalSource> = Arc::new(source);
            Item::supply(source)
        }
        Ok(None) => Item::inactive(NOT_CONFIGURED),
        Err(problems) => {
            let mut diagnostic = Diagnostic::new(
                "mcp_oauth::invalid_configuration",
                "the `oauth` settings do not describe a resource server",
            );
            for problem in problems {
                diagnostic = diagnostic.note(problem);
            }
            boot.fail(BootError::Extension(diagnostic.help(
                "set `oauth.resource`, `oauth.authorization_servers` and `oauth.jwks_uri` (or `oauth.introspection_endpoint`), or unset `oauth.resource`",
            )));
            Item::inactive("its settings are invalid")
        }
    }
}

/// The metadata document at `path`, or nothing.
fn document(boot: &BootContext, at_root: bool) -> Item {
    let section = boot.section::<OAuthSection>();
    let Some(resource) = section
        .resource
        .as_deref()
        .and_then(|r| Resource::parse(r).ok())
    else {
        return Item::inactive(NOT_CONFIGURED);
    };
    let path = match at_root {
        false => resource.metadata_path(),
        true if resource.metadata_path() != WELL_KNOWN => WELL_KNOWN.to_owned(),
        true => return Item::inactive("the resource is at the root: one metadata path serves"),
    };
    let metadata = Metadata::new(
        &resource,
        &section.authorization_servers,
        &section.scopes_supported,
    );
    let body = serde_json::to_vec(&metadata).unwrap_or_default();
    match Document::new(path, "application/json", body) {
        Ok(document) => Item::route(document),
        Err(reason) => {
            // Serving challenges that point at metadata nobody serves would
            // be half an install: boot fails instead.
            boot.fail(BootError::Extension(
                Diagnostic::new(
                    "mcp_oauth::unservable_metadata",
                    "the protected resource metadata cannot be served for `oauth.resource`",
                )
                .note(reason)
                .help("give `oauth.resource` a path of plain segments"),
            ));
            Item::inactive("the resource's path cannot be served")
        }
    }
}

/// The issuer's keys of the active source, for its health check.
#[derive(Default)]
struct Keys(std::sync::OnceLock<Arc<jwks::Jwks>>);

/// Readiness: the issuer's keys were fetched once, or can be now. A
/// server that cannot get them would refuse every token.
fn health(boot: &BootContext) -> Item {
    let Some(keys) = boot.shared::<Keys>().0.get().cloned() else {
        return Item::inactive("no JWKS is configured");
    };
    let check = mcp_server::seam::contributor::health::HealthCheck::new(
        "oauth keys",
        mcp_server::seam::contributor::health::Probe::Readiness,
        move || {
            let keys = keys.clone();
            async move { keys.ready().await }
        },
    );
    Item::health_check(check)
}

fn metadata(boot: &BootContext) -> Item {
    document(boot, false)
}

fn metadata_at_root(boot: &BootContext) -> Item {
    document(boot, true)
}

register!(Registration::extension(origin!(), "mcp-oauth", extension));
register!(Registration::new(origin!(), "oauth-section", 0, section));
register!(Registration::supply(
    origin!(),
    "OAuthPrincipalSource",
    principal_source
));
register!(Registration::new(origin!(), "oauth-metadata", 0, metadata));
register!(Registration::new(origin!(), "oauth-health", 0, health));
register!(Registration::new(
    origin!(),
    "oauth-metadata-root",
    0,
    metadata_at_root
));
