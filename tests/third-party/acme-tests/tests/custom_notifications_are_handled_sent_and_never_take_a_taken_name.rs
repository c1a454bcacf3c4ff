//! An outside crate's own notifications: a typed handler for one the client
//! sends, a typed notification a tool sends, and boot refusing a name
//! already taken by a built-in request or notification, a contributed
//! method or another contributed notification, naming both parties.

use std::sync::{Arc, Mutex};

use mcp_server::boot::BootError;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::handler::notification::notification_fn;
use mcp_server::seam::contributor::{Contributions, contributor_fn};
use mcp_server::seam::{Item, Origin};
use mcp_server::testing::MemoryClient;
use mcp_server::{Method, Notification, Params, RequestContext, Server};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Clone, Serialize, Deserialize, Params)]
struct Touch {
    note: String,
}

#[derive(Notification)]
#[mcp(name = "dev.acme/notes.touched", params = Touch)]
struct Touched;

#[derive(Notification)]
#[mcp(name = "dev.acme/notes.stage", params = Touch)]
struct Stage;

#[derive(Notification)]
#[mcp(name = "tools/call", params = Touch)]
struct NamedLikeARequest;

#[derive(Notification)]
#[mcp(name = "notifications/cancelled", params = Touch)]
struct NamedLikeACancellation;

#[derive(Debug, Serialize, Deserialize, Params)]
struct Empty {}

#[derive(Method)]
#[mcp(name = "dev.acme/notes.touched", params = Empty, result = Empty)]
struct TouchedRequest;

fn origin(line: u32) -> Origin {
    Origin {
        line,
        ..mcp_server::origin!()
    }
}

fn server_with(
    line: u32,
    contribute: impl Fn(&mut Contributions<'_>) + Send + Sync + 'static,
) -> mcp_server::server::Builder {
    Server::builder()
        .without_linked()
        .without_environment()
        .register(
            origin(line),
            "contributes",
            0,
            Item::contributor(contributor_fn(contribute)),
        )
}

#[tokio::test]
async fn a_client_notification_of_an_extensions_own_reaches_its_typed_handler() {
    let heard = Arc::new(Mutex::new(Vec::new()));
    let into = heard.clone();
    let server = server_with(1, move |c| {
        let into = into.clone();
        c.notification::<Touched>(notification_fn(move |ctx: RequestContext, touch: Touch| {
            let into = into.clone();
            async move {
                into.lock()
                    .unwrap()
                    .push((touch.note, ctx.method().to_owned()));
            }
        }));
    })
    .build();
    let client = MemoryClient::new(&server);
    let answer = client
        .send(&json!({"jsonrpc": "2.0", "method": "dev.acme/notes.touched", "params": {"note": "n1"}}))
        .await;
    assert_eq!(answer, None, "a notification is never answered");
    // Params that do not fit the declared type are dropped, not answered,
    // and the handler does not run.
    let answer = client
        .send(&json!({"jsonrpc": "2.0", "method": "dev.acme/notes.touched", "params": {"note": 7}}))
        .await;
    assert_eq!(answer, None);
    assert_eq!(
        *heard.lock().unwrap(),
        [("n1".to_owned(), "dev.acme/notes.touched".to_owned())]
    );
}

#[tokio::test]
async fn a_tool_sends_an_extensions_own_notification_before_its_result() {
    let server = server_with(2, |c| {
        c.tool(
            Tool {
                name: "stages".into(),
                ..Tool::default()
            },
            handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                ctx.notify::<Stage>(Touch {
                    note: "parsed".into(),
                });
                Ok(CallToolResult::text("done"))
            }),
        );
    })
    .build();
    let client = MemoryClient::new(&server);
    let result = client.call_tool("stages", json!({})).await.unwrap();
    assert_eq!(result.content, CallToolResult::text("done").content);
    let sent = client.take_notifications();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].method, "dev.acme/notes.stage");
    assert_eq!(
        sent[0].params_as::<serde_json::Value>().unwrap(),
        json!({"note": "parsed"})
    );
}

fn refused(errors: &mcp_server::boot::BootErrors) -> (String, Origin, Origin) {
    let [
        BootError::DuplicateMethod {
            method,
            first,
            second,
        },
    ] = errors.errors()
    else {
        panic!("{errors}");
    };
    (method.clone(), *first, *second)
}

#[test]
fn a_notification_named_like_a_built_in_request_fails_boot_naming_both() {
    let errors = server_with(3, |c| {
        c.notification::<NamedLikeARequest>(notification_fn(|_, _: Touch| async {}));
    })
    .try_build()
    .unwrap_err();
    let (method, first, second) = refused(&errors);
    assert_eq!(
        (method.as_str(), first, second.line),
        ("tools/call", Origin::FRAMEWORK, 3)
    );
    assert!(
        errors.to_string().starts_with(
            "error[mcp::duplicate_method]: method `tools/call` is built in and contributed again"
        ),
        "{errors}"
    );
}

#[test]
fn a_notification_named_like_a_core_notification_fails_boot_naming_both() {
    let errors = server_with(4, |c| {
        c.notification::<NamedLikeACancellation>(notification_fn(|_, _: Touch| async {}));
    })
    .try_build()
    .unwrap_err();
    let (method, first, second) = refused(&errors);
    assert_eq!(
        (method.as_str(), first, second.line),
        ("notifications/cancelled", Origin::FRAMEWORK, 4)
    );
}

#[test]
fn a_notification_named_like_a_contributed_request_fails_boot_naming_both() {
    let errors = server_with(5, |c| {
        c.method::<TouchedRequest>(handler_fn::<TouchedRequest, _, _, _>(|_, _| async {
            Ok(Empty {})
        }));
    })
    .register(
        origin(6),
        "also-contributes",
        0,
        Item::contributor(contributor_fn(|c| {
            c.notification::<Touched>(notification_fn(|_, _: Touch| async {}));
        })),
    )
    .try_build()
    .unwrap_err();
    let (method, first, second) = refused(&errors);
    assert_eq!(
        (method.as_str(), first.line, second.line),
        ("dev.acme/notes.touched", 5, 6)
    );
    let text = errors.to_string();
    assert!(
        text.contains("method `dev.acme/notes.touched` is contributed twice"),
        "{text}"
    );
}

#[test]
fn two_handlers_of_one_notification_fail_boot_naming_both() {
    let errors = server_with(7, |c| {
        c.notification::<Touched>(notification_fn(|_, _: Touch| async {}));
    })
    .register(
        origin(8),
        "also-contributes",
        0,
        Item::contributor(contributor_fn(|c| {
            c.notification::<Touched>(notification_fn(|_, _: Touch| async {}));
        })),
    )
    .try_build()
    .unwrap_err();
    let (method, first, second) = refused(&errors);
    assert_eq!(
        (method.as_str(), first.line, second.line),
        ("dev.acme/notes.touched", 7, 8)
    );
}

#[derive(Debug, Serialize, Deserialize, Params)]
struct FlagKeys {
    keys: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize)]
struct FlagValues {
    beta: bool,
}

/// `dev.acme/flags`: a request the server sends its client.
#[derive(Method)]
#[mcp(name = "dev.acme/flags", params = FlagKeys, result = FlagValues)]
struct ReadFlags;

fn flags_server() -> Server {
    server_with(8, |c| {
        c.tool(
            Tool {
                name: "beta".into(),
                ..Tool::default()
            },
            handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                let keys = FlagKeys {
                    keys: vec!["beta".into()],
                };
                Ok(CallToolResult::text(
                    match ctx.request::<ReadFlags>(keys).await {
                        Ok(values) => format!("beta={}", values.beta),
                        Err(error) => format!("not asked: {error}"),
                    },
                ))
            }),
        );
    })
    .build()
}

#[tokio::test]
async fn a_tool_sends_an_extensions_own_request_to_a_legacy_client_and_reads_its_typed_answer() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let into = asked.clone();
    let client = MemoryClient::new(&flags_server())
        .legacy(mcp_server::context::Negotiated {
            protocol_version: "2025-11-25".into(),
            ..Default::default()
        })
        .with_requester(
            move |method: &'static str,
                  params: serde_json::Value|
                  -> mcp_server::BoxFuture<
                'static,
                Result<serde_json::Value, mcp_server::context::InputError>,
            > {
                into.lock().unwrap().push((method, params));
                Box::pin(async { Ok(json!({"beta": true})) })
            },
        );
    let result = client.call_tool("beta", json!({})).await.unwrap();
    assert_eq!(result.content, CallToolResult::text("beta=true").content);
    assert_eq!(
        *asked.lock().unwrap(),
        [("dev.acme/flags", json!({"keys": ["beta"]}))]
    );
}

#[tokio::test]
async fn a_modern_request_cannot_carry_a_custom_request_and_the_tool_hears_why() {
    let client = MemoryClient::new(&flags_server());
    let result = client.call_tool("beta", json!({})).await.unwrap();
    let text = serde_json::to_value(&result.content).unwrap()[0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        text.starts_with("not asked: ") && text.contains("2026-07-28"),
        "{text}"
    );
}
