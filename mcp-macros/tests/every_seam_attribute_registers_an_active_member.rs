//! Every seam attribute registers its item at link time: booting with the
//! linked registrations makes each one active, and the boot report lists it
//! with its origin.

use std::sync::Mutex;

use mcp_server::BoxFuture;
use mcp_server::auth::{Credentials, Principal};
use mcp_server::core::capabilities::ServerCapabilities;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::method::{Method, Params};
use mcp_server::core::tools::{CallTool, CallToolRequestParams, CallToolResult, Tool};
use mcp_server::core::version::Era;
use mcp_server::handler::handler_fn;
use mcp_server::seam::Target;
use mcp_server::seam::contributor::{Contributions, Contributor};
use mcp_server::seam::customizer::{
    HandlerConfig, HandlerCustomizer, ServerCapabilitiesCustomizer,
};
use mcp_server::seam::guard::{Decision, Guard};
use mcp_server::seam::interceptor::{
    AlternateResultInterceptor, Answer, HandlerCall, HandlerInterceptor, HandlerNext, Invocation,
    RawAnswer, RawCall, RawInterceptor, RawNext, Settled, TypedInterceptor, TypedNext,
};
use mcp_server::seam::sink::{Change, ChangeSink};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::seam::store::{EventId, EventStore, MemoryEventStore, Replay, Unavailable};
use mcp_server::seam::strategy::{KeyStrategy, StateKey};
use mcp_server::testing::MemoryClient;
use mcp_server::{
    RequestContext, Server, contributor, customizer, guard, interceptor, method, sink, source,
    store, strategy,
};
use serde::{Deserialize, Serialize};
use serde_json::json;

const FILE: &str = "mcp-macros/tests/every_seam_attribute_registers_an_active_member.rs";

fn tool(name: &str) -> Tool {
    Tool {
        name: name.into(),
        description: Some(format!("the {name} tool")),
        ..Default::default()
    }
}

/// Contributes two tools; `secret` is hidden by the guard below.
#[derive(Default)]
struct Catalog;

#[contributor]
impl Contributor for Catalog {
    fn contribute(&self, into: &mut Contributions) {
        for name in ["open", "secret"] {
            into.tool(
                tool(name),
                handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("done")) }),
            );
        }
    }
}

/// Brands every tool description.
#[derive(Default)]
struct Branding;

#[customizer(order = -1)]
impl HandlerCustomizer<Tool> for Branding {
    fn customize(&self, config: &mut HandlerConfig<Tool>) {
        let tool = config.descriptor_mut();
        tool.description = Some(format!(
            "[acme] {}",
            tool.description.as_deref().unwrap_or("")
        ));
    }
}

/// Advertises an experimental capability.
#[derive(Default)]
struct Advertise;

#[customizer(name = "advertise")]
impl ServerCapabilitiesCustomizer for Advertise {
    fn customize(&self, capabilities: &mut ServerCapabilities, _: &mcp_server::boot::BootContext) {
        capabilities.logging = Some(Default::default());
    }
}

/// Hides and refuses the `secret` tool.
#[derive(Default)]
struct HideSecret;

#[guard(on = "tool", name = "hide-secret")]
impl Guard for HideSecret {
    fn name(&self) -> &str {
        "hide-secret"
    }
    fn check(&self, _: &RequestContext, target: &Target) -> Decision {
        if target.name == "secret" {
            Decision::deny("secret")
        } else {
            Decision::Allow
        }
    }
}

/// The `_meta` key a test puts its own marker under, for the interceptors
/// to record.
const MARKER: &str = "com.example/marker";

/// Which interceptor saw which marker: a test finds its own request's
/// marker here, whatever other tests send meanwhile.
static SEEN: Mutex<Vec<(&'static str, String)>> = Mutex::new(Vec::new());

/// Records that interceptor `who` saw the request of `ctx`, if marked.
fn saw(who: &'static str, ctx: &RequestContext) {
    if let Some(marker) = ctx.meta_value::<String>(MARKER) {
        SEEN.lock().unwrap().push((who, marker));
    }
}

/// How many times interceptor `who` saw `marker`.
fn sightings(who: &str, marker: &str) -> usize {
    SEEN.lock()
        .unwrap()
        .iter()
        .filter(|(w, m)| *w == who && m == marker)
        .count()
}

/// Records every request.
#[derive(Default)]
struct CountRequests;

#[interceptor(order = 5)]
impl RawInterceptor for CountRequests {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        saw("raw", call.ctx());
        next.run(call)
    }
}

/// Stamps every tool result.
#[derive(Default)]
struct Stamp;

#[interceptor]
impl TypedInterceptor<CallTool> for Stamp {
    fn intercept<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: CallToolRequestParams,
        next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        saw("typed", ctx);
        Box::pin(async move {
            let mut answer = next.run(params).await?;
            if let Some(result) = answer.reply_mut().complete_mut() {
                result
                    .content
                    .push(mcp_server::core::content::ContentBlock::text("(stamped)"));
            }
            Ok(answer)
        })
    }
}

/// Records tool calls in the audit stratum.
#[derive(Default)]
struct Audit;

#[interceptor(stratum = "AUDIT", scope = "tools/call", order = 1)]
impl HandlerInterceptor for Audit {
    fn intercept<'a>(
        &'a self,
        call: HandlerCall<'a>,
        next: HandlerNext<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        saw("audit", call.ctx());
        next.run(call)
    }
}

/// Records invocations, then proceeds.
#[derive(Default)]
struct Passthrough;

#[interceptor]
impl AlternateResultInterceptor for Passthrough {
    fn intercept<'a>(
        &'a self,
        invocation: Invocation<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        saw("alternate", invocation.ctx());
        invocation.proceed()
    }
}

/// The caller is whoever the bearer token names.
#[derive(Default)]
struct BearerSource;

#[source]
impl PrincipalSource for BearerSource {
    fn principal(&self, credentials: &Credentials) -> std::sync::Arc<Principal> {
        std::sync::Arc::new(match credentials.bearer() {
            Some(token) => Principal::named(token),
            None => Principal::anonymous(),
        })
    }
}

/// One fixed key, shared by every instance.
#[derive(Default)]
struct FixedKeys;

#[strategy(name = "fixed-keys")]
impl KeyStrategy for FixedKeys {
    fn sealing_key(&self) -> StateKey {
        StateKey::new("fixed", [9; 32])
    }
    fn opening_key(&self, id: &str) -> Option<StateKey> {
        (id == "fixed").then(|| self.sealing_key())
    }
}

static PUBLISHED: Mutex<Vec<Change>> = Mutex::new(Vec::new());

/// Records every change.
#[derive(Default)]
struct Recorder;

#[sink]
impl ChangeSink for Recorder {
    fn publish(&self, change: Change) {
        PUBLISHED.lock().unwrap().push(change);
    }
}

/// Keeps events in memory, under its own name.
#[derive(Default)]
struct Journal(MemoryEventStore);

#[store(name = "journal")]
impl EventStore for Journal {
    fn append<'a>(
        &'a self,
        session: &'a str,
        id: EventId,
        message: Vec<u8>,
    ) -> BoxFuture<'a, Result<(), Unavailable>> {
        self.0.append(session, id, message)
    }
    fn replay_after<'a>(
        &'a self,
        session: &'a str,
        last_event_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<Replay>, Unavailable>> {
        self.0.replay_after(session, last_event_id)
    }
    fn forget<'a>(&'a self, session: &'a str) -> BoxFuture<'a, Result<(), Unavailable>> {
        self.0.forget(session)
    }
}

/// `vendor/x`: says who called, and echoes.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(into = "&str", try_from = "&str")]
struct VendorX;
impl From<VendorX> for &'static str {
    fn from(_: VendorX) -> Self {
        "vendor/x"
    }
}
impl TryFrom<&str> for VendorX {
    type Error = String;
    fn try_from(s: &str) -> Result<Self, String> {
        if s == "vendor/x" {
            Ok(VendorX)
        } else {
            Err(s.to_owned())
        }
    }
}
#[derive(Debug, Serialize, Deserialize)]
struct XParams {
    text: String,
}
impl Params for XParams {}
#[derive(Debug, Serialize, Deserialize)]
struct XResult {
    echo: String,
    caller: Option<String>,
}
impl Method for VendorX {
    const NAME: &'static str = "vendor/x";
    const ERAS: &'static [Era] = Era::ALL;
    type Params = XParams;
    type Result = XResult;
}

#[method(VendorX)]
async fn vendor_x(ctx: RequestContext, params: XParams) -> Result<XResult, ErrorObject> {
    Ok(XResult {
        echo: params.text,
        caller: ctx.principal().subject.clone(),
    })
}

fn server() -> Server {
    Server::builder().named("seams", "1.0.0").build()
}

#[test]
fn the_boot_report_lists_every_attribute_with_its_origin() {
    let server = server();
    let members = &server.report().members;
    for (seam, kind, name) in [
        ("Contributor", "contributor", "Catalog"),
        ("Contributor", "contributor", "vendor_x"),
        ("Customizer", "call-tool customizer", "Branding"),
        ("Customizer", "server-capabilities customizer", "advertise"),
        ("Customizer", "call-tool customizer", "hide-secret"),
        ("Interceptor", "raw interceptor", "CountRequests"),
        ("Interceptor", "typed interceptor for `tools/call`", "Stamp"),
        ("Interceptor", "AUDIT handler-chain interceptor", "Audit"),
        ("Interceptor", "alternate-result interceptor", "Passthrough"),
        ("Source", "`PrincipalSource` member", "BearerSource"),
        ("Strategy", "`KeyStrategy` member", "fixed-keys"),
        ("Sink", "`ChangeSink` member", "Recorder"),
        ("Store", "`EventStore` member", "journal"),
    ] {
        let member = members
            .iter()
            .find(|m| m.seam.as_str() == seam && m.kind == kind && m.name == name)
            .unwrap_or_else(|| panic!("{seam} {kind} `{name}` is not in the report"));
        assert_eq!(member.origin.crate_name, "mcp-macros");
        assert!(
            FILE.ends_with(member.origin.file) || member.origin.file.ends_with(FILE),
            "{}",
            member.origin.file
        );
    }
    let order = |name: &str| members.iter().find(|m| m.name == name).unwrap().order;
    assert_eq!(order("Branding"), Some(-1));
    assert_eq!(order("CountRequests"), Some(5));
    assert_eq!(order("Audit"), Some(1));
}

#[test]
fn a_guard_registered_on_tools_only_customizes_tools() {
    let server = server();
    let guard_kinds: Vec<&str> = server
        .report()
        .members
        .iter()
        .filter(|m| m.name == "hide-secret")
        .map(|m| m.kind.as_str())
        .collect();
    assert_eq!(guard_kinds, ["call-tool customizer"]);
}

#[tokio::test]
async fn the_registered_source_strategy_and_sink_are_selected() {
    let server = server();
    let winner = |seam: &str| {
        let s = server
            .report()
            .selections
            .iter()
            .find(|s| s.seam == seam)
            .unwrap();
        (s.winner.as_str(), s.reason)
    };
    assert_eq!(
        winner("PrincipalSource"),
        ("BearerSource", "the only one registered")
    );
    assert_eq!(
        winner("KeyStrategy"),
        ("fixed-keys", "the only one registered")
    );
    assert_eq!(
        winner("ChangeSink"),
        ("Recorder", "the only one registered")
    );
    assert_eq!(winner("EventStore"), ("journal", "the only one registered"));
    let id = EventId {
        stream: 1,
        sequence: 0,
    };
    server
        .event_store()
        .append("s", id, b"{}".to_vec())
        .await
        .unwrap();
    let replay = server.event_store().replay_after("s", "1-0").await.unwrap();
    assert_eq!(replay.map(|r| r.stream), Some(1));
    assert_eq!(server.key_strategy().sealing_key().id(), "fixed");
    server
        .changes()
        .publish(Change::resource_updated("mem://a"));
    assert!(
        PUBLISHED
            .lock()
            .unwrap()
            .contains(&Change::resource_updated("mem://a"))
    );
    assert!(server.capabilities().logging.is_some());
}

#[tokio::test]
async fn the_guard_hides_a_tool_and_the_customizer_brands_the_rest() {
    let client = MemoryClient::new(&server());
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["open"]);
    assert_eq!(
        tools[0].description.as_deref(),
        Some("[acme] the open tool")
    );
    let refused = client.call_tool("secret", json!({})).await.unwrap_err();
    let unknown = client
        .call_tool("no-such-tool", json!({}))
        .await
        .unwrap_err();
    assert_eq!(refused.code, unknown.code);
    assert_eq!(refused.message, "Unknown tool: secret");
}

#[tokio::test]
async fn every_interceptor_runs_on_a_tool_call() {
    let client = MemoryClient::new(&server());
    // Tests run in parallel: the interceptors record this call's own
    // marker, which no other request carries.
    let marker = "every_interceptor_runs_on_a_tool_call";
    let result = client
        .request_raw(
            "tools/call",
            json!({"name": "open", "arguments": {}, "_meta": {MARKER: marker}}),
        )
        .await
        .unwrap();
    assert_eq!(
        result["content"],
        json!([{"type": "text", "text": "done"}, {"type": "text", "text": "(stamped)"}])
    );
    for who in ["raw", "typed", "audit", "alternate"] {
        assert_eq!(sightings(who, marker), 1, "{who} ran once on this call");
    }
}

#[tokio::test]
async fn the_method_answers_and_the_source_decides_the_principal() {
    let server = server();
    let anonymous = MemoryClient::new(&server)
        .request_raw("vendor/x", json!({"text": "hi"}))
        .await
        .unwrap();
    assert_eq!(anonymous["echo"], "hi");
    assert_eq!(anonymous["caller"], serde_json::Value::Null);
    let named = MemoryClient::new(&server)
        .with_credentials(Credentials::bearer_token("ada"))
        .request_raw("vendor/x", json!({"text": "hello"}))
        .await
        .unwrap();
    assert_eq!(named["echo"], "hello");
    assert_eq!(named["caller"], "ada");
}
