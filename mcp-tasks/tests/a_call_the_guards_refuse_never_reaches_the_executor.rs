//! Guards decide before a task exists: a call they refuse is never handed
//! to the task executor, whichever executor the application supplies.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_server::auth::{Credentials, Principal};
use mcp_server::core::tools::Tool;
use mcp_server::seam::customizer::GuardAttacher;
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::seam::{Item, Target};
use mcp_server::testing::MemoryClient;
use mcp_server::{BoxFuture, RequestContext, Server, origin, tool};
use mcp_tasks::executor::{Execution, ExecutionStrategy, StartError};
use serde_json::json;

/// Launches the rockets.
#[tool]
async fn launch() -> String {
    "launched".into()
}
mcp_tasks::task!(launch);

/// Counts the executions it is handed, in its own counter, and disposes of
/// them.
struct Counting(Arc<AtomicUsize>);

impl ExecutionStrategy for Counting {
    fn start(&self, execution: Execution) -> BoxFuture<'static, Result<(), StartError>> {
        self.0.fetch_add(1, Ordering::SeqCst);
        execution.dispose();
        Box::pin(async { Ok(()) })
    }
}

/// The bearer token names the caller; `root` is an admin.
struct Names;

impl PrincipalSource for Names {
    fn principal(&self, credentials: &Credentials) -> Arc<Principal> {
        Arc::new(match credentials.bearer() {
            Some("root") => Principal::named("root").with_role("admin"),
            Some(name) => Principal::named(name),
            None => Principal::anonymous(),
        })
    }
}

fn client(server: &Server, who: &str) -> MemoryClient {
    MemoryClient::new(server)
        .with_credentials(Credentials::bearer_token(who))
        .with_capabilities(
            serde_json::from_value(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
                .unwrap(),
        )
}

#[tokio::test]
async fn a_custom_executor_is_never_handed_a_call_its_guard_refuses() {
    let started = Arc::new(AtomicUsize::new(0));
    let server = Server::builder()
        .supply::<dyn PrincipalSource>(origin!(), "names", Arc::new(Names))
        .supply::<dyn ExecutionStrategy>(origin!(), "counting", Arc::new(Counting(started.clone())))
        .register(
            origin!(),
            "launch-for-admins",
            0,
            Item::customizer::<Tool>(GuardAttacher::new(guard_fn(
                "launch-for-admins",
                |ctx: &RequestContext, target: &Target| {
                    if target.name != "launch" || ctx.principal().has_role("admin") {
                        Decision::Allow
                    } else {
                        Decision::deny("admins only")
                    }
                },
            ))),
        )
        .build();
    let refused = client(&server, "ada")
        .request_raw("tools/call", json!({"name": "launch"}))
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code.0, refused.message.as_str()),
        (-32602, "Unknown tool: launch")
    );
    assert_eq!(
        started.load(Ordering::SeqCst),
        0,
        "the executor was never called"
    );
    let handle = client(&server, "root")
        .request_raw("tools/call", json!({"name": "launch"}))
        .await
        .unwrap();
    assert_eq!(handle["resultType"], "task", "{handle}");
    assert_eq!(
        started.load(Ordering::SeqCst),
        1,
        "this executor starts the calls the guard allows"
    );
}
