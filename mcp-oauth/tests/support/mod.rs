//! An authorization server for the tests, on a local port: it publishes
//! its keys (JWKS), signs ES256 tokens with them, and introspects opaque
//! tokens; and the server under test, configured to trust it.

#![allow(dead_code, unreachable_pub)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::routing::{get, post};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_server::Server;
use mcp_tests::http::{VERSION, json_of, post_modern, send};
use serde_json::{Value, json};

/// The resource URI the server under test is configured with.
pub const RESOURCE: &str = "https://mcp.example.test/mcp";

/// Where its metadata is.
pub const METADATA_URL: &str = "https://mcp.example.test/.well-known/oauth-protected-resource/mcp";

/// The public coordinates of the test keys, as `openssl` printed them.
const PUBLIC: &[(&str, &str, &str)] = &[
    (
        "k1",
        "hPr68GzHdJBaV5O9yP-tZwmOWzg6JWPlSsvjtoexV24",
        "HcPqGvHFQSVQkKM0_HIgt6IgcVJSjY6e3ZLDsCmaI_U",
    ),
    (
        "k2",
        "Sx7F8TD_GkmbkFL3PRi9iuvSAP7CtiKi4ySpwUVUvUc",
        "ZPzz9WXK5qYNKcAzBM9aCIRFYouQBhgjlNvhdEKbXok",
    ),
    (
        "evil",
        "uZjM2EaQ2weZQb7NY5C6gfh7_BIB7XxYjkoeCiaO6JA",
        "jQgQay6RxRnEd1cLqBJm6rc-9BW1bbySMmqWnGbNp6g",
    ),
];

fn pem(kid: &str) -> &'static [u8] {
    match kid {
        "k1" => include_bytes!("../keys/k1.pem"),
        "k2" => include_bytes!("../keys/k2.pem"),
        "evil" => include_bytes!("../keys/evil.pem"),
        other => panic!("no test key `{other}`"),
    }
}

/// The JWK of test key `kid`.
pub fn jwk(kid: &str) -> Value {
    let (_, x, y) = PUBLIC.iter().find(|(k, _, _)| *k == kid).unwrap();
    json!({"kty": "EC", "crv": "P-256", "x": x, "y": y, "kid": kid, "use": "sig", "alg": "ES256"})
}

#[derive(Default)]
struct State {
    published: Mutex<Vec<String>>,
    fetches: AtomicUsize,
    opaque: Mutex<HashMap<String, Value>>,
    introspections: AtomicUsize,
}

/// The test authorization server.
pub struct Issuer {
    /// Its base URL, also the issuer (`iss`) of its tokens.
    pub url: String,
    state: Arc<State>,
}

impl Issuer {
    /// Starts one on a free local port, publishing key `k1`.
    pub async fn start() -> Self {
        let state = Arc::new(State::default());
        state.published.lock().unwrap().push("k1".into());
        let jwks = {
            let state = state.clone();
            move || {
                let state = state.clone();
                async move {
                    state.fetches.fetch_add(1, Ordering::SeqCst);
                    let keys: Vec<Value> = state
                        .published
                        .lock()
                        .unwrap()
                        .iter()
                        .map(|k| jwk(k))
                        .collect();
                    json_response(&json!({ "keys": keys }))
                }
            }
        };
        let introspect = {
            let state = state.clone();
            move |body: String| {
                let state = state.clone();
                async move {
                    state.introspections.fetch_add(1, Ordering::SeqCst);
                    let token = body
                        .split('&')
                        .find_map(|pair| pair.strip_prefix("token="))
                        .unwrap_or_default()
                        .to_owned();
                    let answer = state.opaque.lock().unwrap().get(&token).cloned();
                    json_response(&answer.unwrap_or(json!({"active": false})))
                }
            }
        };
        let app = Router::new()
            .route("/jwks", get(jwks))
            .route("/introspect", post(introspect));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { url, state }
    }

    /// Publishes exactly these keys from now on.
    pub fn publish(&self, kids: &[&str]) {
        *self.state.published.lock().unwrap() = kids.iter().map(|k| (*k).to_owned()).collect();
    }

    /// How many times its keys were fetched.
    pub fn fetches(&self) -> usize {
        self.state.fetches.load(Ordering::SeqCst)
    }

    /// How many tokens it was asked about.
    pub fn introspections(&self) -> usize {
        self.state.introspections.load(Ordering::SeqCst)
    }

    /// Claims that pass: this issuer, this resource, an hour to live.
    pub fn claims(&self, subject: &str, scope: &str) -> Value {
        json!({
            "iss": self.url, "aud": RESOURCE, "sub": subject, "scope": scope,
            "iat": now(), "exp": now() + 3600,
        })
    }

    /// `claims` signed with key `kid` (ES256, `kid` in the header).
    pub fn sign(&self, kid: &str, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(kid.to_owned());
        let key = EncodingKey::from_ec_pem(pem(kid)).unwrap();
        jsonwebtoken::encode(&header, claims, &key).unwrap()
    }

    /// A valid token for `subject` with `scope`, signed with `k1`.
    pub fn token(&self, subject: &str, scope: &str) -> String {
        self.sign("k1", &self.claims(subject, scope))
    }

    /// Makes `token` an opaque token whose introspection answers `answer`.
    pub fn opaque(&self, token: &str, answer: Value) {
        self.state
            .opaque
            .lock()
            .unwrap()
            .insert(token.to_owned(), answer);
    }
}

/// A JSON answer of the test issuer.
fn json_response(value: &Value) -> ([(&'static str, &'static str); 1], String) {
    ([("content-type", "application/json")], value.to_string())
}

/// Seconds since the epoch.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The server under test (everything linked: the test's tools and
/// mcp-oauth), trusting `issuer`, with `extra` settings.
pub fn server(issuer: &Issuer, extra: &[(&str, Value)]) -> Server {
    let mut builder = Server::builder()
        .without_environment()
        .setting("oauth.resource", RESOURCE)
        .setting("oauth.authorization_servers", json!([issuer.url]))
        .setting("oauth.jwks_uri", format!("{}/jwks", issuer.url))
        .setting(
            "oauth.scopes_supported",
            json!(["notes:read", "notes:write"]),
        );
    for (key, value) in extra {
        builder = builder.setting(key, value.clone());
    }
    builder.build()
}

/// The endpoint's router.
pub fn app(server: Server) -> Router {
    mcp_server::transport::http::router(server, "/mcp", Default::default())
}

/// A modern request of `method` naming `name`, with `token` if any.
pub fn request(
    method: &str,
    name: Option<&str>,
    params: Value,
    token: Option<&str>,
) -> Request<Body> {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    bearing(post_modern(method, name, &body), token)
}

/// `request` with `token`, if any, as its bearer token.
pub fn bearing(mut request: Request<Body>, token: Option<&str>) -> Request<Body> {
    if let Some(token) = token {
        request
            .headers_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
    }
    request
}

/// A `tools/call` of `tool` with `token`.
pub fn call(tool: &str, token: Option<&str>) -> Request<Body> {
    request(
        "tools/call",
        Some(tool),
        json!({"name": tool, "arguments": {}}),
        token,
    )
}

/// A `tools/list` with `token`.
pub fn list(token: Option<&str>) -> Request<Body> {
    request("tools/list", None, json!({}), token)
}

/// What the endpoint answered: status, `WWW-Authenticate`, JSON body.
pub struct Answer {
    pub status: StatusCode,
    pub challenge: Option<String>,
    pub body: Value,
}

impl Answer {
    /// The JSON-RPC error code, if the body is an error.
    pub fn code(&self) -> Option<i64> {
        self.body["error"]["code"].as_i64()
    }

    /// The names of the tools a list answer holds.
    pub fn tools(&self) -> Vec<String> {
        self.body["result"]["tools"]
            .as_array()
            .unwrap_or(&Vec::new())
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    }
}

/// Sends `request` to `app`; what it answered.
pub async fn ask(app: &Router, request: Request<Body>) -> Answer {
    let response = send(app, request).await;
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned());
    let (status, body) = json_of(response).await;
    Answer {
        status,
        challenge,
        body,
    }
}
