//! A configured resource server refuses every HTTP request without a valid
//! bearer token for this resource, points the client to its metadata, and
//! serves the token's subject otherwise.

mod support;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use mcp_server::auth::AUTHENTICATION_REQUIRED;
use mcp_server::{RequestContext, tool};
use serde_json::{Value, json};
use support::{Issuer, METADATA_URL, RESOURCE, app, ask, call, now, server};

use mcp_oauth as _;

/// Answers with the caller's subject and scopes.
#[tool(read_only)]
async fn whoami(ctx: RequestContext) -> String {
    let principal = ctx.principal();
    let scopes: Vec<&str> = principal.scopes.iter().map(String::as_str).collect();
    format!(
        "{} [{}]",
        principal.subject.as_deref().unwrap_or("anonymous"),
        scopes.join(" ")
    )
}

fn text(answer: &support::Answer) -> &str {
    answer.body["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("not a tool result: {}", answer.body))
}

/// Asserts a `401` with `error="invalid_token"` whose description holds `why`.
fn assert_refused(answer: &support::Answer, why: &str) {
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.body);
    let challenge = answer
        .challenge
        .as_deref()
        .expect("a WWW-Authenticate header");
    assert!(
        challenge.starts_with("Bearer error=\"invalid_token\""),
        "{challenge}"
    );
    assert!(challenge.contains(why), "`{why}` is not in {challenge}");
    assert!(challenge.contains(&format!("resource_metadata=\"{METADATA_URL}\"")));
    assert_eq!(answer.code(), Some(AUTHENTICATION_REQUIRED.0));
    assert_eq!(answer.body["id"], json!(7), "the error answers the request");
}

#[tokio::test]
async fn a_request_without_a_token_gets_401_pointing_to_the_metadata() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    let answer = ask(&app, call("whoami", None)).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        answer.challenge.as_deref(),
        Some(
            format!(r#"Bearer resource_metadata="{METADATA_URL}", scope="notes:read notes:write""#)
                .as_str()
        )
    );
    assert_eq!(answer.body["jsonrpc"], "2.0");
    assert_eq!(answer.body["id"], json!(7));
    assert_eq!(answer.code(), Some(AUTHENTICATION_REQUIRED.0));
    assert_eq!(
        answer.body["error"]["data"]["wwwAuthenticate"].as_str(),
        answer.challenge.as_deref(),
        "a client that reads only the body learns the same"
    );
    // Another scheme is no bearer token.
    let basic = Request::from_parts(
        {
            let (mut parts, _) = call("whoami", None).into_parts();
            parts
                .headers
                .insert("authorization", "Basic YTpi".parse().unwrap());
            parts
        },
        Body::from(serde_json::to_vec(&call_body()).unwrap()),
    );
    assert_eq!(ask(&app, basic).await.status, StatusCode::UNAUTHORIZED);
}

fn call_body() -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "whoami", "arguments": {},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}})
}

#[tokio::test]
async fn a_valid_token_is_served_as_its_subject_with_its_scopes() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    let token = issuer.token("alice", "notes:read notes:write");
    let answer = ask(&app, call("whoami", Some(&token))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(text(&answer), "alice [notes:read notes:write]");
    // The scheme is matched without regard to case.
    let (mut parts, body) = call("whoami", None).into_parts();
    parts
        .headers
        .insert("authorization", format!("bearer {token}").parse().unwrap());
    let answer = ask(&app, Request::from_parts(parts, body)).await;
    assert_eq!(answer.status, StatusCode::OK);
}

#[tokio::test]
async fn an_expired_token_is_refused_and_one_within_the_leeway_is_not() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    let mut claims = issuer.claims("alice", "");
    claims["exp"] = json!(now() - 120);
    let answer = ask(&app, call("whoami", Some(&issuer.sign("k1", &claims)))).await;
    assert_refused(&answer, "the token expired");
    claims["exp"] = json!(now() - 5);
    let answer = ask(&app, call("whoami", Some(&issuer.sign("k1", &claims)))).await;
    assert_eq!(
        answer.status,
        StatusCode::OK,
        "5 s past expiry is within the 30 s leeway"
    );
    let mut claims = issuer.claims("alice", "");
    claims["nbf"] = json!(now() + 600);
    let answer = ask(&app, call("whoami", Some(&issuer.sign("k1", &claims)))).await;
    assert_refused(&answer, "not valid yet");
}

#[tokio::test]
async fn a_token_for_another_resource_is_refused() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    let mut claims = issuer.claims("alice", "");
    claims["aud"] = json!("https://other.example.test/mcp");
    let answer = ask(&app, call("whoami", Some(&issuer.sign("k1", &claims)))).await;
    assert_refused(&answer, "issued for another resource");
    claims["aud"] = json!(["https://other.example.test/mcp", RESOURCE]);
    let answer = ask(&app, call("whoami", Some(&issuer.sign("k1", &claims)))).await;
    assert_eq!(
        answer.status,
        StatusCode::OK,
        "an audience list naming this resource passes"
    );
    claims.as_object_mut().unwrap().remove("aud");
    let answer = ask(&app, call("whoami", Some(&issuer.sign("k1", &claims)))).await;
    assert_refused(&answer, "no `aud` claim");
}

#[tokio::test]
async fn a_token_from_another_issuer_is_refused() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    let mut claims = issuer.claims("alice", "");
    claims["iss"] = json!("https://evil.example.test");
    let answer = ask(&app, call("whoami", Some(&issuer.sign("k1", &claims)))).await;
    assert_refused(&answer, "issued by another issuer");
}

#[tokio::test]
async fn a_tampered_token_is_refused() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    let token = issuer.token("alice", "");
    let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
    let forged = issuer.token("mallory", "notes:write");
    parts[1] = forged.split('.').nth(1).unwrap().to_owned();
    let answer = ask(&app, call("whoami", Some(&parts.join(".")))).await;
    assert_refused(&answer, "signature does not verify");
    // Signed by a key the issuer never published, under a published key id.
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::ES256);
    header.kid = Some("k1".into());
    let evil = jsonwebtoken::EncodingKey::from_ec_pem(include_bytes!("keys/evil.pem")).unwrap();
    let token = jsonwebtoken::encode(&header, &issuer.claims("alice", ""), &evil).unwrap();
    let answer = ask(&app, call("whoami", Some(&token))).await;
    assert_refused(&answer, "signature does not verify");
}

/// Base64url without padding, as JWTs are written.
fn b64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[tokio::test]
async fn an_unsigned_token_is_refused() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    let header = b64(br#"{"alg":"none","typ":"JWT"}"#);
    let claims = b64(issuer.claims("alice", "notes:write").to_string().as_bytes());
    let answer = ask(&app, call("whoami", Some(&format!("{header}.{claims}.")))).await;
    assert_refused(&answer, "malformed");
}

#[tokio::test]
async fn a_token_signed_with_the_public_key_as_a_shared_secret_is_refused() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    // The classic confusion: HS256 keyed with what the issuer publishes.
    let public = support::jwk("k1").to_string();
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    header.kid = Some("k1".into());
    let key = jsonwebtoken::EncodingKey::from_secret(public.as_bytes());
    let token = jsonwebtoken::encode(&header, &issuer.claims("alice", ""), &key).unwrap();
    let answer = ask(&app, call("whoami", Some(&token))).await;
    assert_refused(&answer, "which this server does not accept");
    // Even with HS256 named in the accepted list, boot refuses it.
    let error = mcp_server::Server::builder()
        .without_environment()
        .setting("oauth.resource", RESOURCE)
        .setting("oauth.authorization_servers", json!([issuer.url]))
        .setting("oauth.jwks_uri", format!("{}/jwks", issuer.url))
        .setting("oauth.algorithms", json!(["ES256", "HS256"]))
        .try_build()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("error[mcp_oauth::invalid_configuration]")
            && error.contains("`HS256` is not an asymmetric JWS algorithm"),
        "{error}"
    );
}

#[tokio::test]
async fn a_token_of_a_new_key_is_accepted_once_the_issuer_publishes_it() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[("oauth.jwks_min_refresh_s", json!(0))]));
    let first = ask(&app, call("whoami", Some(&issuer.token("alice", "")))).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(
        issuer.fetches(),
        1,
        "the keys are fetched once, when first needed"
    );
    let rotated = issuer.sign("k2", &issuer.claims("bob", ""));
    let answer = ask(&app, call("whoami", Some(&rotated))).await;
    assert_refused(&answer, "no ES256 signing key `k2`");
    assert_eq!(
        issuer.fetches(),
        2,
        "an unknown key id fetches the keys again"
    );
    issuer.publish(&["k1", "k2"]);
    let answer = ask(&app, call("whoami", Some(&rotated))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(text(&answer), "bob []");
    assert_eq!(issuer.fetches(), 3);
    // Known keys are not fetched again.
    ask(&app, call("whoami", Some(&issuer.token("alice", "")))).await;
    assert_eq!(issuer.fetches(), 3);
}

#[tokio::test]
async fn tokens_naming_unknown_keys_fetch_the_keys_at_most_once_per_interval() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[("oauth.jwks_min_refresh_s", json!(1))]));
    ask(&app, call("whoami", Some(&issuer.token("alice", "")))).await;
    assert_eq!(issuer.fetches(), 1);
    let burst = |app: axum::Router| {
        let calls: Vec<_> = (0..20)
            .map(|i| {
                let token = issuer.sign("k2", &issuer.claims(&format!("user{i}"), ""));
                let app = app.clone();
                tokio::spawn(async move { ask(&app, call("whoami", Some(&token))).await.status })
            })
            .collect();
        async move {
            for call in calls {
                assert_eq!(call.await.unwrap(), StatusCode::UNAUTHORIZED);
            }
        }
    };
    burst(app.clone()).await;
    assert_eq!(
        issuer.fetches(),
        1,
        "the keys were fetched less than an interval ago"
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    burst(app.clone()).await;
    assert_eq!(
        issuer.fetches(),
        2,
        "twenty requests for an unknown key fetched the keys once between them"
    );
}

#[tokio::test]
async fn a_token_in_the_query_string_is_refused() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    let token = issuer.token("alice", "");
    let (mut parts, body) = call("whoami", Some(&token)).into_parts();
    parts.uri = format!("/mcp?access_token={token}").parse().unwrap();
    let answer = ask(&app, Request::from_parts(parts, body)).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.code(), Some(-32600));
    assert!(
        answer.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("query string")
    );
}

#[tokio::test]
async fn the_metadata_names_the_configured_resource_whatever_the_host() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let request = Request::get(path)
            .header("host", "attacker.example.test")
            .body(Body::empty())
            .unwrap();
        let answer = ask(&app, request).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert_eq!(
            answer.body,
            json!({
                "resource": RESOURCE,
                "authorization_servers": [issuer.url],
                "scopes_supported": ["notes:read", "notes:write"],
                "bearer_methods_supported": ["header"],
            })
        );
    }
}

#[tokio::test]
async fn the_keys_are_fetched_again_once_they_are_old() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[("oauth.jwks_ttl_s", json!(1))]));
    ask(&app, call("whoami", Some(&issuer.token("alice", "")))).await;
    assert_eq!(issuer.fetches(), 1);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let answer = ask(&app, call("whoami", Some(&issuer.token("alice", "")))).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(issuer.fetches(), 2);
}

#[tokio::test]
async fn readiness_needs_the_issuers_keys_once_and_never_shows_where_they_are() {
    let issuer = Issuer::start().await;
    let ready = server(&issuer, &[]);
    assert!(
        ready
            .report()
            .to_string()
            .contains("health check `oauth keys`")
    );
    let health = ready
        .health(mcp_server::seam::contributor::health::Probe::Readiness)
        .await;
    assert!(health.passes(), "{health:?}");
    assert_eq!(issuer.fetches(), 1, "fetched once by the check");
    let again = ready
        .health(mcp_server::seam::contributor::health::Probe::Readiness)
        .await;
    assert!(again.passes());
    assert_eq!(issuer.fetches(), 1, "held keys are not fetched again");

    // An issuer that cannot be reached: not ready, and the probe's JSON
    // names the check, never the URL.
    let unreachable = mcp_server::Server::builder()
        .without_environment()
        .setting("oauth.resource", RESOURCE)
        .setting("oauth.authorization_servers", json!([issuer.url]))
        .setting("oauth.jwks_uri", "http://127.0.0.1:9/jwks")
        .build();
    let health = unreachable
        .health(mcp_server::seam::contributor::health::Probe::Readiness)
        .await;
    assert!(!health.passes(), "{health:?}");
    let shown = serde_json::to_string(&health).unwrap();
    assert!(
        shown.contains("oauth keys") && !shown.contains("127.0.0.1:9"),
        "{shown}"
    );
}
