//! Sending interceptors: every message the server sends passes them as it
//! is produced, in both eras: notifications of every kind, a 2025-11-25
//! request to the client and its answer, and the input requests of a
//! 2026-07-28 input-required result. They rewrite params and `_meta`,
//! suppress a notification while the call goes on, refuse an exchange
//! message, and hear once how each request ended. A call the guards refuse
//! shows them nothing.

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_server::context::{InputError, Negotiated};
use mcp_server::core::elicitation::{ElicitRequestParams, ElicitResult};
use mcp_server::core::error::ErrorObject;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::Item;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::interceptor::{End, Outbound, OutboundKind, SendingInterceptor};
use mcp_server::seam::sink::{Change, Topic};
use mcp_server::testing::MemoryClient;
use mcp_server::{BoxFuture, Notification, Params, RequestContext, Server};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use support::{builder, origin, tool};
use tokio::sync::Notify;

#[derive(Debug, Serialize, Deserialize, Params)]
struct Noise {
    level: u8,
}

#[derive(Notification)]
#[mcp(name = "test.example/noise", params = Noise)]
struct NoiseMade;

/// What one sending interceptor saw, in order.
#[derive(Default)]
struct Seen {
    messages: Mutex<Vec<(OutboundKind, String, Option<String>)>>,
    ended: Mutex<Vec<(String, End)>>,
}

impl Seen {
    fn messages(&self) -> Vec<(OutboundKind, String)> {
        self.messages
            .lock()
            .unwrap()
            .iter()
            .map(|(k, m, _)| (*k, m.clone()))
            .collect()
    }

    fn ended(&self) -> Vec<(String, End)> {
        self.ended.lock().unwrap().clone()
    }
}

/// Stamps progress, suppresses noise, rewrites elicitations and their
/// answers, refuses sampling, and records everything.
struct Stamp(Arc<Seen>);

impl SendingInterceptor for Stamp {
    fn notify(&self, message: &mut Outbound) {
        let tool = message.ctx().map(|ctx| {
            ctx.meta_value::<String>("test.example/tool")
                .unwrap_or_default()
        });
        self.0
            .messages
            .lock()
            .unwrap()
            .push((message.kind(), message.method().to_owned(), tool));
        match message.method() {
            "notifications/progress" => {
                let n = message.params()["progress"].clone();
                message
                    .meta_mut()
                    .insert("test.example/stamp".into(), json!({ "n": n }));
            }
            "test.example/noise" => {
                assert!(message.suppress());
            }
            _ => {}
        }
    }

    fn exchange<'a>(&'a self, message: &'a mut Outbound) -> BoxFuture<'a, Result<(), ErrorObject>> {
        Box::pin(async move {
            self.0.messages.lock().unwrap().push((
                message.kind(),
                message.method().to_owned(),
                message.key().map(str::to_owned),
            ));
            // Only notifications can be suppressed.
            assert!(!message.suppress());
            match (message.kind(), message.method()) {
                (OutboundKind::Request | OutboundKind::InputRequest, "elicitation/create") => {
                    message
                        .params_mut()
                        .insert("message".into(), "Rewritten on its way out".into());
                    message
                        .meta_mut()
                        .insert("test.example/seen".into(), true.into());
                    Ok(())
                }
                (OutboundKind::Answer, "elicitation/create") => {
                    message.params_mut().insert(
                        "content".into(),
                        json!({"answer": "rewritten on its way in"}),
                    );
                    Ok(())
                }
                (_, "sampling/createMessage") => {
                    Err(ErrorObject::invalid_request("no sampling here"))
                }
                _ => Ok(()),
            }
        })
    }

    fn end(&self, ctx: &RequestContext, end: End) {
        self.0
            .ended
            .lock()
            .unwrap()
            .push((ctx.method().to_owned(), end));
    }
}

fn elicitation() -> ElicitRequestParams {
    serde_json::from_value(json!({
        "mode": "form",
        "message": "What is your e-mail, bob@example.com?",
        "requestedSchema": {"type": "object", "properties": {"answer": {"type": "string"}}}
    }))
    .unwrap()
}

fn server(seen: &Arc<Seen>, release: &Arc<Notify>) -> Server {
    let release = release.clone();
    builder()
        .contributor(
            origin("app", 1),
            "tools",
            contributor_fn(move |c| {
                c.tool(
                    tool("steps"),
                    handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                        for n in 1..=3u32 {
                            ctx.progress().report(f64::from(n), Some(3.0), None);
                        }
                        ctx.notify::<NoiseMade>(Noise { level: 9 });
                        Ok(CallToolResult::text("stepped"))
                    }),
                );
                let release = release.clone();
                c.tool(
                    tool("waits"),
                    handler_fn::<CallTool, _, _, _>(move |ctx: RequestContext, _| {
                        let release = release.clone();
                        async move {
                            ctx.progress().report(1.0, None, Some("started"));
                            release.notified().await;
                            Ok(CallToolResult::text("released"))
                        }
                    }),
                );
                c.tool(
                    tool("fails"),
                    handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                        ctx.progress().report(1.0, None, None);
                        Err::<CallToolResult, _>(ErrorObject::internal_error("it failed"))
                    }),
                );
                c.tool(
                    tool("asks"),
                    handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                        let answer: ElicitResult = ctx.elicit(elicitation()).await?;
                        Ok(CallToolResult::text(
                            serde_json::to_string(&answer.content).unwrap(),
                        ))
                    }),
                );
                c.tool(
                    tool("samples"),
                    handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                        match ctx.sample(Default::default()).await {
                            Err(InputError::Refused(e)) => Ok(CallToolResult::text(e.message)),
                            other => Ok(CallToolResult::text(format!("{other:?}"))),
                        }
                    }),
                );
                c.tool(
                    tool("secret"),
                    handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                        ctx.progress().report(1.0, None, Some("the secret"));
                        Ok(CallToolResult::text("the secret"))
                    }),
                );
            }),
        )
        .register(
            origin("auth", 1),
            "hide-secret",
            0,
            Item::customizer_for::<mcp_server::core::tools::Tool>(
                "secret",
                mcp_server::seam::customizer::GuardAttacher::new(guard_fn("nobody", |_, _| {
                    Decision::deny("nobody")
                })),
            ),
        )
        .register(
            origin("ext", 1),
            "stamp",
            0,
            Item::sending_interceptor(Stamp(seen.clone())),
        )
        .build()
}

fn with_progress(name: &str) -> Value {
    json!({"name": name, "arguments": {}, "_meta": {"progressToken": "p", "test.example/tool": name}})
}

#[tokio::test]
async fn every_progress_notification_is_stamped_and_a_suppressed_one_is_not_sent() {
    let seen = Arc::new(Seen::default());
    let client = MemoryClient::new(&server(&seen, &Arc::new(Notify::new())));
    let result = client
        .request_raw("tools/call", with_progress("steps"))
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "stepped");
    let sent = client.take_notifications();
    let stamps: Vec<Value> = sent
        .iter()
        .map(|n| {
            assert_eq!(n.method, "notifications/progress");
            n.params_as::<Value>().unwrap()["_meta"]["test.example/stamp"]["n"].clone()
        })
        .collect();
    assert_eq!(stamps, [json!(1), json!(2), json!(3)], "{sent:?}");
    assert_eq!(
        seen.messages(),
        [
            (OutboundKind::Notification, "notifications/progress".into()),
            (OutboundKind::Notification, "notifications/progress".into()),
            (OutboundKind::Notification, "notifications/progress".into()),
            (OutboundKind::Notification, "test.example/noise".into()),
        ]
    );
    // The interceptor read the request's own context with each message.
    assert!(
        seen.messages
            .lock()
            .unwrap()
            .iter()
            .all(|(_, _, tool)| tool.as_deref() == Some("steps"))
    );
    assert_eq!(seen.ended(), [("tools/call".to_owned(), End::Completed)]);
}

#[tokio::test]
async fn a_progress_notification_leaves_while_its_call_is_still_running() {
    let seen = Arc::new(Seen::default());
    let release = Arc::new(Notify::new());
    let client = Arc::new(MemoryClient::new(&server(&seen, &release)));
    let call = tokio::spawn({
        let client = client.clone();
        async move {
            client
                .request_raw("tools/call", with_progress("waits"))
                .await
        }
    });
    let progress = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let sent = client.take_notifications();
            if let Some(first) = sent.into_iter().next() {
                return first;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the progress notification arrives before the call is released");
    assert!(!call.is_finished(), "the call is still running");
    assert_eq!(
        progress.params_as::<Value>().unwrap()["_meta"]["test.example/stamp"]["n"],
        json!(1)
    );
    release.notify_one();
    let result = call.await.unwrap().unwrap();
    assert_eq!(result["content"][0]["text"], "released");
    assert_eq!(seen.ended(), [("tools/call".to_owned(), End::Completed)]);
}

#[tokio::test]
async fn cleanup_runs_once_on_failure_and_on_cancellation() {
    let seen = Arc::new(Seen::default());
    let client = Arc::new(MemoryClient::new(&server(&seen, &Arc::new(Notify::new()))));
    let failed = client
        .request_raw("tools/call", with_progress("fails"))
        .await;
    assert_eq!(failed.unwrap_err().message, "it failed");
    assert_eq!(seen.ended(), [("tools/call".to_owned(), End::Failed)]);
    assert_eq!(client.take_notifications().len(), 1);

    // Never released: the client goes away while it waits.
    let call = tokio::spawn({
        let client = client.clone();
        async move {
            client
                .request_raw("tools/call", with_progress("waits"))
                .await
        }
    });
    tokio::time::timeout(Duration::from_secs(10), async {
        while client.take_notifications().is_empty() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .unwrap();
    call.abort();
    assert!(call.await.unwrap_err().is_cancelled());
    assert_eq!(
        seen.ended(),
        [
            ("tools/call".to_owned(), End::Failed),
            ("tools/call".to_owned(), End::Cancelled)
        ]
    );
}

#[tokio::test]
async fn a_legacy_elicitation_and_its_answer_are_rewritten_on_their_way() {
    let seen = Arc::new(Seen::default());
    let asked = Arc::new(Mutex::new(Vec::<Value>::new()));
    let into = asked.clone();
    let client = MemoryClient::new(&server(&seen, &Arc::new(Notify::new())))
        .legacy(Negotiated {
            protocol_version: "2025-11-25".into(),
            client_capabilities: serde_json::from_value(json!({"elicitation": {}})).unwrap(),
            ..Negotiated::default()
        })
        .with_requester(
            move |_method: &'static str,
                  params: Value|
                  -> BoxFuture<'static, Result<Value, InputError>> {
                into.lock().unwrap().push(params);
                Box::pin(async {
                    Ok(json!({"action": "accept", "content": {"answer": "as the client said"}}))
                })
            },
        );
    let result = client.call_tool("asks", json!({})).await.unwrap();
    let sent = asked.lock().unwrap().clone();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["message"], "Rewritten on its way out");
    assert_eq!(sent[0]["_meta"]["test.example/seen"], true);
    assert_eq!(
        result.content,
        CallToolResult::text(r#"{"answer":"rewritten on its way in"}"#).content
    );
    assert_eq!(
        seen.messages(),
        [
            (OutboundKind::Request, "elicitation/create".into()),
            (OutboundKind::Answer, "elicitation/create".into()),
        ]
    );
}

#[tokio::test]
async fn a_refused_request_to_the_client_is_never_sent_and_the_handler_hears_why() {
    let seen = Arc::new(Seen::default());
    let asked = Arc::new(Mutex::new(0));
    let into = asked.clone();
    let client = MemoryClient::new(&server(&seen, &Arc::new(Notify::new())))
        .legacy(Negotiated {
            protocol_version: "2025-11-25".into(),
            client_capabilities: serde_json::from_value(json!({"sampling": {}})).unwrap(),
            ..Negotiated::default()
        })
        .with_requester(
            move |_: &'static str, _: Value| -> BoxFuture<'static, Result<Value, InputError>> {
                *into.lock().unwrap() += 1;
                Box::pin(async { Err(InputError::Cancelled) })
            },
        );
    let result = client.call_tool("samples", json!({})).await.unwrap();
    assert_eq!(
        result.content,
        CallToolResult::text("no sampling here").content
    );
    assert_eq!(*asked.lock().unwrap(), 0);
}

#[tokio::test]
async fn the_input_requests_of_an_input_required_result_are_rewritten_as_they_are_asked() {
    let seen = Arc::new(Seen::default());
    let client = MemoryClient::new(&server(&seen, &Arc::new(Notify::new())))
        .with_capabilities(serde_json::from_value(json!({"elicitation": {}})).unwrap());
    let result = client
        .request_raw("tools/call", json!({"name": "asks", "arguments": {}}))
        .await
        .unwrap();
    assert_eq!(result["resultType"], "input_required", "{result}");
    let asked = &result["inputRequests"]["elicitation-1"];
    assert_eq!(asked["method"], "elicitation/create");
    assert_eq!(asked["params"]["message"], "Rewritten on its way out");
    assert_eq!(
        *seen.messages.lock().unwrap(),
        [(
            OutboundKind::InputRequest,
            "elicitation/create".to_owned(),
            Some("elicitation-1".to_owned())
        )]
    );
}

#[tokio::test]
async fn listen_stream_notifications_pass_and_a_legacy_sessions_feed_passes_too() {
    let seen = Arc::new(Seen::default());
    let server = server(&seen, &Arc::new(Notify::new()));
    let client = MemoryClient::new(&server);
    let mut stream = client.listen(json!({"toolsListChanged": true}));
    let ack = stream.next().await.unwrap();
    assert_eq!(ack.method, "notifications/subscriptions/acknowledged");
    server.changes().publish(Change::new(
        "notifications/tools/list_changed",
        Topic::Flag("toolsListChanged".into()),
    ));
    let changed = stream.next().await.unwrap();
    assert_eq!(changed.method, "notifications/tools/list_changed");
    assert_eq!(
        seen.messages(),
        [
            (
                OutboundKind::Notification,
                "notifications/subscriptions/acknowledged".into()
            ),
            (
                OutboundKind::Notification,
                "notifications/tools/list_changed".into()
            ),
        ]
    );
    // Outside any request, as a transport sends a legacy session's changes.
    let noise =
        mcp_server::core::jsonrpc::Notification::new("test.example/noise", &json!({"level": 1}))
            .unwrap();
    assert!(server.outgoing(noise).is_none(), "suppressed");
}

#[tokio::test]
async fn a_call_the_guards_refuse_shows_the_sending_interceptors_nothing() {
    let seen = Arc::new(Seen::default());
    let client = MemoryClient::new(&server(&seen, &Arc::new(Notify::new())));
    let refused = client
        .request_raw("tools/call", with_progress("secret"))
        .await
        .unwrap_err();
    let unknown = client
        .request_raw("tools/call", with_progress("no-such-tool"))
        .await
        .unwrap_err();
    assert_eq!(refused.code, unknown.code);
    assert_eq!(
        refused.message.replace("secret", "no-such-tool"),
        unknown.message
    );
    assert!(client.take_notifications().is_empty());
    assert!(seen.messages().is_empty(), "{:?}", seen.messages());
    assert!(seen.ended().is_empty(), "nothing seen, nothing to clean up");
}

/// Appends its letter to `_meta["test.example/trail"]` of each progress
/// notification, and removes `test.example/stamp` when told to.
struct Trail {
    letter: &'static str,
    unstamp: bool,
}

impl SendingInterceptor for Trail {
    fn notify(&self, message: &mut Outbound) {
        let meta = message.meta_mut();
        let trail = meta
            .get("test.example/trail")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        meta.insert(
            "test.example/trail".into(),
            format!("{trail}{}", self.letter).into(),
        );
        if self.unstamp {
            meta.remove("test.example/stamp");
        }
    }
}

#[tokio::test]
async fn chained_interceptors_run_by_order_then_name_each_on_what_the_one_before_left() {
    let seen = Arc::new(Seen::default());
    let trail = |letter, unstamp| Item::sending_interceptor(Trail { letter, unstamp });
    // `stamp` (order 0) adds a key; `b` and `a` (order 5, a tie broken by
    // name) append in turn; `z` (order 9) removes the stamp.
    let server = builder()
        .contributor(
            origin("app", 1),
            "tools",
            contributor_fn(|c| {
                c.tool(
                    tool("steps"),
                    handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                        ctx.progress().report(1.0, None, None);
                        Ok(CallToolResult::text("stepped"))
                    }),
                );
            }),
        )
        .register(origin("ext", 4), "z", 9, trail("z", true))
        .register(origin("ext", 3), "b", 5, trail("b", false))
        .register(origin("ext", 2), "a", 5, trail("a", false))
        .register(
            origin("ext", 1),
            "stamp",
            0,
            Item::sending_interceptor(Stamp(seen.clone())),
        )
        .build();
    let client = MemoryClient::new(&server);
    client
        .request_raw("tools/call", with_progress("steps"))
        .await
        .unwrap();
    let sent = client.take_notifications();
    assert_eq!(sent.len(), 1, "{sent:?}");
    let meta = sent[0].params_as::<Value>().unwrap()["_meta"].clone();
    assert_eq!(meta["test.example/trail"], "abz", "{meta}");
    assert!(
        meta.get("test.example/stamp").is_none(),
        "the last member removed what the first added: {meta}"
    );
    assert_eq!(sent[0].params_as::<Value>().unwrap()["progressToken"], "p");
    assert_eq!(seen.messages().len(), 1, "the stamp saw the message first");
}
