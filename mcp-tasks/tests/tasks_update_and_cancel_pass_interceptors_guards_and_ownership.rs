//! `tasks/update` and `tasks/cancel` go through the one pipeline as
//! `tasks/get` does: a typed interceptor registered for each method sees
//! its calls, a guard on them hides them as methods that do not exist, and
//! another caller's task answers them exactly as an unknown task id.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_server::auth::{Credentials, Principal};
use mcp_server::context::InputError;
use mcp_server::core::elicitation::{ElicitRequestFormParams, ElicitRequestParams};
use mcp_server::core::error::ErrorObject;
use mcp_server::core::ext::tasks::{
    CancelTask, CancelTaskRequestParams, CancelTaskResult, UpdateTaskResult,
};
use mcp_server::seam::customizer::{GuardAttacher, MethodDescriptor};
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::interceptor::{Answer, TypedInterceptor, TypedNext};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::seam::{Item, Target};
use mcp_server::testing::MemoryClient;
use mcp_server::{BoxFuture, RequestContext, Server, origin, tool};
use mcp_tasks::{UpdateParams, UpdateTask};
use serde_json::{Value, json};

/// Asks for a name, then greets.
#[tool]
async fn greet_when_named(ctx: RequestContext) -> Result<String, InputError> {
    let form = ElicitRequestParams::Form(ElicitRequestFormParams {
        message: "Name?".into(),
        ..Default::default()
    });
    let answer = ctx.input("name").elicit(form).await?;
    let name = answer
        .content
        .and_then(|c| c.get("name").map(|v| serde_json::to_value(v).unwrap()))
        .unwrap_or_default();
    Ok(format!("Hello, {}!", name.as_str().unwrap_or_default()))
}
mcp_tasks::task!(greet_when_named);

/// Sleeps for a minute.
#[tool]
async fn sleep_a_minute() -> String {
    tokio::time::sleep(Duration::from_secs(60)).await;
    "slept".into()
}
mcp_tasks::task!(sleep_a_minute);

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

/// What one test's typed interceptors saw: which of them, and the task id.
type Seen = Arc<Mutex<Vec<(&'static str, String)>>>;

/// Records each `tasks/update` and `tasks/cancel` it sees, then lets it on.
struct Sees(Seen);

impl TypedInterceptor<UpdateTask> for Sees {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        params: UpdateParams,
        next: TypedNext<'a, UpdateTask>,
    ) -> BoxFuture<'a, Result<Answer<UpdateTaskResult>, ErrorObject>> {
        self.0
            .lock()
            .unwrap()
            .push(("update", params.task_id.clone()));
        next.run(params)
    }
}

impl TypedInterceptor<CancelTask> for Sees {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        params: CancelTaskRequestParams,
        next: TypedNext<'a, CancelTask>,
    ) -> BoxFuture<'a, Result<Answer<CancelTaskResult>, ErrorObject>> {
        self.0
            .lock()
            .unwrap()
            .push(("cancel", params.task_id.clone()));
        next.run(params)
    }
}

fn server_seen_by(seen: &Seen) -> Server {
    Server::builder()
        .supply::<dyn PrincipalSource>(origin!(), "names", Arc::new(Names))
        .register(
            origin!(),
            "sees-updates",
            0,
            Item::typed::<UpdateTask>(Sees(seen.clone())),
        )
        .register(
            origin!(),
            "sees-cancels",
            0,
            Item::typed::<CancelTask>(Sees(seen.clone())),
        )
        .build()
}

fn client(server: &Server, who: &str) -> MemoryClient {
    MemoryClient::new(server)
        .with_credentials(Credentials::bearer_token(who))
        .with_capabilities(
            serde_json::from_value(
                json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}}),
            )
            .unwrap(),
        )
}

async fn create(client: &MemoryClient, tool: &str) -> String {
    let handle = client
        .request_raw("tools/call", json!({"name": tool}))
        .await
        .unwrap();
    assert_eq!(handle["resultType"], "task", "{handle}");
    handle["taskId"].as_str().unwrap().to_owned()
}

async fn poll_until(client: &MemoryClient, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..500 {
        let task = client
            .request_raw("tasks/get", json!({"taskId": id}))
            .await
            .unwrap();
        if done(&task) {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {id} did not get there");
}

fn answer_named(id: &str, name: &str) -> Value {
    json!({"taskId": id, "inputResponses": {"name": {"action": "accept", "content": {"name": name}}}})
}

#[tokio::test]
async fn a_typed_interceptor_registered_for_tasks_update_and_one_for_tasks_cancel_each_see_their_calls()
 {
    let seen = Seen::default();
    let server = server_seen_by(&seen);
    let ada = client(&server, "ada");

    let asking = create(&ada, "greet_when_named").await;
    poll_until(&ada, &asking, |t| t["status"] == "input_required").await;
    assert!(seen.lock().unwrap().is_empty(), "tasks/get is neither's");
    ada.request_raw("tasks/update", answer_named(&asking, "Ada"))
        .await
        .unwrap();
    assert_eq!(*seen.lock().unwrap(), [("update", asking.clone())]);
    let done = poll_until(&ada, &asking, |t| t["status"] == "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Ada!",
        "the update went on past the interceptor to the task"
    );

    let sleeping = create(&ada, "sleep_a_minute").await;
    ada.request_raw("tasks/cancel", json!({"taskId": sleeping}))
        .await
        .unwrap();
    assert_eq!(
        *seen.lock().unwrap(),
        [("update", asking), ("cancel", sleeping.clone())]
    );
    let cancelled = poll_until(&ada, &sleeping, |t| t["status"] != "working").await;
    assert_eq!(
        cancelled["status"], "cancelled",
        "the cancel went on past the interceptor to the task"
    );
}

#[tokio::test]
async fn a_guard_on_tasks_update_and_tasks_cancel_hides_them_exactly_as_methods_that_do_not_exist()
{
    let seen = Seen::default();
    let server = Server::builder()
        .supply::<dyn PrincipalSource>(origin!(), "names", Arc::new(Names))
        .register(
            origin!(),
            "sees-cancels",
            0,
            Item::typed::<CancelTask>(Sees(seen.clone())),
        )
        .register(
            origin!(),
            "update-and-cancel-for-admins",
            0,
            Item::customizer::<MethodDescriptor>(GuardAttacher::new(guard_fn(
                "update-and-cancel-for-admins",
                |ctx: &RequestContext, target: &Target| {
                    if matches!(target.name.as_str(), "tasks/update" | "tasks/cancel")
                        && !ctx.principal().has_role("admin")
                    {
                        Decision::deny("admins only")
                    } else {
                        Decision::Allow
                    }
                },
            ))),
        )
        .build();
    let ada = client(&server, "ada");
    let asking = create(&ada, "greet_when_named").await;
    poll_until(&ada, &asking, |t| t["status"] == "input_required").await;
    let unknown = ada
        .request_raw("tasks/unheard_of", json!({"taskId": asking}))
        .await
        .unwrap_err();
    for (method, params) in [
        ("tasks/update", answer_named(&asking, "Ada")),
        ("tasks/cancel", json!({"taskId": asking})),
    ] {
        let hidden = ada.request_raw(method, params).await.unwrap_err();
        assert_eq!(hidden.code, unknown.code, "{method}");
        assert_eq!(hidden.code.0, -32601, "{method}");
        assert_eq!(
            hidden.message.replace(method, "M"),
            unknown.message.replace("tasks/unheard_of", "M"),
            "{method}"
        );
    }
    let untouched = ada
        .request_raw("tasks/get", json!({"taskId": asking}))
        .await
        .unwrap();
    assert_eq!(
        untouched["status"], "input_required",
        "neither hidden call reached the task: {untouched}"
    );

    let root = client(&server, "root");
    let sleeping = create(&root, "sleep_a_minute").await;
    root.request_raw("tasks/cancel", json!({"taskId": sleeping}))
        .await
        .unwrap();
    assert!(
        seen.lock().unwrap().contains(&("cancel", sleeping.clone())),
        "the guard lets an admin's cancel pass, through the interceptor"
    );
    let cancelled = poll_until(&root, &sleeping, |t| t["status"] != "working").await;
    assert_eq!(cancelled["status"], "cancelled");
}

#[tokio::test]
async fn another_callers_task_answers_tasks_update_and_tasks_cancel_exactly_as_an_unknown_task_id()
{
    let seen = Seen::default();
    let server = server_seen_by(&seen);
    let ada = client(&server, "ada");
    let asking = create(&ada, "greet_when_named").await;
    poll_until(&ada, &asking, |t| t["status"] == "input_required").await;
    let grace = client(&server, "grace");
    let never = "0".repeat(32);
    for (method, theirs, unknown) in [
        (
            "tasks/update",
            answer_named(&asking, "Grace"),
            answer_named(&never, "Grace"),
        ),
        (
            "tasks/cancel",
            json!({"taskId": asking}),
            json!({"taskId": never}),
        ),
    ] {
        let theirs = grace.request_raw(method, theirs).await.unwrap_err();
        let unknown = grace.request_raw(method, unknown).await.unwrap_err();
        assert_eq!(theirs.code, unknown.code, "{method}");
        assert_eq!(theirs.code.0, -32602, "{method}");
        assert_eq!(
            theirs.message.replace(&asking, "ID"),
            unknown.message.replace(&never, "ID"),
            "{method}"
        );
        assert_eq!(
            theirs.data.map(|d| d.to_string().replace(&asking, "ID")),
            unknown.data.map(|d| d.to_string().replace(&never, "ID")),
            "{method}"
        );
    }
    assert_eq!(
        seen.lock().unwrap().len(),
        4,
        "each call passed its method's interceptor before it was refused"
    );
    let untouched = ada
        .request_raw("tasks/get", json!({"taskId": asking}))
        .await
        .unwrap();
    assert_eq!(untouched["status"], "input_required", "{untouched}");
    ada.request_raw("tasks/update", answer_named(&asking, "Ada"))
        .await
        .unwrap();
    let done = poll_until(&ada, &asking, |t| t["status"] == "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Ada!",
        "grace's answer never reached ada's task"
    );
}
