//! CORS for browser clients, off until an origin is allowed: a preflight
//! from an allowed origin is answered here with `204`, and every other
//! response to one (errors included) carries the grant. Any other origin
//! gets no grant, and the DNS-rebinding check refuses it with `403`.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{
    ACCEPT, ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS,
    ACCESS_CONTROL_ALLOW_ORIGIN, ACCESS_CONTROL_EXPOSE_HEADERS, ACCESS_CONTROL_MAX_AGE,
    ACCESS_CONTROL_REQUEST_HEADERS, ACCESS_CONTROL_REQUEST_METHOD, ALLOW, AUTHORIZATION,
    CONTENT_TYPE, ORIGIN, VARY,
};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use mcp_core::error::ErrorObject;

use super::config::HttpConfig;
use super::endpoint::Endpoint;
use super::headers::{LAST_EVENT_ID, METHOD, NAME, PARAM_PREFIX, PROTOCOL_VERSION, SESSION_ID};
use super::{rebinding, response};

/// The methods of the endpoint.
const METHODS: &str = "GET, POST, DELETE, OPTIONS";

/// The request headers an MCP client sends, besides `Mcp-Param-*`.
static REQUEST_HEADERS: [&HeaderName; 8] = [
    &CONTENT_TYPE,
    &ACCEPT,
    &AUTHORIZATION,
    &SESSION_ID,
    &PROTOCOL_VERSION,
    &METHOD,
    &NAME,
    &LAST_EVENT_ID,
];

/// The response headers a client reads: the session and version, and the
/// challenge of a `401` from an authorization layer.
const EXPOSED_HEADERS: &str = "mcp-session-id, mcp-protocol-version, www-authenticate";

/// The middleware of an endpoint with CORS on: answers the preflights of
/// allowed origins and adds the grant to the responses they get.
pub(crate) async fn grant(
    State(endpoint): State<Arc<Endpoint>>,
    request: Request,
    next: Next,
) -> Response {
    let mut response = match granted_origin(request.headers(), &endpoint.config) {
        None => next.run(request).await,
        Some(origin) if is_preflight(&request) => {
            preflight(origin, request.headers(), endpoint.config.cors.max_age)
        }
        Some(origin) => {
            let mut response = next.run(request).await;
            let headers = response.headers_mut();
            headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin);
            headers.insert(
                ACCESS_CONTROL_EXPOSE_HEADERS,
                HeaderValue::from_static(EXPOSED_HEADERS),
            );
            response
        }
    };
    // Whether a response carries a grant depends on `Origin`, so caches
    // must keep one per origin, granted or not.
    response
        .headers_mut()
        .append(VARY, HeaderValue::from_static("origin"));
    response
}

/// Serves an `OPTIONS` that no grant answered: refused like any other
/// method when `Host` or `Origin` is foreign, else the methods allowed.
pub(crate) async fn options(State(endpoint): State<Arc<Endpoint>>, headers: HeaderMap) -> Response {
    if let Err(why) = rebinding::check(&headers, &endpoint.config) {
        return response::error(
            StatusCode::FORBIDDEN,
            None,
            ErrorObject::invalid_request(why),
        );
    }
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::NO_CONTENT;
    response
        .headers_mut()
        .insert(ALLOW, HeaderValue::from_static(METHODS));
    response
}

/// The `Access-Control-Allow-Origin` a request earns: its own `Origin`
/// (or `*` when any origin is allowed), if that origin is allowed and the
/// request passes the DNS-rebinding check, `Host` included.
fn granted_origin(headers: &HeaderMap, config: &HttpConfig) -> Option<HeaderValue> {
    let sent = headers.get(ORIGIN)?;
    let origin = sent.to_str().ok()?.to_ascii_lowercase();
    if !config.cors.allows(&origin) || rebinding::check(headers, config).is_err() {
        return None;
    }
    Some(if config.cors.any() {
        HeaderValue::from_static("*")
    } else {
        sent.clone()
    })
}

fn is_preflight(request: &Request) -> bool {
    request.method() == Method::OPTIONS
        && request
            .headers()
            .contains_key(ACCESS_CONTROL_REQUEST_METHOD)
}

/// The `204` that grants a preflight.
fn preflight(origin: HeaderValue, requested: &HeaderMap, max_age: Duration) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::NO_CONTENT;
    let headers = response.headers_mut();
    headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.insert(
        ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(METHODS),
    );
    headers.insert(ACCESS_CONTROL_ALLOW_HEADERS, allowed_headers(requested));
    headers.insert(ACCESS_CONTROL_MAX_AGE, HeaderValue::from(max_age.as_secs()));
    headers.append(
        VARY,
        HeaderValue::from_static("access-control-request-method, access-control-request-headers"),
    );
    response
}

/// The headers a preflight grants: those an MCP client sends, plus each
/// `Mcp-Param-*` header the browser asked for. Other requested headers are
/// left out, so the browser does not send the request.
fn allowed_headers(requested: &HeaderMap) -> HeaderValue {
    let mut granted = REQUEST_HEADERS.map(HeaderName::as_str).join(", ");
    let mut params: Vec<String> = Vec::new();
    for name in requested
        .get_all(ACCESS_CONTROL_REQUEST_HEADERS)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|list| list.split(','))
        .map(|name| name.trim().to_ascii_lowercase())
    {
        let is_param = name.len() > PARAM_PREFIX.len()
            && name.starts_with(PARAM_PREFIX)
            && HeaderName::from_bytes(name.as_bytes()).is_ok();
        if is_param && !params.contains(&name) {
            params.push(name);
        }
    }
    for name in &params {
        granted.push_str(", ");
        granted.push_str(name);
    }
    // Every part is a valid header name, so the list is a valid value.
    HeaderValue::from_str(&granted).unwrap_or_else(|_| HeaderValue::from_static("content-type"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn granted(requested: &str) -> Vec<String> {
        let mut headers = HeaderMap::new();
        headers.insert(ACCESS_CONTROL_REQUEST_HEADERS, requested.parse().unwrap());
        allowed_headers(&headers)
            .to_str()
            .unwrap()
            .split(", ")
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn param_headers_are_granted_whatever_their_case_and_others_are_not() {
        let names =
            granted("Mcp-Param-City, MCP-PARAM-region,x-secret, mcp-param-, mcp-param-city");
        assert!(names.contains(&"mcp-param-city".to_owned()), "{names:?}");
        assert!(names.contains(&"mcp-param-region".to_owned()), "{names:?}");
        assert_eq!(
            names.iter().filter(|n| *n == "mcp-param-city").count(),
            1,
            "{names:?}"
        );
        assert!(!names.contains(&"x-secret".to_owned()), "{names:?}");
        assert!(!names.contains(&"mcp-param-".to_owned()), "{names:?}");
    }

    #[test]
    fn the_client_headers_are_granted_even_when_not_asked_for() {
        let names = granted("content-type");
        for name in REQUEST_HEADERS {
            assert!(names.contains(&name.to_string()), "{name}: {names:?}");
        }
    }
}
