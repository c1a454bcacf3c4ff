//! An alternate-result interceptor wraps the invocation of any method's
//! handler: the ordinary interceptors and guards run exactly once before it
//! decides, a denied caller never reaches it, and the invocation it defers
//! runs the handler later.

mod support;

use std::sync::{Arc, Mutex};

use mcp_server::BoxFuture;
use mcp_server::core::error::{ErrorCode, ErrorObject};
use mcp_server::core::json::JsonObject;
use mcp_server::core::result::{EmptyResult, ResultType};
use mcp_server::handler::AlternateResult;
use mcp_server::handler::handler_fn;
use mcp_server::seam::Item;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer, MethodDescriptor};
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::interceptor::Scope;
use mcp_server::seam::interceptor::{
    AlternateResultInterceptor, DeferredInvocation, Invocation, Settled, Stratum,
};
use mcp_server::testing::MemoryClient;
use mcp_server::{Method, Params};
use serde::{Deserialize, Serialize};
use serde_json::json;
use support::{Events, RecordingStep, origin, with_tools};

/// Turns every call whose target name mentions `slow` into a "job".
struct Jobs(Arc<Mutex<Vec<DeferredInvocation>>>, Events);

impl AlternateResultInterceptor for Jobs {
    fn intercept<'a>(
        &'a self,
        invocation: Invocation<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        Box::pin(async move {
            self.1.push("alternate");
            if !invocation.target().name.contains("slow") {
                return invocation.proceed().await;
            }
            let mut body = JsonObject::new();
            body.insert("jobId".into(), json!("job-1"));
            let proof = invocation.authorized();
            self.0.lock().unwrap().push(invocation.defer());
            Ok(proof.alternate(AlternateResult {
                result_type: ResultType::from_static("job"),
                body,
            }))
        })
    }
}

/// `vendor/slow_sum`: a contributed method.
#[derive(Method)]
#[mcp(name = "vendor/slow_sum", params = SumParams, result = EmptyResult)]
struct SlowSum;

#[derive(Debug, Serialize, Deserialize, Params)]
struct SumParams {
    a: i64,
    b: i64,
}

struct DenyAnonymous;
impl HandlerCustomizer<MethodDescriptor> for DenyAnonymous {
    fn customize(&self, config: &mut HandlerConfig<'_, MethodDescriptor>) {
        config.add_guard(guard_fn("signed-in", |ctx, _| {
            if ctx.principal().is_authenticated() {
                Decision::Allow
            } else {
                Decision::deny("sign in")
            }
        }));
    }
}

fn server(
    jobs: Arc<Mutex<Vec<DeferredInvocation>>>,
    events: &Events,
    guarded: bool,
) -> mcp_server::Server {
    let mut builder = with_tools(&["slow_report", "quick"])
        .contributor(
            origin("vendor", 1),
            "sum",
            contributor_fn(|c| {
                c.method::<SlowSum>(handler_fn::<SlowSum, _, _, _>(
                    |_, p: SumParams| async move {
                        let mut result = EmptyResult::default();
                        result.extra.insert("sum".into(), json!(p.a + p.b));
                        Ok(result)
                    },
                ));
            }),
        )
        .register(
            origin("jobs", 1),
            "jobs",
            0,
            Item::alternate_result_interceptor(Jobs(jobs, events.clone())),
        )
        .register(
            origin("audit", 1),
            "audit",
            0,
            Item::handler_interceptor(
                Stratum::Audit,
                Scope::All,
                RecordingStep("audit", events.clone()),
            ),
        );
    if guarded {
        builder = builder.register(
            origin("auth", 1),
            "deny",
            0,
            Item::customizer::<mcp_server::seam::customizer::MethodDescriptor>(DenyAnonymous),
        );
    }
    builder.build()
}

#[tokio::test]
async fn a_tool_call_becomes_an_alternate_result_after_the_ordinary_chain_ran_once() {
    let (jobs, events) = (Arc::default(), Events::default());
    let server = server(Arc::clone(&jobs), &events, false);
    let result = MemoryClient::new(&server)
        .request_raw("tools/call", json!({"name": "slow_report"}))
        .await
        .unwrap();
    // Modern results name the server in `_meta`, alternate ones too.
    assert_eq!(
        result,
        json!({
            "resultType": "job",
            "jobId": "job-1",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "test", "version": "1.0.0"}}
        })
    );
    assert_eq!(events.take(), ["audit", "alternate"]);
    // The deferred invocation runs the handler, and only the handler.
    let deferred = jobs.lock().unwrap().pop().unwrap();
    let settled = deferred.run().await.unwrap();
    assert_eq!(settled.to_json()["content"][0]["text"], "slow_report");
    assert!(events.take().is_empty());
}

#[tokio::test]
async fn other_calls_proceed_to_their_ordinary_result() {
    let (jobs, events) = (Arc::default(), Events::default());
    let server = server(jobs, &events, false);
    let result = MemoryClient::new(&server)
        .call_tool("quick", json!({}))
        .await
        .unwrap();
    assert_eq!(
        result.content[0],
        mcp_server::core::content::ContentBlock::text("quick")
    );
}

#[tokio::test]
async fn a_contributed_method_goes_through_the_same_pipeline() {
    let (jobs, events) = (Arc::default(), Events::default());
    let server = server(Arc::clone(&jobs), &events, false);
    let result = MemoryClient::new(&server)
        .request_raw("vendor/slow_sum", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(result["resultType"], "job");
    assert_eq!(events.take(), ["audit", "alternate"]);
    let deferred = jobs.lock().unwrap().pop().unwrap();
    let settled = deferred.run().await.unwrap();
    assert_eq!(settled.to_json()["sum"], 5);
}

#[tokio::test]
async fn a_denied_caller_never_reaches_the_alternate_result_interceptor() {
    let (jobs, events) = (
        Arc::<Mutex<Vec<DeferredInvocation>>>::default(),
        Events::default(),
    );
    let server = server(Arc::clone(&jobs), &events, true);
    let error = MemoryClient::new(&server)
        .request_raw("vendor/slow_sum", json!({"a": 2, "b": 3}))
        .await
        .unwrap_err();
    // Hidden from the caller: as if it did not exist.
    assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND);
    assert_eq!(events.take(), ["audit"]);
    assert!(
        jobs.lock().unwrap().is_empty(),
        "no job may be created for a denied caller"
    );
}

#[tokio::test]
async fn bad_params_for_a_contributed_method_are_invalid_params() {
    let (jobs, events) = (Arc::default(), Events::default());
    let server = server(jobs, &events, false);
    let error = MemoryClient::new(&server)
        .request_raw("vendor/slow_sum", json!({"a": "two"}))
        .await
        .unwrap_err();
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert!(
        events.take().is_empty(),
        "nothing runs for params that do not decode"
    );
}
