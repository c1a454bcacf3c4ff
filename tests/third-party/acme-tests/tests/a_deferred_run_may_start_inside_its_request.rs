//! The seams an extension that answers with a handle once the work starts
//! builds on, used as an outside crate would: a deferred run started inside
//! its request asks its first questions as multi round-trip rounds, leaves
//! the request when the handler releases it, sends its later questions to
//! the requester its runner gave, and escalated errors fail the run; a
//! capabilities customizer may differ per era.

use std::sync::{Arc, Mutex};

use mcp_server::boot::BootContext;
use mcp_server::context::InputError;
use mcp_server::core::capabilities::ServerCapabilities;
use mcp_server::core::elicitation::{ElicitRequestFormParams, ElicitRequestParams};
use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::{JsonObject, JsonValue};
use mcp_server::core::result::ResultType;
use mcp_server::core::version::Era;
use mcp_server::handler::AlternateResult;
use mcp_server::seam::Item;
use mcp_server::seam::customizer::ServerCapabilitiesCustomizer;
use mcp_server::seam::interceptor::{AlternateResultInterceptor, Invocation, Settled, Started};
use mcp_server::testing::MemoryClient;
use mcp_server::transport::ClientRequester;
use mcp_server::{BoxFuture, RequestContext, Server, origin, tool};
use serde_json::json;
use tokio::sync::oneshot;

fn form(message: &str) -> ElicitRequestParams {
    ElicitRequestParams::Form(ElicitRequestFormParams {
        message: message.into(),
        ..Default::default()
    })
}

fn answer_text(answer: &mcp_server::core::elicitation::ElicitResult) -> String {
    let value = serde_json::to_value(answer.content.as_ref().and_then(|c| c.get("name"))).unwrap();
    value.as_str().unwrap_or_default().to_owned()
}

/// Asks a name in the request, releases it, then asks a title outside it.
#[tool]
async fn relay_greeting(ctx: RequestContext) -> Result<String, InputError> {
    let name = answer_text(&ctx.input("name").elicit(form("Name?")).await?);
    ctx.release_request();
    let title = answer_text(&ctx.input("title").elicit(form("Title?")).await?);
    Ok(format!("Hello, {title} {name}!"))
}

/// Finishes without ever releasing its request.
#[tool]
async fn relay_quick() -> String {
    "quick".into()
}

/// Escalates a protocol error after releasing its request.
#[tool]
async fn relay_broken(ctx: RequestContext) -> String {
    ctx.release_request();
    ctx.escalate(ErrorObject::internal_error("the backend is gone"));
    "ignored".into()
}

/// What the background runs ended with, and the questions they asked.
#[derive(Default)]
struct Seen {
    ends: Mutex<Vec<Result<JsonValue, ErrorObject>>>,
    asked: Mutex<Vec<(Option<String>, &'static str)>>,
}

/// Answers every question outside the request with a fixed title.
struct Titles(Arc<Seen>);

impl ClientRequester for Titles {
    fn request(
        &self,
        method: &'static str,
        params: JsonValue,
    ) -> BoxFuture<'static, Result<JsonValue, InputError>> {
        self.request_keyed(None, method, params)
    }

    fn request_keyed(
        &self,
        key: Option<&str>,
        method: &'static str,
        _: JsonValue,
    ) -> BoxFuture<'static, Result<JsonValue, InputError>> {
        self.0
            .asked
            .lock()
            .unwrap()
            .push((key.map(str::to_owned), method));
        Box::pin(async { Ok(json!({"action": "accept", "content": {"name": "Dr."}})) })
    }
}

/// Starts `relay_*` tools inside their request; answers with a handle once released.
struct Relay {
    seen: Arc<Seen>,
    done: Mutex<Option<oneshot::Sender<()>>>,
}

impl AlternateResultInterceptor for Relay {
    fn intercept<'a>(
        &'a self,
        invocation: Invocation<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        Box::pin(async move {
            if !invocation.target().name.starts_with("relay_") {
                return invocation.proceed().await;
            }
            let proof = invocation.authorized();
            let deferred = invocation.defer();
            deferred.ask_through(Arc::new(Titles(self.seen.clone())));
            match deferred.start().await {
                Started::Finished(answer) => *answer,
                Started::Released(mut running) => {
                    let seen = self.seen.clone();
                    let done = self.done.lock().unwrap().take();
                    tokio::spawn(async move {
                        let end = running.finish().await.map(|s| s.to_json());
                        seen.ends.lock().unwrap().push(end);
                        if let Some(done) = done {
                            let _ = done.send(());
                        }
                    });
                    let mut body = JsonObject::new();
                    body.insert("handle".into(), json!("h-1"));
                    Ok(proof.alternate(AlternateResult {
                        result_type: ResultType::from_static("relay"),
                        body,
                    }))
                }
            }
        })
    }
}

fn server() -> (Server, Arc<Seen>, oneshot::Receiver<()>) {
    let seen = Arc::new(Seen::default());
    let (done, finished) = oneshot::channel();
    let relay = Relay {
        seen: seen.clone(),
        done: Mutex::new(Some(done)),
    };
    let server = Server::builder()
        .setting(
            "server.request_state_key",
            "a secret of at least thirty-two bytes, for tests",
        )
        .register(
            origin!(),
            "relay",
            0,
            Item::alternate_result_interceptor(relay),
        )
        .build();
    (server, seen, finished)
}

fn client(server: &Server) -> MemoryClient {
    MemoryClient::new(server)
        .with_capabilities(serde_json::from_value(json!({"elicitation": {}})).unwrap())
}

#[tokio::test]
async fn questions_before_the_release_are_rounds_and_after_it_go_to_the_runners_requester() {
    let (server, seen, finished) = server();
    let client = client(&server);
    let first = client
        .request_raw("tools/call", json!({"name": "relay_greeting"}))
        .await
        .unwrap();
    assert_eq!(first["resultType"], "input_required", "{first}");
    assert!(first["inputRequests"]["name"].is_object());
    assert!(
        first.get("handle").is_none(),
        "no handle before the release"
    );
    let retry = json!({
        "name": "relay_greeting",
        "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}},
        "requestState": first["requestState"],
    });
    let handle = client.request_raw("tools/call", retry).await.unwrap();
    assert_eq!(
        (handle["resultType"].as_str(), handle["handle"].as_str()),
        (Some("relay"), Some("h-1"))
    );
    finished.await.unwrap();
    let ends = seen.ends.lock().unwrap();
    assert_eq!(
        ends[0].as_ref().unwrap()["content"][0]["text"],
        "Hello, Dr. Ada!"
    );
    assert_eq!(
        *seen.asked.lock().unwrap(),
        [(Some("title".to_owned()), "elicitation/create")]
    );
}

#[tokio::test]
async fn a_run_that_finishes_inside_its_request_answers_it() {
    let (server, seen, _) = server();
    let answer = client(&server)
        .request_raw("tools/call", json!({"name": "relay_quick"}))
        .await
        .unwrap();
    assert_eq!(answer["content"][0]["text"], "quick");
    assert!(seen.ends.lock().unwrap().is_empty());
}

#[tokio::test]
async fn an_error_escalated_after_the_release_ends_the_run() {
    let (server, seen, finished) = server();
    let handle = client(&server)
        .request_raw("tools/call", json!({"name": "relay_broken"}))
        .await
        .unwrap();
    assert_eq!(handle["resultType"], "relay");
    finished.await.unwrap();
    let ends = seen.ends.lock().unwrap();
    assert_eq!(ends[0].as_ref().unwrap_err().message, "the backend is gone");
}

/// Advertises one thing to each era.
struct PerEra;

impl ServerCapabilitiesCustomizer for PerEra {
    fn customize(&self, capabilities: &mut ServerCapabilities, _: &BootContext) {
        capabilities
            .extensions
            .get_or_insert_default()
            .insert("com.acme/both".into(), Default::default());
    }

    fn customize_era(&self, era: Era, capabilities: &mut ServerCapabilities, _: &BootContext) {
        let name = match era {
            Era::Modern => "com.acme/modern-only",
            Era::Legacy => "com.acme/legacy-only",
        };
        capabilities
            .extensions
            .get_or_insert_default()
            .insert(name.into(), Default::default());
    }
}

#[test]
fn a_capabilities_customizer_may_advertise_differently_per_era() {
    let server = Server::builder()
        .register(origin!(), "per-era", 0, Item::capabilities(PerEra))
        .build();
    let modern = server.capabilities_in(Era::Modern);
    let legacy = server.capabilities_in(Era::Legacy);
    assert!(modern.has_extension("com.acme/both") && legacy.has_extension("com.acme/both"));
    assert!(
        modern.has_extension("com.acme/modern-only")
            && !modern.has_extension("com.acme/legacy-only")
    );
    assert!(
        legacy.has_extension("com.acme/legacy-only")
            && !legacy.has_extension("com.acme/modern-only")
    );
}
