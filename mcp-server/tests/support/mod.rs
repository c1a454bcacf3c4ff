//! Helpers shared by the integration tests.
#![allow(dead_code, unreachable_pub)]

pub mod h2;
pub mod rounds;

use std::sync::{Arc, Mutex};

use mcp_server::BoxFuture;
use mcp_server::Server;
use mcp_server::auth::{Credentials, Principal};
use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonObject;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::Origin;
use mcp_server::seam::contributor::{Contributions, contributor_fn};
use mcp_server::seam::guard::{Decision, Guard, guard_fn};
use mcp_server::seam::interceptor::{
    HandlerCall, HandlerInterceptor, HandlerNext, RawAnswer, RawCall, RawInterceptor, RawNext,
    Settled,
};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::server::Builder;
use tokio::sync::Notify;

/// A tool named `name` with an object input schema.
pub fn tool(name: &str) -> Tool {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "object".into());
    Tool {
        name: name.into(),
        input_schema: schema,
        ..Default::default()
    }
}

/// Adds a tool that answers with its own name.
pub fn add_named_tool(c: &mut Contributions, name: &'static str) {
    c.tool(
        tool(name),
        handler_fn::<CallTool, _, _, _>(move |_, _| async move { Ok(CallToolResult::text(name)) }),
    );
}

/// A builder isolated from linked registrations, named `test`.
pub fn builder() -> Builder {
    Server::builder().named("test", "1.0.0").without_linked()
}

/// A builder with tools that answer with their names.
pub fn with_tools(names: &'static [&'static str]) -> Builder {
    builder().contributor(
        origin("app", 1),
        "tools",
        contributor_fn(move |c| {
            for name in names {
                add_named_tool(c, name);
            }
        }),
    )
}

/// A server with what `contribute` adds, from contributor `tools` of `app`.
pub fn server_with(contribute: impl Fn(&mut Contributions) + Send + Sync + 'static) -> Server {
    builder()
        .contributor(origin("app", 1), "tools", contributor_fn(contribute))
        .build()
}

/// Adds a tool `name` that answers with `text`.
pub fn add_text_tool(c: &mut Contributions, name: &str, text: &'static str) {
    c.tool(
        tool(name),
        handler_fn::<CallTool, _, _, _>(move |_, _| async move { Ok(CallToolResult::text(text)) }),
    );
}

/// Signals between a test and its tools.
#[derive(Clone, Default)]
pub struct Signals {
    pub started: Arc<Notify>,
    pub release: Arc<Notify>,
    pub cancelled: Arc<Notify>,
}

/// A fixed origin, for golden tests.
pub fn origin(crate_name: &'static str, line: u32) -> Origin {
    Origin {
        crate_name,
        crate_version: "0.1.0",
        module: crate_name,
        file: "src/lib.rs",
        line,
    }
}

/// Records what runs, in order.
#[derive(Debug, Clone, Default)]
pub struct Events(Arc<Mutex<Vec<String>>>);

impl Events {
    pub fn push(&self, event: impl Into<String>) {
        self.0.lock().unwrap().push(event.into());
    }

    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut self.0.lock().unwrap())
    }
}

/// A raw interceptor that records `before:NAME` and `after:NAME`.
pub struct RecordingRaw(pub &'static str, pub Events);

impl RawInterceptor for RecordingRaw {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        Box::pin(async move {
            self.1.push(format!("before:{}", self.0));
            let answer = next.run(call).await;
            self.1.push(format!("after:{}", self.0));
            answer
        })
    }
}

/// A handler-chain interceptor that records `NAME`.
pub struct RecordingStep(pub &'static str, pub Events);

impl HandlerInterceptor for RecordingStep {
    fn intercept<'a>(
        &'a self,
        call: HandlerCall<'a>,
        next: HandlerNext<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        Box::pin(async move {
            self.1.push(self.0);
            next.run(call).await
        })
    }
}

/// The bearer token names the caller; its tenant is the part before `-`
/// (`acme-ada` is of tenant `acme`).
pub struct Tenants;

impl PrincipalSource for Tenants {
    fn principal(&self, credentials: &Credentials) -> Arc<Principal> {
        Arc::new(match credentials.bearer() {
            Some(token) => Principal::named(token)
                .with_claim("tenant", token.split('-').next().unwrap_or_default()),
            None => Principal::anonymous(),
        })
    }
}

/// A guard that admits the callers of `tenant` only.
pub fn tenant_only(tenant: &'static str) -> impl Guard {
    guard_fn(format!("tenant-{tenant}"), move |ctx, _| {
        match ctx.principal().claim("tenant").and_then(|t| t.as_str()) {
            Some(t) if t == tenant => Decision::Allow,
            _ => Decision::deny("another tenant's member"),
        }
    })
}
