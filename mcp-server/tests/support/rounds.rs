//! A server whose tools ask for input in rounds, and a client stand-in
//! that answers, for the multi round-trip tests of every transport.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_server::BoxFuture;
use mcp_server::Server;
use mcp_server::context::InputError;
use mcp_server::core::capabilities::ClientCapabilities;
use mcp_server::core::content::{Role, TextContent};
use mcp_server::core::elicitation::{
    ElicitRequestFormParams, ElicitRequestParams, PrimitiveSchemaDefinition, RequestedSchema,
    StringSchema,
};
use mcp_server::core::json::JsonValue;
use mcp_server::core::sampling::{
    CreateMessageRequestParams, SamplingContent, SamplingMessage, SamplingMessageContentBlock,
};
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::server::Builder;
use serde_json::json;

use super::{origin, tool};

/// Counts the runs of the survey's handler.
#[derive(Clone, Default)]
pub struct Runs(pub Arc<AtomicUsize>);

impl Runs {
    pub fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// A form asking for one string field.
pub fn form(message: &str, field: &str) -> ElicitRequestParams {
    let mut schema = RequestedSchema::default();
    schema.properties.insert(
        field.into(),
        PrimitiveSchemaDefinition::String(StringSchema::default()),
    );
    schema.required = Some(vec![field.into()]);
    ElicitRequestParams::Form(ElicitRequestFormParams {
        message: message.into(),
        requested_schema: schema,
        ..ElicitRequestFormParams::default()
    })
}

/// One user message to the model.
pub fn sampling(text: &str) -> CreateMessageRequestParams {
    CreateMessageRequestParams {
        messages: vec![SamplingMessage {
            role: Role::User,
            content: SamplingContent::One(SamplingMessageContentBlock::Text(TextContent::new(
                text,
            ))),
            meta: None,
        }],
        max_tokens: 20,
        ..CreateMessageRequestParams::default()
    }
}

/// Adds the tools to `builder`:
/// - `survey`: round 1 asks a name (`name`) and a greeting from the model
///   (`greeting`) at once, round 2 the roots (`roots`), then answers
///   `<greeting>, <name>! roots: <uris>`; it takes an argument `topic`.
/// - `later`: first asks the client to come back (state only), carrying
///   `{"visits": 1}`; the second run answers `came back after 1 visit`.
pub fn with_survey(builder: Builder, runs: Runs) -> Builder {
    builder.contributor(
        origin("app", 1),
        "tools",
        contributor_fn(move |c| {
            let runs = runs.clone();
            c.tool(
                tool("survey"),
                handler_fn::<CallTool, _, _, _>(move |ctx, _| {
                    let runs = runs.clone();
                    async move {
                        runs.0.fetch_add(1, Ordering::SeqCst);
                        let (name, greeting) = tokio::join!(
                            ctx.input("name").elicit(form("Your name?", "name")),
                            ctx.input("greeting").sample(sampling("Say hello")),
                        );
                        let (name, greeting) = (name?, greeting?);
                        let roots = ctx.input("roots").list_roots().await?;
                        let name = name
                            .content
                            .and_then(|c| c.get("name").map(|v| serde_json::to_value(v).unwrap()))
                            .and_then(|v| v.as_str().map(str::to_owned))
                            .unwrap_or_default();
                        let greeting = serde_json::to_value(&greeting.content).unwrap()["text"]
                            .as_str()
                            .unwrap_or_default()
                            .to_owned();
                        let uris: Vec<String> = roots.roots.into_iter().map(|r| r.uri).collect();
                        Ok(CallToolResult::text(format!(
                            "{greeting}, {name}! roots: {}",
                            uris.join(" ")
                        )))
                    }
                }),
            );
            c.tool(
                tool("later"),
                handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                    match ctx.carried::<JsonValue>() {
                        Some(state) => Ok(CallToolResult::text(format!(
                            "came back after {} visit",
                            state["visits"]
                        ))),
                        None => {
                            ctx.carry(&json!({"visits": 1}));
                            ctx.retry_later().map_err(|e: InputError| e)?;
                            Ok(CallToolResult::text("not sent"))
                        }
                    }
                }),
            );
        }),
    )
}

/// Every input capability.
pub fn all_capabilities() -> ClientCapabilities {
    serde_json::from_value(json!({"elicitation": {}, "sampling": {}, "roots": {}})).unwrap()
}

/// The client's answer to one input request, by method.
pub fn answer_for(method: &str) -> JsonValue {
    match method {
        "elicitation/create" => json!({"action": "accept", "content": {"name": "Ada"}}),
        "sampling/createMessage" => json!({
            "role": "assistant",
            "content": {"type": "text", "text": "Hello"},
            "model": "test-model"
        }),
        "roots/list" => json!({"roots": [{"uri": "file:///work"}]}),
        other => panic!("asked for {other}"),
    }
}

/// A client stand-in that answers every input request with [`answer_for`].
pub fn answering()
-> impl Fn(&'static str, JsonValue) -> BoxFuture<'static, Result<JsonValue, InputError>>
+ Send
+ Sync
+ 'static {
    |method, _| Box::pin(async move { Ok(answer_for(method)) })
}

/// The `inputResponses` for every request of an input-required result.
pub fn responses_to(result: &JsonValue) -> JsonValue {
    let requests = result["inputRequests"].as_object().expect("input requests");
    requests
        .iter()
        .map(|(key, request)| (key.clone(), answer_for(request["method"].as_str().unwrap())))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// A server with the survey tools and `secret` as its request-state key.
pub fn survey_server(secret: &str, runs: Runs) -> Server {
    with_survey(super::builder(), runs)
        .request_state_key(secret)
        .build()
}

/// The final text of the survey with the standard answers.
pub const SURVEY_TEXT: &str = "Hello, Ada! roots: file:///work";
