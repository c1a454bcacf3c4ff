//! `subscriptions/listen`: acknowledged with what was granted, then only
//! the granted changes, each tagged with the subscription's id; extension
//! kinds and grant customizers; bounds on listeners and on slow ones; a
//! graceful end; changes from another instance through the change sink.

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_server::Server;
use mcp_server::core::jsonrpc::Notification;
use mcp_server::core::prompts::{GetPrompt, GetPromptResult, Prompt};
use mcp_server::core::resources::{ReadResource, ReadResourceResult, Resource};
use mcp_server::handler::handler_fn;
use mcp_server::seam::Item;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::sink::{Change, ChangeSink, Inbound, Topic};
use mcp_server::seam::sink::{Grant, GrantCustomizer, GrantCustomizers, ListenRequest};
use mcp_server::server::Builder;
use mcp_server::testing::{MemoryClient, Subscription};
use serde_json::{Value, json};
use support::{add_named_tool, builder, origin};

/// Tools, one resource `file:///watched`, and no prompts.
fn with_content(builder: Builder) -> Builder {
    builder.contributor(
        origin("app", 1),
        "content",
        contributor_fn(|c| {
            add_named_tool(c, "a");
            c.resource(
                Resource {
                    uri: "file:///watched".into(),
                    name: "watched".into(),
                    ..Default::default()
                },
                handler_fn::<ReadResource, _, _, _>(|_, _| async {
                    Ok(ReadResourceResult::default())
                }),
            );
        }),
    )
}

fn server() -> Server {
    with_content(builder()).build()
}

fn params(notification: &Notification) -> Value {
    notification
        .params
        .as_ref()
        .map(|p| serde_json::from_str(p.get()).unwrap())
        .unwrap_or(Value::Null)
}

/// The acknowledgement, which must come first; its granted filter.
async fn acknowledged(subscription: &mut Subscription) -> Value {
    let ack = subscription.next().await.expect("an acknowledgement");
    assert_eq!(ack.method, "notifications/subscriptions/acknowledged");
    params(&ack)["notifications"].clone()
}

const QUIET: Duration = Duration::from_millis(100);

#[tokio::test]
async fn the_acknowledgement_comes_first_and_echoes_only_what_is_granted() {
    let server = server();
    let mut listening = MemoryClient::new(&server).listen(json!({
        "toolsListChanged": true,
        "promptsListChanged": true,
        "resourceSubscriptions": ["file:///watched"],
        "somethingUnknown": true
    }));
    let ack = listening.next().await.unwrap();
    let ack = params(&ack);
    let id = ack["_meta"]["io.modelcontextprotocol/subscriptionId"].clone();
    assert!(id.is_number(), "{ack}");
    // No prompts: their list never changes; an unknown member is dropped.
    assert_eq!(
        ack["notifications"],
        json!({"toolsListChanged": true, "resourceSubscriptions": ["file:///watched"]})
    );
    assert_eq!(server.listeners(), 1);
}

#[tokio::test]
async fn only_granted_changes_arrive_each_tagged_with_the_subscription_id() {
    let server = with_content(builder())
        .contributor(
            origin("prompts", 1),
            "prompts",
            contributor_fn(|c| {
                c.prompt(
                    Prompt {
                        name: "p".into(),
                        ..Default::default()
                    },
                    handler_fn::<GetPrompt, _, _, _>(|_, _| async {
                        Ok(GetPromptResult::default())
                    }),
                );
            }),
        )
        .build();
    let mut tools = MemoryClient::new(&server)
        .listen(json!({"toolsListChanged": true, "resourceSubscriptions": ["file:///watched"]}));
    let mut prompts = MemoryClient::new(&server).listen(json!({"promptsListChanged": true}));
    acknowledged(&mut tools).await;
    acknowledged(&mut prompts).await;

    let changes = server.changes();
    changes.publish(Change::prompts_list_changed());
    changes.publish(Change::tools_list_changed());
    changes.publish(Change::resource_updated("file:///other"));
    changes.publish(Change::resource_updated("file:///watched"));

    let first = tools.next().await.unwrap();
    assert_eq!(first.method, "notifications/tools/list_changed");
    assert!(
        params(&first)["_meta"]["io.modelcontextprotocol/subscriptionId"].is_number(),
        "{}",
        params(&first)
    );
    let second = tools.next().await.unwrap();
    assert_eq!(second.method, "notifications/resources/updated");
    assert_eq!(params(&second)["uri"], "file:///watched");
    assert!(tools.next_within(QUIET).await.is_none());

    let only = prompts.next().await.unwrap();
    assert_eq!(only.method, "notifications/prompts/list_changed");
    assert!(prompts.next_within(QUIET).await.is_none());
}

/// Grants `jobIds` items whose id starts with the caller's subject (or
/// `anon-` for anonymous callers), and never lets anonymous callers hear
/// of resource updates.
struct Jobs;

impl GrantCustomizer for Jobs {
    fn grant(&self, request: &ListenRequest<'_>, grant: &mut Grant) {
        let who = request
            .context()
            .principal()
            .subject
            .clone()
            .unwrap_or_else(|| "anon".into());
        for id in request.asks_items("jobIds") {
            if id.starts_with(&format!("{who}-")) {
                grant.allow_item("jobIds", id);
            }
        }
        if !request.context().principal().is_authenticated() {
            let granted: Vec<String> = grant
                .items("resourceSubscriptions")
                .map(str::to_owned)
                .collect();
            for uri in granted {
                grant.revoke_item("resourceSubscriptions", &uri);
            }
        }
    }
}

fn job_status(id: &str) -> Change {
    Change::new(
        "notifications/jobs/status",
        Topic::Item {
            member: "jobIds".into(),
            item: id.into(),
        },
    )
    .with_params(json!({"jobId": id, "status": "done"}))
}

#[tokio::test]
async fn grant_customizers_grant_extension_members_and_may_take_back_what_was_granted() {
    let server = with_content(builder())
        .register(
            origin("jobs-ext", 3),
            "jobs",
            0,
            Item::member::<GrantCustomizers>(("jobs".into(), Arc::new(Jobs))),
        )
        .build();
    let mut listening = MemoryClient::new(&server).listen(json!({
        "jobIds": ["anon-1", "bob-2"],
        "resourceSubscriptions": ["file:///watched"]
    }));
    assert_eq!(
        acknowledged(&mut listening).await,
        json!({"jobIds": ["anon-1"]}),
        "another caller's job is not granted, and the policy took back the resource"
    );
    server.changes().publish(job_status("bob-2"));
    server
        .changes()
        .publish(Change::resource_updated("file:///watched"));
    server.changes().publish(job_status("anon-1"));
    let told = listening.next().await.unwrap();
    assert_eq!(told.method, "notifications/jobs/status");
    assert_eq!(params(&told)["jobId"], "anon-1");
    assert!(listening.next_within(QUIET).await.is_none());
    assert!(
        server
            .report()
            .members
            .iter()
            .any(|m| m.name == "jobs" && m.kind.contains("grant customizer")),
        "{:?}",
        server.report().members
    );
}

#[tokio::test]
async fn over_the_listener_cap_a_listen_request_fails_and_a_closed_stream_frees_its_place() {
    let server = with_content(builder())
        .setting("server.max_listeners", 1)
        .build();
    let client = MemoryClient::new(&server);
    let mut first = client.listen(json!({"toolsListChanged": true}));
    acknowledged(&mut first).await;
    let mut second = client.listen(json!({"toolsListChanged": true}));
    let refused = second.response().await;
    assert_eq!(
        refused["error"]["data"]["reason"], "too_many_listeners",
        "{refused}"
    );
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Too many listeners: 1"),
        "{refused}"
    );
    drop(first);
    for _ in 0..100 {
        if server.listeners() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        server.listeners(),
        0,
        "the closed stream let go of its listener"
    );
    let mut third = client.listen(json!({"toolsListChanged": true}));
    acknowledged(&mut third).await;
}

#[tokio::test]
async fn a_listener_that_does_not_read_is_closed_with_a_reason_and_memory_stays_bounded() {
    let server = with_content(builder())
        .setting("server.listener_queue", 4)
        .build();
    let mut slow = MemoryClient::new(&server).listen(json!({"toolsListChanged": true}));
    acknowledged(&mut slow).await;
    // The stream holds at most 64 unread messages, then the queue fills.
    for _ in 0..200 {
        server.changes().publish(Change::tools_list_changed());
        tokio::task::yield_now().await;
    }
    let response = slow.response().await;
    assert_eq!(response["error"]["data"]["reason"], "lagged", "{response}");
    let mut delivered = 0;
    while slow.next_within(QUIET).await.is_some() {
        delivered += 1;
    }
    assert!(
        (60..=70).contains(&delivered),
        "{delivered} notifications were held for the slow listener"
    );
    assert_eq!(server.listeners(), 0);
}

#[tokio::test]
async fn ending_the_subscriptions_answers_each_with_its_listen_result() {
    let server = server();
    let mut listening = MemoryClient::new(&server).listen(json!({"toolsListChanged": true}));
    acknowledged(&mut listening).await;
    server.end_subscriptions();
    let response = listening.response().await;
    let result = &response["result"];
    assert_eq!(result["resultType"], "complete", "{response}");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/subscriptionId"],
        response["id"]
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "test"
    );
}

/// A stand-in for a pub/sub shared by instances: what one publishes, the
/// others' inbounds receive.
#[derive(Clone, Default)]
struct Bus(Arc<Mutex<Vec<Inbound>>>, Arc<Mutex<Vec<Change>>>);

struct OnBus {
    bus: Bus,
    me: usize,
}

impl ChangeSink for OnBus {
    fn publish(&self, change: Change) {
        // Carried as bytes, as a network would.
        let wire = serde_json::to_vec(&change).unwrap();
        self.bus.1.lock().unwrap().push(change);
        let inbounds = self.bus.0.lock().unwrap().clone();
        for (i, inbound) in inbounds.into_iter().enumerate() {
            if i != self.me {
                inbound.deliver(serde_json::from_slice(&wire).unwrap());
            }
        }
    }

    fn attach(&self, inbound: Inbound) {
        self.bus.0.lock().unwrap().push(inbound);
    }
}

#[tokio::test]
async fn a_change_published_on_one_instance_reaches_a_listener_held_on_another() {
    let bus = Bus::default();
    let instance = |me: usize| {
        with_content(builder())
            .supply::<dyn ChangeSink>(
                origin("bus", 1),
                "bus",
                Arc::new(OnBus {
                    bus: bus.clone(),
                    me,
                }),
            )
            .build()
    };
    let (a, b) = (instance(0), instance(1));
    let mut on_b = MemoryClient::new(&b).listen(json!({"toolsListChanged": true}));
    acknowledged(&mut on_b).await;
    let mut on_a = MemoryClient::new(&a).listen(json!({"toolsListChanged": true}));
    acknowledged(&mut on_a).await;
    a.changes().publish(Change::tools_list_changed());
    assert_eq!(
        on_b.next().await.unwrap().method,
        "notifications/tools/list_changed"
    );
    assert_eq!(
        on_a.next().await.unwrap().method,
        "notifications/tools/list_changed"
    );
    assert!(
        on_a.next_within(QUIET).await.is_none(),
        "told once, not twice"
    );
}

#[tokio::test]
async fn discover_advertises_list_changes_and_resource_subscriptions() {
    let result = MemoryClient::new(&server())
        .request_raw("server/discover", json!({}))
        .await
        .unwrap();
    assert_eq!(result["capabilities"]["tools"]["listChanged"], true);
    assert_eq!(result["capabilities"]["resources"]["subscribe"], true);
    assert_eq!(result["capabilities"]["resources"]["listChanged"], true);
    assert!(result["capabilities"].get("prompts").is_none());
}

#[tokio::test]
async fn a_listen_request_passes_the_raw_interceptors_like_any_other() {
    let events = support::Events::default();
    let server = with_content(builder())
        .register(
            origin("audit", 1),
            "audit",
            0,
            Item::raw_interceptor(support::RecordingRaw("audit", events.clone())),
        )
        .build();
    let mut listening = MemoryClient::new(&server).listen(json!({"toolsListChanged": true}));
    acknowledged(&mut listening).await;
    assert_eq!(
        events.take(),
        ["before:audit"],
        "the audit saw the listen request"
    );
    server.end_subscriptions();
    listening.response().await;
    assert_eq!(events.take(), ["after:audit"]);
}
