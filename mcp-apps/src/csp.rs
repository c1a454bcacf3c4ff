//! What a View's CSP lists accept: origins, `scheme://host[:port]`, with
//! a `*.` wildcard for subdomains.

/// Why `value` is not an origin a CSP list of a View accepts; `None` when it is one.
///
/// ```text
/// https://api.example.com        ok
/// wss://live.example.com:8443    ok
/// https://*.example.com          ok (any subdomain)
/// api.example.com                no scheme
/// https://example.com/api        a path
/// ```
pub(crate) fn problem(value: &str) -> Option<String> {
    let Some((scheme, rest)) = value.split_once("://") else {
        return Some("it has no scheme (write `https://` or `wss://` before the host)".into());
    };
    if !matches!(scheme, "https" | "http" | "wss" | "ws") {
        return Some(format!(
            "its scheme `{scheme}` is not one of `https`, `http`, `wss`, `ws`"
        ));
    }
    if let Some(at) = rest.find(['/', '?', '#']) {
        let what = match &rest[at..at + 1] {
            "/" => "a path",
            "?" => "a query",
            _ => "a fragment",
        };
        return Some(format!(
            "it has {what}, and an origin ends after the host and port"
        ));
    }
    if rest.contains('@') {
        return Some("it has user information, which an origin never has".into());
    }
    let (host, port) = split_port(rest);
    if let Some(port) = port
        && !port.parse::<u16>().is_ok_and(|p| p > 0)
    {
        return Some(format!("its port `{port}` is not a number from 1 to 65535"));
    }
    host_problem(host)
}

/// `host[:port]`, brackets kept for IPv6 (`[::1]:8080`).
fn split_port(authority: &str) -> (&str, Option<&str>) {
    if authority.starts_with('[') {
        return match authority.find(']') {
            Some(end) => {
                let port = authority[end + 1..].strip_prefix(':');
                (&authority[..=end], port)
            }
            None => (authority, None),
        };
    }
    match authority.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (authority, None),
    }
}

fn host_problem(host: &str) -> Option<String> {
    if host.is_empty() {
        return Some("it has no host".into());
    }
    if host.starts_with('[') {
        let inner = host.trim_start_matches('[').trim_end_matches(']');
        return match inner.parse::<std::net::Ipv6Addr>() {
            Ok(_) if host.ends_with(']') => None,
            _ => Some(format!("`{host}` is not an IPv6 address")),
        };
    }
    let name = host.strip_prefix("*.").unwrap_or(host);
    if name.contains('*') {
        return Some("a wildcard may only stand for the leftmost labels (`*.example.com`)".into());
    }
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    if name.split('.').all(label_ok) {
        None
    } else {
        Some(format!("`{host}` is not a host name"))
    }
}

#[cfg(test)]
mod tests {
    use super::problem;

    #[test]
    fn origins_with_a_scheme_a_host_and_a_port_are_accepted() {
        for ok in [
            "https://api.example.com",
            "wss://live.example.com:8443",
            "https://*.example.com",
            "http://localhost:3000",
            "http://127.0.0.1",
            "https://[::1]:8443",
        ] {
            assert_eq!(problem(ok), None, "{ok}");
        }
    }

    #[test]
    fn anything_that_is_not_an_origin_is_refused_with_its_reason() {
        for (bad, why) in [
            ("api.example.com", "no scheme"),
            ("ftp://files.example.com", "scheme `ftp`"),
            ("https://example.com/api", "a path"),
            ("https://example.com/", "a path"),
            ("https://example.com?x=1", "a query"),
            ("https://user@example.com", "user information"),
            ("https://example.com:99999", "port `99999`"),
            ("https://", "no host"),
            ("https://exa mple.com", "not a host name"),
            ("https://api.*.example.com", "wildcard"),
            ("*", "no scheme"),
        ] {
            let problem = problem(bad).unwrap_or_else(|| panic!("{bad} was accepted"));
            assert!(problem.contains(why), "{bad}: {problem}");
        }
    }
}
