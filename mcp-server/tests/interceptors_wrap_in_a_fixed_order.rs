//! Raw interceptors wrap typed ones, typed ones wrap the handler chain, and
//! the chain runs its strata in their fixed order; within a seam, lower order
//! is outermost and ties break by name.

mod support;

use mcp_server::BoxFuture;
use mcp_server::RequestContext;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::tools::{CallTool, CallToolRequestParams, CallToolResult};
use mcp_server::seam::Item;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::interceptor::Scope;
use mcp_server::seam::interceptor::{
    AlternateResultInterceptor, Answer, Invocation, Settled, Stratum, TypedInterceptor, TypedNext,
};
use mcp_server::testing::MemoryClient;
use serde_json::json;
use support::{Events, RecordingRaw, RecordingStep, origin, with_tools};

struct RecordingTyped(&'static str, Events);

impl TypedInterceptor<CallTool> for RecordingTyped {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        params: CallToolRequestParams,
        next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        Box::pin(async move {
            self.1.push(format!("before:{}", self.0));
            let answer = next.run(params).await;
            self.1.push(format!("after:{}", self.0));
            answer
        })
    }
}

struct RecordingAlternate(Events);

impl AlternateResultInterceptor for RecordingAlternate {
    fn intercept<'a>(
        &'a self,
        invocation: Invocation<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        Box::pin(async move {
            self.0.push("alternate");
            invocation.proceed().await
        })
    }
}

struct Attach(Events);

impl HandlerCustomizer<mcp_server::core::tools::Tool> for Attach {
    fn customize(&self, config: &mut HandlerConfig<mcp_server::core::tools::Tool>) {
        let events = self.0.clone();
        config.add_guard(guard_fn("recording-guard", move |_, _| {
            events.push("guards");
            Decision::Allow
        }));
        config.add_interceptor(
            Stratum::Validation,
            0,
            "validate",
            RecordingStep("VALIDATION", self.0.clone()),
        );
        config.add_interceptor(
            Stratum::Correlation,
            0,
            "correlate",
            RecordingStep("CORRELATION", self.0.clone()),
        );
    }
}

#[tokio::test]
async fn every_layer_runs_once_in_the_documented_order() {
    let events = Events::default();
    let e = || events.clone();
    let step = |stratum, name: &'static str| {
        Item::handler_interceptor(stratum, Scope::All, RecordingStep(name, e()))
    };
    let server = with_tools(&["echo"])
        // Registered out of order on purpose: boot sorts by order, then name.
        .register(
            origin("obs", 1),
            "raw-b",
            20,
            Item::raw_interceptor(RecordingRaw("raw-b", e())),
        )
        .register(
            origin("obs", 2),
            "raw-a",
            10,
            Item::raw_interceptor(RecordingRaw("raw-a", e())),
        )
        .register(
            origin("obs", 3),
            "raw-c",
            10,
            Item::raw_interceptor(RecordingRaw("raw-c", e())),
        )
        .register(
            origin("obs", 4),
            "typed",
            0,
            Item::typed::<CallTool>(RecordingTyped("typed", e())),
        )
        .register(
            origin("obs", 5),
            "invoke",
            0,
            step(Stratum::Invocation, "INVOCATION"),
        )
        .register(origin("obs", 6), "audit", 0, step(Stratum::Audit, "AUDIT"))
        .register(
            origin("obs", 7),
            "authz",
            0,
            step(Stratum::Authorization, "AUTHORIZATION"),
        )
        .register(
            origin("obs", 8),
            "observe",
            0,
            step(Stratum::Observation, "OBSERVATION"),
        )
        .register(
            origin("obs", 9),
            "alt",
            0,
            Item::alternate_result_interceptor(RecordingAlternate(e())),
        )
        .register(
            origin("obs", 10),
            "attach",
            0,
            Item::customizer::<mcp_server::core::tools::Tool>(Attach(e())),
        )
        .build();
    MemoryClient::new(&server)
        .call_tool("echo", json!({}))
        .await
        .unwrap();
    assert_eq!(
        events.take(),
        [
            "before:raw-a",
            "before:raw-c",
            "before:raw-b",
            "before:typed",
            "CORRELATION",
            "OBSERVATION",
            "AUDIT",
            "guards",
            "AUTHORIZATION",
            "VALIDATION",
            "INVOCATION",
            "alternate",
            "after:typed",
            "after:raw-b",
            "after:raw-c",
            "after:raw-a",
        ]
    );
}

#[tokio::test]
async fn the_boot_report_shows_each_chain_in_the_order_it_runs() {
    let events = Events::default();
    let server = with_tools(&["echo"])
        .register(
            origin("obs", 1),
            "audit",
            0,
            Item::handler_interceptor(
                Stratum::Audit,
                Scope::Method("tools/call"),
                RecordingStep("AUDIT", events.clone()),
            ),
        )
        .register(
            origin("obs", 2),
            "attach",
            0,
            Item::customizer::<mcp_server::core::tools::Tool>(Attach(events.clone())),
        )
        .build();
    let report = server.report();
    let call = report
        .methods
        .iter()
        .find(|m| m.method == "tools/call")
        .unwrap();
    let chain: Vec<&str> = call.handlers[0]
        .chain
        .iter()
        .map(|s| s.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        chain,
        [
            "CORRELATION",
            "AUDIT",
            "AUTHORIZATION",
            "VALIDATION",
            "HANDLER"
        ]
    );
    // The scoped interceptor is not in other methods' chains.
    let list = report
        .methods
        .iter()
        .find(|m| m.method == "tools/list")
        .unwrap();
    assert_eq!(list.handlers[0].chain.len(), 1);
}

/// What a second extension can do to a first one's interceptors: register
/// its own under the same names and orders, and customize the same tool.
struct Shadow(Events);

impl HandlerCustomizer<mcp_server::core::tools::Tool> for Shadow {
    fn customize(&self, config: &mut HandlerConfig<mcp_server::core::tools::Tool>) {
        config.add_interceptor(
            Stratum::Validation,
            0,
            "validate",
            RecordingStep("VALIDATION-shadow", self.0.clone()),
        );
    }
}

#[tokio::test]
async fn an_extension_adds_beside_anothers_interceptors_and_never_removes_or_reorders_them() {
    let events = Events::default();
    let e = || events.clone();
    let first = |b: mcp_server::server::Builder| {
        b.register(
            origin("first", 1),
            "audit",
            10,
            Item::raw_interceptor(RecordingRaw("raw-first", e())),
        )
        .register(
            origin("first", 2),
            "attach",
            0,
            Item::customizer::<mcp_server::core::tools::Tool>(Attach(e())),
        )
    };
    let second = |b: mcp_server::server::Builder| {
        // The same registration name, the same order, an earlier line: the
        // most a registration can do to take the first one's place.
        b.register(
            origin("second", 0),
            "audit",
            10,
            Item::raw_interceptor(RecordingRaw("raw-second", e())),
        )
        .register(
            origin("second", 0),
            "shadow",
            -100,
            Item::customizer::<mcp_server::core::tools::Tool>(Shadow(e())),
        )
    };
    // Whichever registers first, both run, the first extension's members
    // in their places: a tie is broken by origin, never by who came last.
    for second_first in [false, true] {
        let builder = with_tools(&["echo"]);
        let builder = if second_first {
            first(second(builder))
        } else {
            second(first(builder))
        };
        let server = builder.build();
        MemoryClient::new(&server)
            .call_tool("echo", json!({}))
            .await
            .unwrap();
        let ran: Vec<String> = events
            .take()
            .into_iter()
            .filter(|e| !e.starts_with("after:"))
            .collect();
        assert_eq!(
            ran,
            [
                "before:raw-first",
                "before:raw-second",
                "CORRELATION",
                "guards",
                "VALIDATION",
                "VALIDATION-shadow",
            ],
            "second registered first: {second_first}"
        );
    }
}
