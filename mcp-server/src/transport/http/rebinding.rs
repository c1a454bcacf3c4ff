//! DNS-rebinding protection: a request's `Host` and `Origin` must name this
//! server, by default a loopback address, or be on the allow-list; an
//! origin allowed for CORS is allowed here too.

use std::borrow::Cow;

use axum::http::HeaderMap;
use axum::http::header::{HOST, ORIGIN};

use super::HttpConfig;

/// Checks a request's `Host` and `Origin` against the allowed ones; the
/// error says which header was refused.
pub(crate) fn check(headers: &HeaderMap, config: &HttpConfig) -> Result<(), String> {
    if let Some(host) = headers.get(HOST) {
        let host = lowercase(host.to_str().unwrap_or(""));
        if !host_allowed(&host, config) {
            return Err(format!("Forbidden: Host `{host}` is not allowed"));
        }
    }
    if let Some(origin) = headers.get(ORIGIN) {
        let origin = lowercase(origin.to_str().unwrap_or(""));
        if !origin_allowed(&origin, config) {
            return Err(format!("Forbidden: Origin `{origin}` is not allowed"));
        }
    }
    Ok(())
}

/// `text` in lower case, copied only when it has upper-case letters.
fn lowercase(text: &str) -> Cow<'_, str> {
    if text.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(text.to_ascii_lowercase())
    } else {
        Cow::Borrowed(text)
    }
}

fn host_allowed(host: &str, config: &HttpConfig) -> bool {
    let name = strip_port(host);
    (config.loopback && is_loopback(name))
        || config
            .hosts
            .iter()
            .any(|allowed| allowed == "*" || allowed == host || allowed == name)
}

fn origin_allowed(origin: &str, config: &HttpConfig) -> bool {
    let authority = origin
        .split_once("://")
        .map_or("", |(_, rest)| rest.trim_end_matches('/'));
    (config.loopback && is_loopback(strip_port(authority)))
        || config
            .origins
            .iter()
            .any(|allowed| allowed == "*" || allowed.trim_end_matches('/') == origin)
        || config.cors.allows(origin)
}

/// The host name of `host[:port]`, brackets kept for IPv6 (`[::1]`).
fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    host.rsplit_once(':').map_or(host, |(name, _)| name)
}

fn is_loopback(name: &str) -> bool {
    matches!(name, "localhost" | "127.0.0.1" | "[::1]")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(host: &str, origin: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(HOST, host.parse().unwrap());
        if let Some(origin) = origin {
            headers.insert(ORIGIN, origin.parse().unwrap());
        }
        headers
    }

    #[test]
    fn loopback_hosts_with_any_port_are_allowed() {
        let config = HttpConfig::default();
        for host in ["localhost", "127.0.0.1:8080", "[::1]:3000", "LOCALHOST:1"] {
            assert!(check(&headers(host, None), &config).is_ok(), "{host}");
        }
    }

    #[test]
    fn a_foreign_host_or_origin_is_refused() {
        let config = HttpConfig::default();
        assert!(check(&headers("evil.example.com", None), &config).is_err());
        let refused = check(
            &headers("127.0.0.1:80", Some("http://evil.example.com")),
            &config,
        );
        assert!(refused.unwrap_err().contains("Origin"));
        assert!(check(&headers("localhost.evil.com", None), &config).is_err());
    }

    #[test]
    fn the_allow_list_admits_named_hosts_and_origins() {
        let config = HttpConfig::default()
            .allow_host("mcp.example.com")
            .allow_origin("https://app.example.com");
        let allowed = headers("mcp.example.com:443", Some("https://app.example.com"));
        assert!(check(&allowed, &config).is_ok());
        let other_origin = headers("mcp.example.com", Some("https://other.example.com"));
        assert!(check(&other_origin, &config).is_err());
    }

    #[test]
    fn a_cors_origin_is_allowed_but_not_its_host() {
        let config = HttpConfig::default().cors_allow_origin("https://app.example.com");
        let local = headers("127.0.0.1:8080", Some("https://app.example.com"));
        assert!(check(&local, &config).is_ok());
        let foreign = headers("evil.example.com", Some("https://app.example.com"));
        assert!(check(&foreign, &config).unwrap_err().contains("Host"));
    }
}
