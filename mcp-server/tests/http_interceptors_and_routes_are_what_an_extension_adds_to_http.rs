//! What an extension adds to the HTTP transport: interceptors that run on
//! each request to the endpoint before its message is read (answering it
//! themselves, reading `Mcp-Method` and `Mcp-Name`, attaching values its
//! handlers read) and on each response's head without waiting for a
//! streamed body; and routes for any method beside or beneath the
//! endpoint. An application's own tower layer does the same from outside.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{HeaderValue, Request, StatusCode, response};
use axum::response::{IntoResponse, Response};
use mcp_server::BoxFuture;
use mcp_server::auth::Principal;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::Item;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::server::Builder;
use mcp_server::transport::http::{HttpConfig, HttpInbound, HttpInterceptor, Route, router};
use mcp_tests::http::{Events as SseEvents, call_body, headers, json_body, post_bytes, send};
use serde_json::{Value, json};
use support::{Events, builder, origin, tool};
use tokio::sync::Notify;

/// Records `before:NAME` and `after:NAME`; refuses with 401 and a header
/// of its own when its refusal is set and `Mcp-Name` names `vault`.
struct Gate {
    name: &'static str,
    events: Events,
    refuse_vault: bool,
}

impl HttpInterceptor for Gate {
    fn before<'a>(&'a self, request: &'a mut HttpInbound) -> BoxFuture<'a, Result<(), Response>> {
        Box::pin(async move {
            self.events.push(format!(
                "before:{} {} {} {:?} {:?}",
                self.name,
                request.method(),
                request.path(),
                request.mcp_method(),
                request.mcp_name()
            ));
            if self.refuse_vault && request.mcp_name() == Some("vault") {
                let mut refusal =
                    (StatusCode::UNAUTHORIZED, "the vault needs a badge").into_response();
                refusal.headers_mut().insert(
                    "www-authenticate",
                    HeaderValue::from_static("Badge realm=\"vault\""),
                );
                return Err(refusal);
            }
            Ok(())
        })
    }

    fn after(&self, head: &mut response::Parts) {
        self.events.push(format!("after:{}", self.name));
        head.headers
            .append("x-gate", HeaderValue::from_static(self.name));
    }
}

/// A value an interceptor attaches for the handlers.
#[derive(Clone)]
struct Tenant(String);

/// Attaches the tenant `X-Tenant` names, and a forged administrator.
struct Tenancy;

impl HttpInterceptor for Tenancy {
    fn before<'a>(&'a self, request: &'a mut HttpInbound) -> BoxFuture<'a, Result<(), Response>> {
        Box::pin(async move {
            if let Some(tenant) = request
                .headers()
                .get("x-tenant")
                .and_then(|v| v.to_str().ok())
            {
                let tenant = Tenant(tenant.to_owned());
                request.attach(tenant);
            }
            let mut admin = Principal::anonymous();
            admin.subject = Some("root".into());
            admin.roles.insert("admin".into());
            request.attach(Arc::new(admin));
            Ok(())
        })
    }
}

/// Hides the tool it customizes from every caller but administrators.
struct AdminsOnly;

impl HandlerCustomizer<mcp_server::core::tools::Tool> for AdminsOnly {
    fn customize(&self, config: &mut HandlerConfig<mcp_server::core::tools::Tool>) {
        config.add_guard(guard_fn("admins", |ctx, _| {
            if ctx.principal().roles.contains("admin") {
                Decision::Allow
            } else {
                Decision::deny("administrators only")
            }
        }));
    }
}

/// What the tools did.
#[derive(Clone, Default)]
struct Seen {
    vault_calls: Arc<AtomicUsize>,
    progressed: Arc<Notify>,
    release: Arc<Notify>,
}

fn server(seen: &Seen) -> Builder {
    let seen = seen.clone();
    builder().contributor(
        origin("app", 1),
        "tools",
        contributor_fn(move |c| {
            let vault = seen.vault_calls.clone();
            c.tool(
                tool("vault"),
                handler_fn::<CallTool, _, _, _>(move |_, _| {
                    vault.fetch_add(1, Ordering::SeqCst);
                    async { Ok(CallToolResult::text("gold")) }
                }),
            );
            c.tool(
                tool("whoami"),
                handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                    let tenant = ctx.get::<Tenant>().map_or("none".to_owned(), |t| t.0);
                    Ok(CallToolResult::text(format!(
                        "{tenant} as {}",
                        ctx.principal().subject.as_deref().unwrap_or("anonymous")
                    )))
                }),
            );
            c.tool(
                tool("admin"),
                handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("keys")) }),
            );
            let (progressed, release) = (seen.progressed.clone(), seen.release.clone());
            c.tool(
                tool("slow"),
                handler_fn::<CallTool, _, _, _>(move |ctx, _| {
                    let (progressed, release) = (progressed.clone(), release.clone());
                    async move {
                        ctx.progress().report(1.0, Some(2.0), Some("half"));
                        progressed.notify_one();
                        release.notified().await;
                        Ok(CallToolResult::text("done"))
                    }
                }),
            );
        }),
    )
}

fn gate(name: &'static str, events: &Events, refuse_vault: bool) -> Item {
    Item::http_interceptor(Gate {
        name,
        events: events.clone(),
        refuse_vault,
    })
}

fn call(id: i64, name: &str) -> Request<Body> {
    post_bytes(
        &headers("tools/call", Some(name)),
        serde_json::to_vec(&call_body(id, name)).unwrap(),
    )
}

async fn text_of(app: &Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = send(app, request).await;
    let status = response.status();
    (status, json_body(response).await)
}

#[tokio::test]
async fn an_http_interceptor_answers_from_the_headers_before_the_body_is_read() {
    let (seen, events) = (Seen::default(), Events::default());
    let server = server(&seen)
        .register(origin("acme", 2), "gate", 0, gate("gate", &events, true))
        .build();
    let app = router(server, "/mcp", HttpConfig::default());
    // The body is not even JSON: the refusal comes from the headers alone.
    let request = post_bytes(&headers("tools/call", Some("vault")), b"{not json".to_vec());
    let response = send(&app, request).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        response.headers()["www-authenticate"],
        "Badge realm=\"vault\""
    );
    assert!(
        response.headers().get("x-gate").is_none(),
        "the refusing member wrote its own response: its after does not run"
    );
    let body = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    assert_eq!(&body[..], b"the vault needs a badge");
    assert_eq!(seen.vault_calls.load(Ordering::SeqCst), 0);
    assert_eq!(
        events.take(),
        ["before:gate POST /mcp Some(\"tools/call\") Some(\"vault\")"]
    );
    // Any other tool passes, through the whole pipeline.
    let (status, body) = text_of(&app, call(2, "whoami")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["result"]["content"][0]["text"], "none as anonymous");
}

#[tokio::test]
async fn interceptors_run_in_order_and_their_after_in_reverse_for_those_that_passed() {
    let (seen, events) = (Seen::default(), Events::default());
    let server = server(&seen)
        // Registered out of order; ties in order are broken by name.
        .register(origin("acme", 3), "c-refuses", 5, gate("c", &events, true))
        .register(origin("acme", 2), "b", 1, gate("b", &events, false))
        .register(origin("acme", 1), "a", 1, gate("a", &events, false))
        .build();
    let app = router(server, "/mcp", HttpConfig::default());
    let response = send(&app, call(1, "vault")).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let gates: Vec<_> = response.headers().get_all("x-gate").iter().collect();
    assert_eq!(gates, ["b", "a"], "c refused, so its after did not run");
    let order: Vec<String> = events
        .take()
        .into_iter()
        .map(|e| e.split(' ').next().unwrap().to_owned())
        .collect();
    assert_eq!(
        order,
        ["before:a", "before:b", "before:c", "after:b", "after:a"]
    );
    assert_eq!(seen.vault_calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_value_an_http_interceptor_attaches_reaches_the_handler_in_both_eras() {
    let seen = Seen::default();
    let server = server(&seen)
        .register(
            origin("acme", 2),
            "tenancy",
            0,
            Item::http_interceptor(Tenancy),
        )
        .build();
    let app = router(server, "/mcp", HttpConfig::default());
    let mut request = call(1, "whoami");
    request
        .headers_mut()
        .insert("x-tenant", HeaderValue::from_static("acme"));
    let (status, body) = text_of(&app, request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // The attached tenant arrives; the attached principal is a value like
    // any other, never who the caller is.
    assert_eq!(body["result"]["content"][0]["text"], "acme as anonymous");

    // A legacy session's request carries what its own POST attached.
    let session = mcp_tests::http::initialize(&app).await;
    let mut request = mcp_tests::http::post(
        Some(&session),
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "whoami", "arguments": {}}}),
    );
    request
        .headers_mut()
        .insert("x-tenant", HeaderValue::from_static("globex"));
    let (status, body) = text_of(&app, request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["result"]["content"][0]["text"], "globex as anonymous");
}

#[tokio::test]
async fn an_attached_principal_passes_no_guard_and_reveals_no_hidden_tool() {
    let seen = Seen::default();
    let guarded = |with_interceptor: bool| {
        let mut builder = server(&seen).register(
            origin("acme", 3),
            "admins-only",
            0,
            Item::customizer_for::<mcp_server::core::tools::Tool>("admin", AdminsOnly),
        );
        if with_interceptor {
            builder = builder.register(
                origin("acme", 2),
                "tenancy",
                0,
                Item::http_interceptor(Tenancy),
            );
        }
        router(builder.build(), "/mcp", HttpConfig::default())
    };
    let (with, without) = (guarded(true), guarded(false));
    let refused = text_of(&with, call(1, "admin")).await;
    let unknown = text_of(&without, call(1, "admin")).await;
    assert_eq!(
        refused, unknown,
        "the same answer as without the interceptor"
    );
    assert_eq!(refused.1["error"]["code"], -32602, "{:?}", refused.1);
    let list = post_bytes(
        &headers("tools/list", None),
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list",
            "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                  "io.modelcontextprotocol/clientCapabilities": {}}}}))
        .unwrap(),
    );
    let (_, listed) = text_of(&with, list).await;
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(!names.contains(&"admin"), "{names:?}");
}

#[tokio::test]
async fn after_sees_a_streamed_responses_head_while_its_call_still_runs() {
    let (seen, events) = (Seen::default(), Events::default());
    let server = server(&seen)
        .register(origin("acme", 2), "gate", 0, gate("gate", &events, false))
        .build();
    let app = router(server, "/mcp", HttpConfig::default());
    let mut body = call_body(1, "slow");
    body["params"]["_meta"]["progressToken"] = "tok".into();
    let request = post_bytes(
        &headers("tools/call", Some("slow")),
        serde_json::to_vec(&body).unwrap(),
    );
    // The head arrives, marked by the interceptor, while the tool waits.
    let response = send(&app, request).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    assert_eq!(response.headers()["x-gate"], "gate");
    assert_eq!(events.take().last().unwrap(), "after:gate");
    let mut stream = SseEvents::unchecked(response);
    let progress = stream.next().await.unwrap().json();
    assert_eq!(progress["method"], "notifications/progress");
    seen.release.notify_one();
    let result = stream.next().await.unwrap().json();
    assert_eq!(result["result"]["content"][0]["text"], "done");
}

#[tokio::test]
async fn a_route_serves_any_method_with_its_own_status_headers_and_body_beside_the_endpoint() {
    let (seen, events) = (Seen::default(), Events::default());
    let card = Route::new(
        "/mcp/server-card",
        axum::routing::get(|| async { (StatusCode::OK, [("x-card", "1")], "{\"name\":\"test\"}") })
            .options(|| async { (StatusCode::NO_CONTENT, [("allow", "GET, OPTIONS")]) })
            .post(|| async { (StatusCode::IM_A_TEAPOT, "short and stout") }),
    )
    .unwrap();
    let server = server(&seen)
        .register(origin("acme", 2), "card", 0, Item::route(card))
        .register(origin("acme", 3), "gate", 0, gate("gate", &events, true))
        .build();
    let app = router(server, "/mcp", HttpConfig::default());
    let get = send(
        &app,
        Request::get("/mcp/server-card")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(get.status(), StatusCode::OK);
    assert_eq!(get.headers()["x-card"], "1");
    assert!(
        get.headers().get("x-gate").is_none(),
        "routes are outside the interceptors"
    );
    let options = send(
        &app,
        Request::options("/mcp/server-card")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(options.status(), StatusCode::NO_CONTENT);
    assert_eq!(options.headers()["allow"], "GET, OPTIONS");
    let post = send(
        &app,
        Request::post("/mcp/server-card")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(post.status(), StatusCode::IM_A_TEAPOT);
    let body = to_bytes(post.into_body(), usize::MAX).await.unwrap();
    assert_eq!(&body[..], b"short and stout");
    // The endpoint beside it still serves.
    let (status, body) = text_of(&app, call(1, "whoami")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(events.take().iter().all(|e| !e.contains("server-card")));
}

#[test]
fn a_route_and_a_document_at_one_path_fail_boot_naming_both() {
    let route = Route::new(
        "/.well-known/card",
        axum::routing::get(|| async { "route" }),
    )
    .unwrap();
    let document =
        mcp_server::transport::http::Document::new("/.well-known/card", "text/plain", "document")
            .unwrap();
    let error = builder()
        .register(origin("acme", 7), "card-route", 0, Item::route(route))
        .register(
            origin("globex", 9),
            "card-document",
            0,
            Item::route(document),
        )
        .try_build()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("error[mcp::duplicate_http_route]"),
        "{error}"
    );
    assert!(
        error.contains("acme") && error.contains("globex"),
        "{error}"
    );
    assert!(Route::new("relative", axum::routing::get(|| async {})).is_err());
}

#[tokio::test]
async fn an_applications_tower_layer_answers_from_mcp_method_before_the_endpoint() {
    let seen = Seen::default();
    let app = router(server(&seen).build(), "/mcp", HttpConfig::default()).layer(
        axum::middleware::from_fn(
            |request: axum::extract::Request, next: axum::middleware::Next| async move {
                if request
                    .headers()
                    .get("mcp-name")
                    .is_some_and(|n| n == "vault")
                {
                    return (StatusCode::FORBIDDEN, [("x-policy", "no-vault")]).into_response();
                }
                next.run(request).await
            },
        ),
    );
    let response = send(&app, call(1, "vault")).await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert_eq!(response.headers()["x-policy"], "no-vault");
    assert_eq!(seen.vault_calls.load(Ordering::SeqCst), 0);
    let (status, _) = text_of(&app, call(2, "whoami")).await;
    assert_eq!(status, StatusCode::OK);
}
