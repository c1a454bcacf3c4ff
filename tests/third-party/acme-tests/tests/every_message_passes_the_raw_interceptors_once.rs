//! One pipeline for every method: an audit interceptor of an outside crate
//! sees every request and client notification exactly once, the legacy
//! lifecycle included, in a whole 2025-11-25 session and a run of
//! 2026-07-28 requests; it may refuse any of them, and a refused request
//! leaves no effect on the session.

use std::sync::{Arc, Mutex};

use mcp_server::core::error::ErrorObject;
use mcp_server::core::jsonrpc::Notification;
use mcp_server::core::logging::LoggingLevel;
use mcp_server::prelude::extension::*;
use mcp_server::testing::MemoryClient;
use mcp_server::transport::Peer;
use serde_json::json;

use acme_notes as _;

/// Records every message it sees: the method, and `!` for a notification.
#[derive(Default)]
struct Audit {
    seen: Mutex<Vec<String>>,
    refuse: Vec<&'static str>,
    refuse_after: Vec<&'static str>,
}

impl Audit {
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.seen.lock().unwrap())
    }
}

impl RawInterceptor for Audit {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        Box::pin(async move {
            let mark = if call.is_notification() { "!" } else { "" };
            self.seen
                .lock()
                .unwrap()
                .push(format!("{}{mark}", call.method()));
            if self.refuse.contains(&call.method()) {
                return Err(ErrorObject::invalid_request("refused by audit"));
            }
            let answer = next.run(call).await?;
            if self.refuse_after.contains(&call.method()) {
                return Err(ErrorObject::invalid_request(
                    "refused by audit after the fact",
                ));
            }
            Ok(answer)
        })
    }
}

fn server(audit: Arc<Audit>) -> Server {
    Server::builder()
        .without_environment()
        .register(
            origin!(),
            "audit",
            0,
            Item::member::<mcp_server::seam::interceptor::RawInterceptors>(audit),
        )
        .build()
}

#[tokio::test]
async fn a_whole_legacy_session_and_modern_requests_pass_once_each() {
    let audit = Arc::new(Audit::default());
    let server = server(audit.clone());
    let legacy = MemoryClient::new(&server).connected();
    legacy.initialize("2025-11-25").await.unwrap();
    legacy.request_raw("ping", json!({})).await.unwrap();
    legacy
        .request_raw("logging/setLevel", json!({"level": "info"}))
        .await
        .unwrap();
    legacy
        .request_raw("resources/subscribe", json!({"uri": "notes://ada"}))
        .await
        .unwrap();
    legacy
        .request_raw("resources/unsubscribe", json!({"uri": "notes://ada"}))
        .await
        .unwrap();
    legacy.request_raw("tools/list", json!({})).await.unwrap();
    legacy
        .call_tool("note.add", json!({"text": "x"}))
        .await
        .unwrap();
    legacy
        .request_raw("resources/read", json!({"uri": "notes://ada"}))
        .await
        .unwrap();
    legacy
        .request_raw("acme/notes.count", json!({"owner": "ada"}))
        .await
        .unwrap();
    legacy
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}))
        .await;
    assert_eq!(
        audit.take(),
        [
            "initialize",
            "notifications/initialized!",
            "ping",
            "logging/setLevel",
            "resources/subscribe",
            "resources/unsubscribe",
            "tools/list",
            "tools/call",
            "resources/read",
            "acme/notes.count",
            "notifications/cancelled!",
        ]
    );
    assert_eq!(
        legacy.negotiated().unwrap().log_level,
        Some(LoggingLevel::Info)
    );

    let modern = MemoryClient::new(&server);
    modern
        .request_raw("server/discover", json!({}))
        .await
        .unwrap();
    modern
        .request_raw("resources/templates/list", json!({}))
        .await
        .unwrap();
    modern.call_tool("note.list", json!({})).await.unwrap();
    modern
        .request_raw("acme/notes.count", json!({"owner": "ada"}))
        .await
        .unwrap();
    // A legacy method in the modern era is not found before the pipeline.
    assert_eq!(
        modern
            .request_raw("ping", json!({}))
            .await
            .unwrap_err()
            .code
            .0,
        -32601
    );
    assert_eq!(
        audit.take(),
        [
            "server/discover",
            "resources/templates/list",
            "tools/call",
            "acme/notes.count"
        ]
    );
}

#[tokio::test]
async fn a_refused_lifecycle_request_changes_nothing_on_the_session() {
    let audit = Arc::new(Audit {
        refuse_after: vec!["logging/setLevel"],
        refuse: vec!["ping"],
        ..Audit::default()
    });
    let server = server(audit.clone());
    let legacy = MemoryClient::new(&server).connected();
    legacy.initialize("2025-11-25").await.unwrap();
    let refused = legacy.request_raw("ping", json!({})).await.unwrap_err();
    assert_eq!(refused.message, "refused by audit");
    let refused = legacy
        .request_raw("logging/setLevel", json!({"level": "debug"}))
        .await
        .unwrap_err();
    assert_eq!(refused.message, "refused by audit after the fact");
    assert_eq!(legacy.negotiated().unwrap().log_level, None);
}

#[tokio::test]
async fn a_refused_notification_is_not_acted_on() {
    let audit = Arc::new(Audit {
        refuse: vec!["notifications/cancelled"],
        ..Audit::default()
    });
    let server = server(audit.clone());
    let peer = Peer::modern();
    let cancelled = Notification::new("notifications/cancelled", &json!({"requestId": 1})).unwrap();
    let roots = Notification::new("notifications/roots/list_changed", &json!({})).unwrap();
    assert!(!server.admit_notification(&cancelled, &peer).await);
    assert!(server.admit_notification(&roots, &peer).await);
    assert_eq!(
        audit.take(),
        [
            "notifications/cancelled!",
            "notifications/roots/list_changed!"
        ]
    );
}
