//! The extension end to end through the in-memory client: what creates a
//! task and what does not, who may see it, input inside a task, and
//! cancellation.

use std::sync::Arc;
use std::time::Duration;

use mcp_server::auth::{Credentials, Principal};
use mcp_server::context::InputError;
use mcp_server::core::elicitation::{ElicitRequestFormParams, ElicitRequestParams};
use mcp_server::seam::Target;
use mcp_server::seam::guard::{Decision, Guard};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::testing::MemoryClient;
use mcp_server::{RequestContext, Server, guard, origin, tool};
use mcp_tasks::store::TaskStore;
use serde_json::{Value, json};

/// Sleeps, then answers.
#[tool]
async fn nap(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("slept {millis} ms")
}
mcp_tasks::task!(nap);

/// Only admins may run it.
#[tool]
async fn admin_job() -> String {
    "done".into()
}
mcp_tasks::task!(admin_job);

/// Asks for a name, then greets.
#[tool]
async fn ask_name(ctx: RequestContext) -> Result<String, InputError> {
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
mcp_tasks::task!(ask_name);

/// Asks a name in the request, then a title at once inside its task.
#[tool]
async fn name_then_title(ctx: RequestContext) -> Result<String, InputError> {
    let ask = |message: &str| {
        ElicitRequestParams::Form(ElicitRequestFormParams {
            message: message.into(),
            ..Default::default()
        })
    };
    let text = |answer: mcp_server::core::elicitation::ElicitResult| {
        let value = answer
            .content
            .and_then(|c| c.get("name").map(|v| serde_json::to_value(v).unwrap()));
        value
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    };
    let name = text(ctx.input("name").elicit(ask("Name?")).await?);
    ctx.release_request();
    let title = text(ctx.input("title").elicit(ask("Title?")).await?);
    Ok(format!("Hello, {title} {name}!"))
}
mcp_tasks::task!(name_then_title, required, inputs_first);

/// Keeps `admin_*` tools for admins.
#[derive(Default)]
struct Admins;

#[guard(on = "tool")]
impl Guard for Admins {
    fn name(&self) -> &str {
        "admins"
    }
    fn check(&self, ctx: &RequestContext, target: &Target) -> Decision {
        if !target.name.starts_with("admin_") || ctx.principal().has_role("admin") {
            Decision::Allow
        } else {
            Decision::deny("admins only")
        }
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

fn server() -> Server {
    Server::builder()
        .supply::<dyn PrincipalSource>(origin!(), "names", Arc::new(Names))
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

async fn tasks_of(server: &Server, owner: &str) -> usize {
    let store = server.active::<dyn TaskStore>().unwrap();
    store.list(owner, None, 10_000).await.unwrap().len()
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

#[tokio::test]
async fn a_caller_the_guards_refuse_gets_the_guards_answer_and_no_task_exists() {
    let server = server();
    let error = client(&server, "ada")
        .call_tool("admin_job", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        (error.code.0, error.message.as_str()),
        (-32602, "Unknown tool: admin_job")
    );
    assert_eq!(tasks_of(&server, "ada").await, 0);
    let allowed = client(&server, "root")
        .request_raw("tools/call", json!({"name": "admin_job"}))
        .await
        .unwrap();
    assert_eq!(allowed["resultType"], "task");
    assert_eq!(tasks_of(&server, "root").await, 1);
}

#[tokio::test]
async fn invalid_arguments_get_invalid_params_and_no_task_exists() {
    let server = server();
    let error = client(&server, "ada")
        .request_raw(
            "tools/call",
            json!({"name": "nap", "arguments": {"millis": "soon"}}),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32602);
    assert_eq!(tasks_of(&server, "ada").await, 0);
}

#[tokio::test]
async fn another_caller_sees_a_task_exactly_as_an_unknown_one() {
    let server = server();
    let ada = client(&server, "ada");
    let handle = ada
        .request_raw(
            "tools/call",
            json!({"name": "nap", "arguments": {"millis": 1}}),
        )
        .await
        .unwrap();
    let id = handle["taskId"].as_str().unwrap();
    assert_eq!(id.len(), 32, "128 random bits in hex");
    let grace = client(&server, "grace");
    for method in ["tasks/get", "tasks/cancel"] {
        let theirs = grace
            .request_raw(method, json!({"taskId": id}))
            .await
            .unwrap_err();
        let unknown = grace
            .request_raw(method, json!({"taskId": "0".repeat(32)}))
            .await
            .unwrap_err();
        assert_eq!(theirs.code, unknown.code, "{method}");
        assert_eq!(theirs.code.0, -32602, "{method}");
        assert_eq!(
            theirs.message.replace(id, "ID"),
            unknown.message.replace(&"0".repeat(32), "ID"),
            "{method}"
        );
    }
    poll_until(&ada, id, |t| t["status"] == "completed").await;
}

#[tokio::test]
async fn a_client_without_the_extension_gets_an_ordinary_result_and_no_task_methods() {
    let server = server();
    let plain = MemoryClient::new(&server);
    let result = plain
        .request_raw(
            "tools/call",
            json!({"name": "nap", "arguments": {"millis": 1}}),
        )
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "slept 1 ms");
    let refused = plain
        .request_raw("tasks/get", json!({"taskId": "x"}))
        .await
        .unwrap_err();
    assert_eq!(refused.code.0, -32021);
    assert_eq!(
        refused.data.unwrap()["requiredCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({})
    );
    let gone = plain
        .request_raw("tasks/result", json!({"taskId": "x"}))
        .await
        .unwrap_err();
    assert_eq!(gone.code.0, -32601);
}

#[tokio::test]
async fn input_inside_a_task_waits_for_tasks_update_and_the_handler_resumes() {
    let server = server();
    let ada = client(&server, "ada");
    let handle = ada
        .request_raw("tools/call", json!({"name": "ask_name"}))
        .await
        .unwrap();
    let id = handle["taskId"].as_str().unwrap();
    let waiting = poll_until(&ada, id, |t| t["status"] == "input_required").await;
    assert_eq!(
        waiting["inputRequests"]["name"]["method"],
        "elicitation/create"
    );
    let ack = ada
        .request_raw(
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}, "other": {"x": 1}}}),
        )
        .await
        .unwrap();
    assert_eq!(
        ack,
        json!({"resultType": "complete", "_meta": ack["_meta"]})
    );
    let done = poll_until(&ada, id, |t| t["status"] == "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Ada!");
}

#[tokio::test]
async fn cancelling_interrupts_the_handler_and_the_task_stays_cancelled() {
    let server = server();
    let ada = client(&server, "ada");
    let handle = ada
        .request_raw(
            "tools/call",
            json!({"name": "nap", "arguments": {"millis": 60000}}),
        )
        .await
        .unwrap();
    let id = handle["taskId"].as_str().unwrap();
    ada.request_raw("tasks/cancel", json!({"taskId": id}))
        .await
        .unwrap();
    let cancelled = poll_until(&ada, id, |t| t["status"] != "working").await;
    assert_eq!(cancelled["status"], "cancelled");
    tokio::time::sleep(Duration::from_millis(50)).await;
    let later = ada
        .request_raw("tasks/get", json!({"taskId": id}))
        .await
        .unwrap();
    assert_eq!(later["status"], "cancelled", "a terminal status is final");
    let again = ada
        .request_raw("tasks/cancel", json!({"taskId": id}))
        .await
        .unwrap();
    assert_eq!(
        again["resultType"], "complete",
        "cancelling an ended task is acknowledged"
    );
}

#[tokio::test]
async fn discover_advertises_the_extension_and_initialize_the_core_capability() {
    let server = server();
    assert!(
        server
            .capabilities()
            .has_extension("io.modelcontextprotocol/tasks")
    );
    assert!(
        server.capabilities().tasks.is_none(),
        "never both in server/discover"
    );
    let legacy = server.capabilities_in(mcp_server::core::version::Era::Legacy);
    assert!(
        legacy
            .tasks
            .as_ref()
            .is_some_and(|t| t.supports_tool_call())
    );
    assert!(!legacy.has_extension("io.modelcontextprotocol/tasks"));
    let tools = MemoryClient::new(&server).list_tools().await.unwrap();
    assert!(
        tools.iter().all(|t| t.execution.is_none()),
        "no legacy member in 2026-07-28 lists"
    );
}

fn params(notification: &mcp_server::core::jsonrpc::Notification) -> Value {
    serde_json::from_str(notification.params.as_ref().unwrap().get()).unwrap()
}

#[tokio::test]
async fn a_listener_hears_of_the_tasks_it_owns_and_of_no_other() {
    let server = server();
    let ada = client(&server, "ada");
    let handle = ada
        .request_raw(
            "tools/call",
            json!({"name": "nap", "arguments": {"millis": 200}}),
        )
        .await
        .unwrap();
    let id = handle["taskId"].as_str().unwrap().to_owned();

    let mut theirs = client(&server, "grace").listen(json!({"taskIds": [id]}));
    let ack = params(&theirs.next().await.unwrap());
    assert!(
        ack["notifications"].get("taskIds").is_none(),
        "another caller is granted nothing: {ack}"
    );

    let mut mine = ada.listen(json!({"taskIds": [id, "0".repeat(32)]}));
    let ack = params(&mine.next().await.unwrap());
    assert_eq!(
        ack["notifications"]["taskIds"],
        json!([id]),
        "only the caller's own task is granted"
    );
    let told = mine
        .next_within(Duration::from_secs(5))
        .await
        .expect("the task's end is told");
    assert_eq!(told.method, "notifications/tasks");
    let told = params(&told);
    assert_eq!(
        (told["taskId"].as_str(), told["status"].as_str()),
        (Some(id.as_str()), Some("completed"))
    );
    assert_eq!(told["result"]["content"][0]["text"], "slept 200 ms");
    assert!(
        told["_meta"]["io.modelcontextprotocol/subscriptionId"].is_number()
            || told["_meta"]["io.modelcontextprotocol/subscriptionId"].is_string()
    );
    assert!(
        theirs
            .next_within(Duration::from_millis(200))
            .await
            .is_none(),
        "another caller hears nothing"
    );
}

#[tokio::test]
async fn a_listener_without_the_extension_may_not_ask_for_tasks() {
    let server = server();
    let mut plain = MemoryClient::new(&server).listen(json!({"taskIds": ["x"]}));
    let response = plain.response().await;
    assert_eq!(response["error"]["code"], -32021, "{response}");
}

#[tokio::test]
async fn a_guard_on_the_tasks_methods_decides_who_may_poll() {
    /// Only admins may use `tasks/*`.
    struct TasksForAdmins;
    impl Guard for TasksForAdmins {
        fn name(&self) -> &str {
            "tasks-for-admins"
        }
        fn check(&self, ctx: &RequestContext, target: &Target) -> Decision {
            if target.name.starts_with("tasks/") && !ctx.principal().has_role("admin") {
                Decision::deny("admins only")
            } else {
                Decision::Allow
            }
        }
    }
    let server = Server::builder()
        .supply::<dyn PrincipalSource>(origin!(), "names", Arc::new(Names))
        .register(
            origin!(),
            "tasks-for-admins",
            0,
            mcp_server::seam::Item::customizer::<mcp_server::seam::customizer::MethodDescriptor>(
                mcp_server::seam::customizer::GuardAttacher::new(TasksForAdmins),
            ),
        )
        .build();
    let ada = client(&server, "ada");
    let handle = ada
        .request_raw(
            "tools/call",
            json!({"name": "nap", "arguments": {"millis": 1}}),
        )
        .await
        .unwrap();
    let id = handle["taskId"].as_str().unwrap();
    let refused = ada
        .request_raw("tasks/get", json!({"taskId": id}))
        .await
        .unwrap_err();
    assert_eq!(
        refused.code.0, -32601,
        "a hidden method answers as one that does not exist"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inputs_first_rounds_come_before_the_task_and_a_question_right_after_the_release_reaches_the_task()
 {
    let server = server();
    let ada = client(&server, "ada");
    let first = ada
        .request_raw("tools/call", json!({"name": "name_then_title"}))
        .await
        .unwrap();
    assert_eq!(first["resultType"], "input_required", "{first}");
    assert!(first.get("taskId").is_none());
    assert_eq!(
        tasks_of(&server, "ada").await,
        0,
        "no task before the release"
    );
    let retry = json!({
        "name": "name_then_title",
        "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}},
        "requestState": first["requestState"],
    });
    let handle = ada.request_raw("tools/call", retry).await.unwrap();
    assert_eq!(handle["resultType"], "task", "{handle}");
    assert!(handle.get("requestState").is_none() && handle.get("inputRequests").is_none());
    let id = handle["taskId"].as_str().unwrap();
    let waiting = poll_until(&ada, id, |t| t["status"] == "input_required").await;
    assert!(waiting["inputRequests"]["title"].is_object(), "{waiting}");
    assert!(
        waiting["inputRequests"].get("name").is_none(),
        "the request's keys are not the task's"
    );
    ada.request_raw("tasks/update", json!({"taskId": id, "inputResponses": {"title": {"action": "accept", "content": {"name": "Countess"}}}}))
        .await
        .unwrap();
    let done = poll_until(&ada, id, |t| t["status"] == "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Countess Ada!");
}
