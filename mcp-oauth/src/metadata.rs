//! Protected resource metadata (RFC 9728): the document that tells a client
//! which authorization servers issue tokens for this server, where it is
//! served, and the `WWW-Authenticate` challenges that point to it.
//!
//! ```
//! use mcp_oauth::metadata::Resource;
//!
//! let resource = Resource::parse("https://mcp.example.com/public/mcp").unwrap();
//! assert_eq!(resource.metadata_path(), "/.well-known/oauth-protected-resource/public/mcp");
//! assert_eq!(
//!     resource.metadata_url(),
//!     "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp"
//! );
//! assert!(Resource::parse("https://mcp.example.com/mcp#frag").is_err());
//! ```

use reqwest::Url;
use serde::Serialize;

/// The well-known path prefix of RFC 9728.
pub const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// This server's canonical resource URI, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    uri: String,
    origin: String,
    path: String,
}

impl Resource {
    /// Checks `uri`: absolute, `https` (or `http` on a loopback host), no
    /// fragment.
    ///
    /// # Errors
    ///
    /// What is wrong with it.
    pub fn parse(uri: &str) -> Result<Self, String> {
        let url = Url::parse(uri).map_err(|e| format!("`{uri}` is not an absolute URI ({e})"))?;
        if url.fragment().is_some() {
            return Err(format!(
                "`{uri}` has a fragment; a resource URI may not (RFC 8707)"
            ));
        }
        let loopback = matches!(url.host_str(), Some("localhost" | "127.0.0.1" | "[::1]"));
        match url.scheme() {
            "https" => {}
            "http" if loopback => {}
            scheme => {
                return Err(format!(
                    "`{uri}` uses `{scheme}`; a resource URI uses https (http only on a loopback host)"
                ));
            }
        }
        let origin = url.origin().ascii_serialization();
        let path = url.path().trim_end_matches('/').to_owned();
        Ok(Self {
            uri: uri.to_owned(),
            origin,
            path,
        })
    }

    /// The URI as configured: the audience tokens must name.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Where this server serves its metadata: the well-known prefix with
    /// the resource's path after it.
    pub fn metadata_path(&self) -> String {
        format!("{WELL_KNOWN}{}", self.path)
    }

    /// The metadata's absolute URL, for `resource_metadata` in challenges.
    pub fn metadata_url(&self) -> String {
        format!("{}{}", self.origin, self.metadata_path())
    }
}

/// The metadata document.
#[derive(Debug, Clone, Serialize)]
pub struct Metadata<'a> {
    /// The resource URI.
    pub resource: &'a str,
    /// The authorization servers.
    pub authorization_servers: &'a [String],
    /// The scopes, when any are configured.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub scopes_supported: &'a [String],
    /// Tokens are accepted in the `Authorization` header only.
    pub bearer_methods_supported: [&'static str; 1],
}

impl<'a> Metadata<'a> {
    /// The document for `resource`.
    pub fn new(
        resource: &'a Resource,
        authorization_servers: &'a [String],
        scopes_supported: &'a [String],
    ) -> Self {
        Self {
            resource: resource.uri(),
            authorization_servers,
            scopes_supported,
            bearer_methods_supported: ["header"],
        }
    }
}

/// A `Bearer` challenge: `auth-param`s in order, each value quoted.
pub(crate) fn bearer(params: &[(&str, &str)]) -> String {
    let mut out = String::from("Bearer");
    for (i, (name, value)) in params.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        out.push_str(name);
        out.push_str("=\"");
        // Quoted-string: backslash and quote escaped; control characters dropped.
        for c in value.chars().filter(|c| !c.is_control()) {
            if matches!(c, '"' | '\\') {
                out.push('\\');
            }
            out.push(c);
        }
        out.push('"');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resource_at_the_root_has_its_metadata_at_the_bare_well_known_path() {
        let resource = Resource::parse("https://mcp.example.com/").unwrap();
        assert_eq!(resource.metadata_path(), WELL_KNOWN);
        assert_eq!(
            resource.metadata_url(),
            "https://mcp.example.com/.well-known/oauth-protected-resource"
        );
    }

    #[test]
    fn plain_http_is_refused_except_on_a_loopback_host() {
        assert!(Resource::parse("http://mcp.example.com/mcp").is_err());
        assert!(Resource::parse("http://127.0.0.1:8080/mcp").is_ok());
        assert!(Resource::parse("http://localhost:8080/mcp").is_ok());
    }

    #[test]
    fn challenge_values_are_quoted_and_escaped() {
        let header = bearer(&[
            ("error", "invalid_token"),
            ("error_description", "a \"b\"\n"),
        ]);
        assert_eq!(
            header,
            r#"Bearer error="invalid_token", error_description="a \"b\"""#
        );
    }
}
