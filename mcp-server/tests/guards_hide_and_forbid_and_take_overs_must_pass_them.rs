//! A guard decides both visibility and invocation; an interceptor that
//! answers in place of a handler must pass that handler's guards first.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_server::core::error::ErrorObject;
use mcp_server::core::tools::{CallTool, CallToolRequestParams, CallToolResult, Tool};
use mcp_server::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::error::FORBIDDEN;
use mcp_server::guard::{Decision, guard_fn};
use mcp_server::handler::BoxFuture;
use mcp_server::interceptor::{Answer, TypedInterceptor, TypedNext};
use mcp_server::memory::MemoryClient;
use mcp_server::registry::Item;
use mcp_server::source::{Credentials, Principal, PrincipalSource};
use mcp_server::{Reply, RequestContext};
use serde_json::json;
use support::{origin, with_tools};

/// Admin-only tools are those whose name starts with `admin_`.
struct AdminOnly;

impl HandlerCustomizer<Tool> for AdminOnly {
    fn customize(&self, config: &mut HandlerConfig<Tool>) {
        if config.descriptor().name.starts_with("admin_") {
            config.add_guard(guard_fn("admins-only", |ctx, _| {
                if ctx.principal().has_role("admin") {
                    Decision::Allow
                } else {
                    Decision::deny("admins only")
                }
            }));
        }
    }
}

/// `Bearer admin` is an admin; anyone else is anonymous.
struct Tokens;

impl PrincipalSource for Tokens {
    fn principal(&self, credentials: &Credentials) -> Arc<Principal> {
        match credentials.bearer() {
            Some("admin") => Arc::new(Principal::named("root").with_role("admin")),
            _ => Arc::new(Principal::anonymous()),
        }
    }
}

/// Answers every call from a cache, counting each answer it gives: a side effect.
struct Cache(Arc<AtomicUsize>);

impl TypedInterceptor<CallTool> for Cache {
    fn intercept<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: CallToolRequestParams,
        next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        Box::pin(async move {
            let authorized = next.authorize(ctx, &params)?;
            self.0.fetch_add(1, Ordering::SeqCst);
            Ok(authorized.answer(Reply::Complete(CallToolResult::text("from cache"))))
        })
    }
}

fn server(take_over: Option<Arc<AtomicUsize>>) -> mcp_server::Server {
    let mut builder = with_tools(&["admin_reset", "hello"])
        .register(
            origin("auth", 1),
            "admin-only",
            0,
            Item::CallToolCustomizer(Arc::new(AdminOnly)),
        )
        .register(
            origin("auth", 2),
            "tokens",
            0,
            Item::PrincipalSource(Arc::new(Tokens)),
        );
    if let Some(counter) = take_over {
        builder = builder.register(
            origin("cache", 1),
            "cache",
            0,
            Item::typed::<CallTool>(Cache(counter)),
        );
    }
    builder.build()
}

#[tokio::test]
async fn a_denied_tool_is_absent_from_the_list() {
    let server = server(None);
    let anonymous = MemoryClient::new(&server);
    let names: Vec<String> = anonymous
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, ["hello"]);
    let admin = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("admin"));
    assert_eq!(admin.list_tools().await.unwrap().len(), 2);
}

#[tokio::test]
async fn a_denied_call_fails_with_forbidden_and_the_reason() {
    let server = server(None);
    let error = MemoryClient::new(&server)
        .call_tool("admin_reset", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code, FORBIDDEN);
    assert_eq!(
        error.message,
        "Forbidden: the caller may not use tool `admin_reset`"
    );
    assert_eq!(error.data.unwrap()["reason"], "admins only");
    let admin = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("admin"));
    assert!(admin.call_tool("admin_reset", json!({})).await.is_ok());
}

#[tokio::test]
async fn a_take_over_by_a_denied_caller_has_no_side_effect() {
    let counter = Arc::new(AtomicUsize::new(0));
    let server = server(Some(counter.clone()));
    let error = MemoryClient::new(&server)
        .call_tool("admin_reset", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code, FORBIDDEN);
    assert_eq!(
        counter.load(Ordering::SeqCst),
        0,
        "the take-over ran for a denied caller"
    );
}

#[tokio::test]
async fn a_take_over_by_an_allowed_caller_answers_in_place_of_the_handler() {
    let counter = Arc::new(AtomicUsize::new(0));
    let server = server(Some(counter.clone()));
    let admin = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("admin"));
    assert_eq!(
        admin
            .call_tool("admin_reset", json!({}))
            .await
            .unwrap()
            .content,
        CallToolResult::text("from cache").content
    );
    assert_eq!(counter.load(Ordering::SeqCst), 1);
}
