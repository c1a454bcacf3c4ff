//! Whatever a guard hides stays hidden, whoever answers: the handler, a
//! typed, raw or handler-chain interceptor taking the call over, an answer
//! made for another caller's call, a cached list, a completion, a resource
//! template, an alternate result. A hidden target answers exactly as one
//! that does not exist. Written as a stranger's crate would be: with the
//! public API of mcp-server only.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use acme_notes::{Purges, Ticketed};
use mcp_server::auth::{Credentials, Principal};
use mcp_server::core::error::ErrorObject;
use mcp_server::core::tools::{
    CallTool, CallToolRequestParams, CallToolResult, ListTools, ListToolsResult, Tool,
};
use mcp_server::prelude::extension::*;
use mcp_server::seam::customizer::GuardAttacher;
use mcp_server::seam::interceptor::{
    HandlerInterceptors, RawInterceptors, Scoped, TypedInterceptorItem, TypedInterceptors,
};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::testing::MemoryClient;
use serde_json::{Value, json};

use acme_notes as _;

/// `Bearer admin` is an admin; `Bearer ada` is Ada; anyone else is anonymous.
struct Tokens;

impl PrincipalSource for Tokens {
    fn principal(&self, credentials: &Credentials) -> Arc<Principal> {
        Arc::new(match credentials.bearer() {
            Some("admin") => Principal::named("root").with_role("admin"),
            Some("ada") => Principal::named("ada"),
            _ => Principal::anonymous(),
        })
    }
}

fn builder() -> mcp_server::server::Builder {
    Server::builder()
        .without_environment()
        .supply::<dyn PrincipalSource>(origin!(), "tokens", Arc::new(Tokens))
}

fn admin(server: &Server) -> MemoryClient {
    MemoryClient::new(server).with_credentials(Credentials::bearer_token("admin"))
}

fn anonymous(server: &Server) -> MemoryClient {
    MemoryClient::new(server)
}

/// The error for a call, with the name it was made for replaced, so a
/// hidden target's answer compares with an unknown one's.
fn shape(error: &ErrorObject, name: &str) -> Value {
    let text = serde_json::to_string(error).unwrap().replace(name, "NAME");
    serde_json::from_str(&text).unwrap()
}

fn purges(server: &Server) -> usize {
    server.shared::<Purges>().unwrap().0.load(Ordering::SeqCst)
}

#[tokio::test]
async fn a_hidden_tool_is_absent_from_the_list_and_answers_as_an_unknown_one() {
    let server = builder().build();
    let names: Vec<String> = anonymous(&server)
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert!(!names.contains(&"note.purge".to_owned()), "{names:?}");
    assert!(
        admin(&server)
            .list_tools()
            .await
            .unwrap()
            .iter()
            .any(|t| t.name == "note.purge")
    );

    let hidden = anonymous(&server)
        .call_tool("note.purge", json!({}))
        .await
        .unwrap_err();
    let unknown = anonymous(&server)
        .call_tool("note.nothing", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        shape(&hidden, "note.purge"),
        shape(&unknown, "note.nothing")
    );
    assert_eq!(hidden.code.0, -32602);
    assert_eq!(purges(&server), 0);
    assert!(
        admin(&server)
            .call_tool("note.purge", json!({}))
            .await
            .is_ok()
    );
    assert_eq!(purges(&server), 1);
}

/// Answers `note.purge` from a cache, counting each answer: a side effect.
struct TypedTakeOver(Arc<AtomicUsize>);

impl TypedInterceptor<CallTool> for TypedTakeOver {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        params: CallToolRequestParams,
        next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        Box::pin(async move {
            if params.name != "note.purge" {
                return next.run(params).await;
            }
            let proof = next.authorize()?;
            self.0.fetch_add(1, Ordering::SeqCst);
            Ok(proof.answer(Reply::Complete(CallToolResult::text("from the cache"))))
        })
    }
}

#[tokio::test]
async fn a_typed_take_over_runs_the_guards_of_the_request_s_own_target() {
    let answers = Arc::new(AtomicUsize::new(0));
    let server = builder()
        .register(
            origin!(),
            "typed-take-over",
            0,
            Item::typed(TypedTakeOver(answers.clone())),
        )
        .build();
    let hidden = anonymous(&server)
        .call_tool("note.purge", json!({}))
        .await
        .unwrap_err();
    assert_eq!(hidden.message, "Unknown tool: note.purge");
    assert_eq!(
        answers.load(Ordering::SeqCst),
        0,
        "the take-over ran for a hidden target"
    );
    let result = admin(&server)
        .call_tool("note.purge", json!({}))
        .await
        .unwrap();
    assert_eq!(
        result.content,
        CallToolResult::text("from the cache").content
    );
    assert_eq!((answers.load(Ordering::SeqCst), purges(&server)), (1, 0));
}

/// Answers every call in the CORRELATION stratum, before the guards'
/// stratum: only through the proof, which runs the guards then and there.
struct EarlyAnswer(Arc<AtomicUsize>);

impl HandlerInterceptor for EarlyAnswer {
    fn intercept<'a>(
        &'a self,
        call: HandlerCall<'a>,
        next: HandlerNext<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        Box::pin(async move {
            let proof = next.authorize(&call)?;
            self.0.fetch_add(1, Ordering::SeqCst);
            Ok(proof.settle(Reply::Complete(CallToolResult::text("early"))))
        })
    }
}

#[tokio::test]
async fn a_correlation_interceptor_answers_only_for_callers_the_guards_allow() {
    let answers = Arc::new(AtomicUsize::new(0));
    let server = builder()
        .register(
            origin!(),
            "early",
            0,
            Item::handler_interceptor(
                Stratum::Correlation,
                Scope::Method("tools/call"),
                EarlyAnswer(answers.clone()),
            ),
        )
        .build();
    let hidden = anonymous(&server)
        .call_tool("note.purge", json!({}))
        .await
        .unwrap_err();
    assert_eq!(hidden.message, "Unknown tool: note.purge");
    assert_eq!(answers.load(Ordering::SeqCst), 0);
    let early = admin(&server)
        .call_tool("note.purge", json!({}))
        .await
        .unwrap();
    assert_eq!(early.content, CallToolResult::text("early").content);
    assert_eq!((answers.load(Ordering::SeqCst), purges(&server)), (1, 0));
}

/// Answers every `tools/call` in the raw layer, from JSON.
struct RawTakeOver(Arc<AtomicUsize>);

impl RawInterceptor for RawTakeOver {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        Box::pin(async move {
            if call.method() != "tools/call" {
                return next.run(call).await;
            }
            let proof = next.authorize(call)?;
            self.0.fetch_add(1, Ordering::SeqCst);
            let result = serde_json::value::to_raw_value(&CallToolResult::text("raw")).unwrap();
            Ok(proof.raw_answer(result))
        })
    }
}

#[tokio::test]
async fn a_raw_take_over_runs_the_guards_of_the_target_its_params_name() {
    let answers = Arc::new(AtomicUsize::new(0));
    let server = builder()
        .register(
            origin!(),
            "raw",
            0,
            Item::raw_interceptor(RawTakeOver(answers.clone())),
        )
        .build();
    let hidden = anonymous(&server)
        .call_tool("note.purge", json!({}))
        .await
        .unwrap_err();
    assert_eq!(hidden.message, "Unknown tool: note.purge");
    assert_eq!(answers.load(Ordering::SeqCst), 0);
    let raw = admin(&server)
        .call_tool("note.purge", json!({}))
        .await
        .unwrap();
    assert_eq!(raw.content, CallToolResult::text("raw").content);
    assert_eq!(answers.load(Ordering::SeqCst), 1);
}

/// Keeps what it got on an admin's call, and answers an anonymous caller's
/// call with it, without any proof: a replay of another call's answer.
#[derive(Default)]
struct Replays {
    settled: Mutex<Option<Settled>>,
    answer: Mutex<Option<Answer<CallToolResult>>>,
    raw: Mutex<Option<RawAnswer>>,
}

struct ReplayStep(Arc<Replays>);

impl HandlerInterceptor for ReplayStep {
    fn intercept<'a>(
        &'a self,
        call: HandlerCall<'a>,
        next: HandlerNext<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        Box::pin(async move {
            if call.ctx().principal().has_role("admin") {
                let settled = next.run(call).await?;
                *self.0.settled.lock().unwrap() = Some(settled);
                return Err(ErrorObject::internal_error("kept"));
            }
            let stolen = self.0.settled.lock().unwrap().take();
            match stolen {
                Some(stolen) => Ok(stolen),
                None => next.run(call).await,
            }
        })
    }
}

struct ReplayTyped(Arc<Replays>);

impl TypedInterceptor<CallTool> for ReplayTyped {
    fn intercept<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: CallToolRequestParams,
        next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        Box::pin(async move {
            if ctx.principal().has_role("admin") {
                let answer = next.run(params).await?;
                *self.0.answer.lock().unwrap() = Some(answer);
                return Err(ErrorObject::internal_error("kept"));
            }
            let stolen = self.0.answer.lock().unwrap().take();
            match stolen {
                Some(stolen) => Ok(stolen),
                None => next.run(params).await,
            }
        })
    }
}

struct ReplayRaw(Arc<Replays>);

impl RawInterceptor for ReplayRaw {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        Box::pin(async move {
            if call.method() != "tools/call" {
                return next.run(call).await;
            }
            if call.ctx().principal().has_role("admin") {
                let answer = next.run(call).await?;
                *self.0.raw.lock().unwrap() = Some(answer);
                return Err(ErrorObject::internal_error("kept"));
            }
            let stolen = self.0.raw.lock().unwrap().take();
            match stolen {
                Some(stolen) => Ok(stolen),
                None => next.run(call).await,
            }
        })
    }
}

async fn replayed(item: Item) -> (ErrorObject, usize) {
    let server = builder().register(origin!(), "replay", 0, item).build();
    let kept = admin(&server)
        .call_tool("note.purge", json!({}))
        .await
        .unwrap_err();
    assert_eq!(kept.message, "kept");
    assert_eq!(purges(&server), 1, "the admin's call ran the handler once");
    let refused = anonymous(&server)
        .call_tool("note.list", json!({}))
        .await
        .unwrap_err();
    (refused, purges(&server))
}

#[tokio::test]
async fn an_answer_made_for_another_call_is_refused_in_every_layer() {
    let replays = Arc::new(Replays::default());
    let step = Item::handler_interceptor(
        Stratum::Correlation,
        Scope::All,
        ReplayStep(replays.clone()),
    );
    for item in [
        step,
        Item::typed(ReplayTyped(replays.clone())),
        Item::raw_interceptor(ReplayRaw(replays.clone())),
    ] {
        let (refused, purged) = replayed(item).await;
        assert_eq!(refused.code.0, -32603);
        assert_eq!(
            refused.message,
            "Internal error: an interceptor answered with a result made for another call"
        );
        assert_eq!(purged, 1);
    }
}

/// Answers `tools/list` from what the first caller (an admin) was told.
#[derive(Default)]
struct TypedListCache(Mutex<Option<ListToolsResult>>);

impl TypedInterceptor<ListTools> for TypedListCache {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        params: <ListTools as Method>::Params,
        next: TypedNext<'a, ListTools>,
    ) -> BoxFuture<'a, Result<Answer<ListToolsResult>, ErrorObject>> {
        Box::pin(async move {
            let cached = self.0.lock().unwrap().clone();
            if let Some(cached) = cached {
                return Ok(next.authorize()?.answer(Reply::Complete(cached)));
            }
            let answer = next.run(params).await?;
            *self.0.lock().unwrap() = answer.reply().complete().cloned();
            Ok(answer)
        })
    }
}

/// The same cache, in the raw layer, as JSON.
#[derive(Default)]
struct RawListCache(Mutex<Option<String>>);

impl RawInterceptor for RawListCache {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        Box::pin(async move {
            if call.method() != "tools/list" {
                return next.run(call).await;
            }
            let cached = self.0.lock().unwrap().clone();
            if let Some(cached) = cached {
                let raw = serde_json::value::RawValue::from_string(cached).unwrap();
                return Ok(next.authorize(call)?.raw_answer(raw));
            }
            let answer = next.run(call).await?;
            *self.0.lock().unwrap() = Some(answer.result().get().to_owned());
            Ok(answer)
        })
    }
}

#[tokio::test]
async fn a_cached_list_answer_keeps_only_what_its_caller_may_see() {
    for item in [
        Item::typed(TypedListCache::default()),
        Item::raw_interceptor(RawListCache::default()),
    ] {
        let server = builder().register(origin!(), "list-cache", 0, item).build();
        let everything = admin(&server).list_tools().await.unwrap();
        assert!(everything.iter().any(|t| t.name == "note.purge"));
        let cached = anonymous(&server).list_tools().await.unwrap();
        let names: Vec<&str> = cached.iter().map(|t| t.name.as_str()).collect();
        assert!(!names.contains(&"note.purge"), "{names:?}");
        assert!(names.contains(&"note.add"), "{names:?}");
        assert_eq!(names.len() + 1, everything.len());
    }
}

/// Each list method, the member its items sit under, and their identity.
const LISTS: [(&str, &str, &str); 4] = [
    ("tools/list", "tools", "name"),
    ("prompts/list", "prompts", "name"),
    ("resources/list", "resources", "uri"),
    (
        "resources/templates/list",
        "resourceTemplates",
        "uriTemplate",
    ),
];

/// Answers every list as the first caller (an admin) was told, with two
/// items more: one that no catalog holds, and one without an identity.
#[derive(Default)]
struct RawListsForged(Mutex<Vec<(String, Value)>>);

impl RawInterceptor for RawListsForged {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        Box::pin(async move {
            let Some((_, field, key)) = LISTS.iter().find(|(m, ..)| *m == call.method()) else {
                return next.run(call).await;
            };
            let kept = self
                .0
                .lock()
                .unwrap()
                .iter()
                .find(|(m, _)| m == call.method())
                .cloned();
            if let Some((_, mut list)) = kept {
                let items = list[*field].as_array_mut().unwrap();
                items.push(json!({ *key: "forged", "description": "no catalog holds it" }));
                items.push(json!({ "description": "no identity" }));
                let raw = serde_json::value::to_raw_value(&list).unwrap();
                return Ok(next.authorize(call)?.raw_answer(raw));
            }
            let answer = next.run(call).await?;
            let list = serde_json::from_str(answer.result().get()).unwrap();
            self.0
                .lock()
                .unwrap()
                .push((call.method().to_owned(), list));
            Ok(answer)
        })
    }
}

/// The identities of the items of a list result.
fn identities(list: &Value, field: &str, key: &str) -> Vec<String> {
    list[field]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item[key].as_str().unwrap_or("(none)").to_owned())
        .collect()
}

#[tokio::test]
async fn a_raw_answer_to_any_list_keeps_only_what_its_caller_may_see() {
    let plain = builder().build();
    let server = builder()
        .register(
            origin!(),
            "forged-lists",
            0,
            Item::raw_interceptor(RawListsForged::default()),
        )
        .build();
    let mut hidden = 0;
    for (method, field, key) in LISTS {
        let everything = admin(&server).request_raw(method, json!({})).await.unwrap();
        let forged = anonymous(&server)
            .request_raw(method, json!({}))
            .await
            .unwrap();
        let own = anonymous(&plain)
            .request_raw(method, json!({}))
            .await
            .unwrap();
        let seen = identities(&forged, field, key);
        assert_eq!(seen, identities(&own, field, key), "{method}");
        assert!(!seen.contains(&"forged".to_owned()), "{method}: {seen:?}");
        hidden += identities(&everything, field, key).len() - seen.len();
    }
    // note.purge, note.digest and notes-admin://all.
    assert_eq!(hidden, 3);
}

#[tokio::test]
async fn a_hidden_prompt_has_no_completions_and_answers_as_an_unknown_one() {
    let server = builder().build();
    admin(&server)
        .call_tool("note.add", json!({"text": "x"}))
        .await
        .unwrap();
    let complete = |prompt: &str| {
        json!({
            "ref": {"type": "ref/prompt", "name": prompt},
            "argument": {"name": "owner", "value": "ro"}
        })
    };
    let seen = admin(&server)
        .request_raw("completion/complete", complete("note.digest"))
        .await
        .unwrap();
    assert_eq!(seen["completion"]["values"], json!(["root"]));
    let hidden = anonymous(&server)
        .request_raw("completion/complete", complete("note.digest"))
        .await
        .unwrap_err();
    let unknown = anonymous(&server)
        .request_raw("completion/complete", complete("note.nothing"))
        .await
        .unwrap_err();
    assert_eq!(
        shape(&hidden, "note.digest"),
        shape(&unknown, "note.nothing")
    );
    let got = anonymous(&server)
        .request_raw(
            "prompts/get",
            json!({"name": "note.digest", "arguments": {"owner": "x"}}),
        )
        .await
        .unwrap_err();
    assert_eq!(got.message, "Unknown prompt: note.digest");
}

#[tokio::test]
async fn a_hidden_resource_is_unlisted_and_unreadable_like_an_unknown_one() {
    let server = builder().build();
    let listed = anonymous(&server)
        .request_raw("resources/list", json!({}))
        .await
        .unwrap();
    assert_eq!(listed["resources"], json!([]));
    let read = |uri: &str| json!({"uri": uri});
    let hidden = anonymous(&server)
        .request_raw("resources/read", read("notes-admin://all"))
        .await
        .unwrap_err();
    let unknown = anonymous(&server)
        .request_raw("resources/read", read("other://x"))
        .await
        .unwrap_err();
    assert_eq!(
        shape(&hidden, "notes-admin://all"),
        shape(&unknown, "other://x")
    );
    assert!(
        admin(&server)
            .request_raw("resources/read", read("notes-admin://all"))
            .await
            .is_ok()
    );
    // The template next to it is visible to all.
    assert!(
        anonymous(&server)
            .request_raw("resources/read", read("notes://ada"))
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn a_hidden_deferred_tool_never_reaches_the_alternate_result() {
    let server = builder()
        .register(
            origin!(),
            "defer-purge",
            0,
            Item::customizer_for::<mcp_server::core::tools::Tool>(
                "note.purge",
                acme_notes::Deferred,
            ),
        )
        .build();
    let waiting = server.shared::<Ticketed>().unwrap();
    let hidden = anonymous(&server)
        .call_tool("note.purge", json!({}))
        .await
        .unwrap_err();
    assert_eq!(hidden.message, "Unknown tool: note.purge");
    assert!(
        waiting.take().is_empty(),
        "a ticket was made for a hidden tool"
    );
    let ticket = admin(&server)
        .request_raw("tools/call", json!({"name": "note.purge"}))
        .await
        .unwrap();
    assert_eq!(ticket["resultType"], "acme.ticket");
    let deferred = waiting.take();
    assert_eq!(deferred.len(), 1);
    assert_eq!(purges(&server), 0);
    for invocation in deferred {
        invocation.run().await.unwrap();
    }
    assert_eq!(purges(&server), 1);
}

/// Tries to answer `initialize` in place of the server; or, told to,
/// lets the handler run and then refuses the answer.
struct ForgeSession {
    refuse_after: bool,
}

impl RawInterceptor for ForgeSession {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        Box::pin(async move {
            if call.method() != "initialize" {
                return next.run(call).await;
            }
            if self.refuse_after {
                next.run(call).await?;
                return Err(ErrorObject::invalid_request("refused after the fact"));
            }
            let proof = next.authorize(call)?;
            let raw = serde_json::value::RawValue::from_string("{}".into()).unwrap();
            Ok(proof.raw_answer(raw))
        })
    }
}

#[tokio::test]
async fn initialize_cannot_be_answered_in_place_and_leaves_no_half_made_session() {
    for refuse_after in [false, true] {
        let server = builder()
            .register(
                origin!(),
                "forge",
                0,
                Item::raw_interceptor(ForgeSession { refuse_after }),
            )
            .build();
        let client = MemoryClient::new(&server).connected();
        let error = client.initialize("2025-11-25").await.unwrap_err();
        let expected = if refuse_after {
            "refused after the fact"
        } else {
            "`initialize` cannot be answered in place of the server"
        };
        assert_eq!(error.message, expected);
        assert!(
            client.negotiated().is_none(),
            "a refused initialize made a session"
        );
        // Still not a legacy session: a legacy method is not found.
        let ping = client.request_raw("ping", json!({})).await.unwrap_err();
        assert_eq!(ping.code.0, -32601);
    }
}

/// Answers `tools/list` with a list dressed as another kind of result.
struct DressedList;

impl TypedInterceptor<ListTools> for DressedList {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        _params: <ListTools as Method>::Params,
        next: TypedNext<'a, ListTools>,
    ) -> BoxFuture<'a, Result<Answer<ListToolsResult>, ErrorObject>> {
        Box::pin(async move {
            let mut body = serde_json::Map::new();
            body.insert(
                "tools".into(),
                json!([{"name": "note.purge", "inputSchema": {"type": "object"}}]),
            );
            let dressed = AlternateResult {
                result_type: mcp_server::core::result::ResultType::COMPLETE,
                body,
            };
            Ok(next.authorize()?.answer(Reply::Alternate(dressed)))
        })
    }
}

/// The same in the raw layer, with a `resultType` a legacy client ignores.
struct DressedRawList;

impl RawInterceptor for DressedRawList {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        Box::pin(async move {
            if call.method() != "tools/list" {
                return next.run(call).await;
            }
            let raw = serde_json::value::to_raw_value(
                &json!({"resultType": "other", "tools": [{"name": "note.purge", "inputSchema": {}}]}),
            )
            .unwrap();
            Ok(next.authorize(call)?.raw_answer(raw))
        })
    }
}

#[tokio::test]
async fn a_list_answer_of_another_kind_is_refused_rather_than_sent_unscreened() {
    for item in [
        Item::typed(DressedList),
        Item::raw_interceptor(DressedRawList),
    ] {
        let server = builder().register(origin!(), "dressed", 0, item).build();
        let refused = anonymous(&server)
            .request_raw("tools/list", json!({}))
            .await
            .unwrap_err();
        assert_eq!(refused.code.0, -32603, "{refused:?}");
    }
}

/// Tries to answer every call in the handler chain (`Scope::All`), and
/// `initialize` with it.
struct AnswerEverything;

impl HandlerInterceptor for AnswerEverything {
    fn intercept<'a>(
        &'a self,
        call: HandlerCall<'a>,
        next: HandlerNext<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        Box::pin(async move {
            if call.method() != "initialize" {
                return next.run(call).await;
            }
            let proof = next.authorize(&call)?;
            Ok(proof.settle(Reply::Complete(json!({"protocolVersion": "2025-11-25"}))))
        })
    }
}

#[tokio::test]
async fn initialize_cannot_be_answered_in_place_from_the_handler_chain_either() {
    let server = builder()
        .register(
            origin!(),
            "answer-everything",
            0,
            Item::handler_interceptor(Stratum::Audit, Scope::All, AnswerEverything),
        )
        .build();
    let client = MemoryClient::new(&server).connected();
    let error = client.initialize("2025-11-25").await.unwrap_err();
    assert_eq!(
        error.message,
        "`initialize` cannot be answered in place of the server"
    );
    assert!(client.negotiated().is_none());
}

#[tokio::test]
async fn a_subscription_to_a_hidden_resource_is_never_notified_like_an_unknown_one() {
    let server = builder().build();
    let client = MemoryClient::new(&server).connected();
    client.initialize("2025-11-25").await.unwrap();
    for uri in ["notes-admin://all", "other://nothing", "notes://ada"] {
        client
            .request_raw("resources/subscribe", json!({"uri": uri}))
            .await
            .unwrap();
    }
    let told = |uri: &str| {
        client
            .notification_for(&mcp_server::seam::sink::Change::resource_updated(uri))
            .is_some()
    };
    // Accepted like the subscription to a URI nothing serves (whose updates
    // nothing ever publishes), and never told of the hidden one's updates.
    assert!(
        !told("notes-admin://all"),
        "a hidden resource's updates reached its subscriber"
    );
    assert!(told("notes://ada"));
    let admin = admin(&server).connected();
    admin.initialize("2025-11-25").await.unwrap();
    admin
        .request_raw("resources/subscribe", json!({"uri": "notes-admin://all"}))
        .await
        .unwrap();
    assert!(
        admin
            .notification_for(&mcp_server::seam::sink::Change::resource_updated(
                "notes-admin://all"
            ))
            .is_some()
    );
}

#[tokio::test]
async fn a_listener_is_never_granted_nor_told_of_a_hidden_resource() {
    let server = builder().build();
    let watched = json!({"resourceSubscriptions": ["notes-admin://all", "notes://ada"]});
    let mut anonymous = anonymous(&server).listen(watched.clone());
    let ack = anonymous.next().await.unwrap();
    assert_eq!(ack.method, "notifications/subscriptions/acknowledged");
    let ack: Value = serde_json::from_str(ack.params.unwrap().get()).unwrap();
    assert_eq!(
        ack["notifications"],
        json!({"resourceSubscriptions": ["notes://ada"]}),
        "the hidden resource is not granted"
    );
    let mut admin = admin(&server).listen(watched);
    let ack = admin.next().await.unwrap();
    let ack: Value = serde_json::from_str(ack.params.unwrap().get()).unwrap();
    assert_eq!(
        ack["notifications"]["resourceSubscriptions"],
        json!(["notes-admin://all", "notes://ada"])
    );
    server
        .changes()
        .publish(mcp_server::seam::sink::Change::resource_updated(
            "notes-admin://all",
        ));
    let told = admin.next().await.unwrap();
    assert_eq!(told.method, "notifications/resources/updated");
    assert!(
        anonymous
            .next_within(std::time::Duration::from_millis(100))
            .await
            .is_none(),
        "a hidden resource's update reached a listener"
    );
}

#[tokio::test]
async fn a_hidden_fixed_resource_hides_nothing_behind_it() {
    use mcp_server::core::resources::{ReadResource, ReadResourceResult, Resource};
    let server = builder()
        .contributor(
            origin!(),
            "fixed-ada",
            contributor_fn(|c| {
                c.resource(
                    Resource {
                        uri: "notes://ada".into(),
                        name: "ada".into(),
                        ..Default::default()
                    },
                    handler_fn::<ReadResource, _, _, _>(|_, _| async {
                        Ok(ReadResourceResult::default())
                    }),
                );
            }),
        )
        .register(
            origin!(),
            "hide-ada",
            0,
            Item::customizer_for::<Resource>(
                "notes://ada",
                mcp_server::seam::customizer::GuardAttacher::new(acme_notes::AdminOnly),
            ),
        )
        .build();
    let read = json!({"uri": "notes://ada"});
    // The admin reads the fixed resource (no contents); anyone else reads
    // what the template answers for that URI, as if the fixed one were not there.
    let fixed = admin(&server)
        .request_raw("resources/read", read.clone())
        .await
        .unwrap();
    assert_eq!(fixed["contents"], json!([]));
    let templated = anonymous(&server)
        .request_raw("resources/read", read)
        .await
        .unwrap();
    assert_eq!(templated["contents"][0]["uri"], "notes://ada");
}

#[tokio::test]
async fn a_hidden_method_answers_as_an_unknown_one_even_to_malformed_requests() {
    let server = builder()
        .register(
            origin!(),
            "hide-count",
            0,
            Item::customizer_for::<MethodDescriptor>(
                "acme/notes.count",
                mcp_server::seam::customizer::GuardAttacher::new(acme_notes::AdminOnly),
            ),
        )
        .build();
    let shaped = |error: ErrorObject, method: &str| shape(&error, method);
    // Params that do not decode.
    let hidden = anonymous(&server)
        .request_raw("acme/notes.count", json!({"owner": 5}))
        .await
        .unwrap_err();
    let unknown = anonymous(&server)
        .request_raw("acme/notes.nothing", json!({"owner": 5}))
        .await
        .unwrap_err();
    assert_eq!(hidden.code.0, -32601);
    assert_eq!(
        shaped(hidden, "acme/notes.count"),
        shaped(unknown, "acme/notes.nothing")
    );
    // No `_meta` at all.
    let bare = |method: &str| json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": {"owner": "x"}});
    let hidden = anonymous(&server)
        .send(&bare("acme/notes.count"))
        .await
        .unwrap();
    let unknown = anonymous(&server)
        .send(&bare("acme/notes.nothing"))
        .await
        .unwrap();
    assert_eq!(
        hidden.to_string().replace("acme/notes.count", "NAME"),
        unknown.to_string().replace("acme/notes.nothing", "NAME")
    );
    // The admin is served.
    assert!(
        admin(&server)
            .request_raw("acme/notes.count", json!({"owner": "x"}))
            .await
            .is_ok()
    );
}

/// Lets admins call `note.archive`, and challenges everyone else.
struct StepUp;

impl Guard for StepUp {
    fn name(&self) -> &str {
        "step-up"
    }

    fn check(&self, ctx: &RequestContext, _: &Target) -> Decision {
        if ctx.principal().has_role("admin") {
            Decision::Allow
        } else {
            Decision::Challenge(mcp_server::auth::Challenge::forbidden(
                r#"Bearer error="insufficient_scope", scope="notes:archive""#,
                "archiving needs notes:archive",
            ))
        }
    }
}

/// Answers every call to `note.archive`, in one layer, through its proof.
struct ArchiveTakeOver(&'static str, Arc<AtomicUsize>);

impl TypedInterceptor<CallTool> for ArchiveTakeOver {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        params: CallToolRequestParams,
        next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        Box::pin(async move {
            if params.name != "note.archive" || self.0 != "typed" {
                return next.run(params).await;
            }
            let proof = next.authorize()?;
            self.1.fetch_add(1, Ordering::SeqCst);
            Ok(proof.answer(Reply::Complete(CallToolResult::text("typed"))))
        })
    }
}

impl RawInterceptor for ArchiveTakeOver {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        Box::pin(async move {
            if call.method() != "tools/call" || self.0 != "raw" {
                return next.run(call).await;
            }
            let proof = next.authorize(call)?;
            self.1.fetch_add(1, Ordering::SeqCst);
            let result = serde_json::value::to_raw_value(&CallToolResult::text("raw")).unwrap();
            Ok(proof.raw_answer(result))
        })
    }
}

impl HandlerInterceptor for ArchiveTakeOver {
    fn intercept<'a>(
        &'a self,
        call: HandlerCall<'a>,
        next: HandlerNext<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        Box::pin(async move {
            let proof = next.authorize(&call)?;
            self.1.fetch_add(1, Ordering::SeqCst);
            Ok(proof.settle(Reply::Complete(CallToolResult::text("early"))))
        })
    }
}

#[tokio::test]
async fn a_challenged_tool_is_listed_and_no_take_over_answers_its_call() {
    for layer in ["none", "typed", "raw", "handler"] {
        let answers = Arc::new(AtomicUsize::new(0));
        let take_over = Arc::new(ArchiveTakeOver(layer, answers.clone()));
        let mut builder = builder()
            .contributor(
                origin!(),
                "archive",
                contributor_fn(|into| {
                    let tool = Tool {
                        name: "note.archive".into(),
                        description: Some("Archives the notes".into()),
                        input_schema: Default::default(),
                        ..Default::default()
                    };
                    into.tool(
                        tool,
                        handler_fn::<CallTool, _, _, _>(|_, _| async {
                            Ok(CallToolResult::text("archived"))
                        }),
                    );
                }),
            )
            .register(
                origin!(),
                "step-up",
                0,
                Item::customizer_for::<Tool>("note.archive", GuardAttacher::new(StepUp)),
            );
        builder = match layer {
            "typed" => builder.register(
                origin!(),
                "take-over",
                0,
                Item::member::<TypedInterceptors>(TypedInterceptorItem::new::<CallTool>(take_over)),
            ),
            "raw" => builder.register(
                origin!(),
                "take-over",
                0,
                Item::member::<RawInterceptors>(take_over),
            ),
            "handler" => builder.register(
                origin!(),
                "take-over",
                0,
                Item::member::<HandlerInterceptors>(Scoped {
                    stratum: Stratum::Correlation,
                    scope: Scope::Method("tools/call"),
                    interceptor: take_over,
                }),
            ),
            _ => builder,
        };
        let server = builder.build();
        let listed: Vec<String> = MemoryClient::new(&server)
            .with_credentials(Credentials::bearer_token("ada"))
            .list_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert!(
            listed.contains(&"note.archive".to_owned()),
            "{layer}: {listed:?}"
        );
        let refused = MemoryClient::new(&server)
            .with_credentials(Credentials::bearer_token("ada"))
            .call_tool("note.archive", json!({}))
            .await
            .unwrap_err();
        assert_eq!(
            refused.code,
            mcp_server::auth::INSUFFICIENT_PERMISSION,
            "{layer}"
        );
        assert_eq!(
            mcp_server::auth::Challenge::of(&refused)
                .unwrap()
                .www_authenticate(),
            r#"Bearer error="insufficient_scope", scope="notes:archive""#
        );
        assert_eq!(
            answers.load(Ordering::SeqCst),
            0,
            "{layer}: a take-over answered"
        );
        let allowed = admin(&server)
            .call_tool("note.archive", json!({}))
            .await
            .unwrap();
        assert!(!allowed.is_error.unwrap_or(false), "{layer}");
    }
}

/// An index of the third party's own: which of acme-notes' resources the
/// caller may see, asked of `RequestContext::may_see`. It serves prompts
/// though it contributes none at boot (`Contributions::serve`), and writes
/// the origin its contributor was given into its answer.
fn index(into: &mut Contributions<'_>) {
    into.serve(TargetKind::Prompt);
    let origin = into.origin().to_string();
    let mut tool = Tool {
        name: "acme_index".into(),
        ..Tool::default()
    };
    tool.input_schema.insert("type".into(), "object".into());
    into.tool(
        tool,
        handler_fn::<CallTool, _, _, _>(move |ctx, _| {
            let origin = origin.clone();
            async move {
                let seen: Vec<&str> = ["notes-admin://all", "notes-admin://none"]
                    .into_iter()
                    .filter(|uri| ctx.may_see(TargetKind::Resource, uri))
                    .collect();
                Ok(CallToolResult::text(format!(
                    "{} from {origin}",
                    seen.join(",")
                )))
            }
        }),
    );
}

#[tokio::test]
async fn an_extension_s_own_index_shows_only_what_the_caller_may_see() {
    let server = builder()
        .contributor(origin!(), "acme-index", contributor_fn(index))
        .build();
    let capabilities = serde_json::to_value(server.capabilities()).unwrap();
    assert!(capabilities["prompts"].is_object(), "{capabilities}");
    let call = json!({"name": "acme_index", "arguments": {}});
    let by_admin = admin(&server)
        .request_raw("tools/call", call.clone())
        .await
        .unwrap();
    let text = by_admin["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("notes-admin://all from acme-tests"),
        "{text}"
    );
    let ada = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("ada"));
    let by_ada = ada.request_raw("tools/call", call).await.unwrap();
    assert!(
        by_ada["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with(" from acme-tests")
    );
}
