//! A small notes server written only with the `mcp-server` attribute macros:
//! tools, a prompt, a resource, a resource template, a completion, a custom
//! method, an interceptor, a guard and a customizer. Linking this crate is
//! enough to activate all of it.
#![deny(missing_docs)]
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_server::BoxFuture;
use mcp_server::auth::{Credentials, Principal};
use mcp_server::core::error::ErrorObject;
use mcp_server::core::method::{Method, Params};
use mcp_server::core::tools::{CallTool, CallToolRequestParams, CallToolResult, Tool};
use mcp_server::core::version::Era;
use mcp_server::handler::handler_fn;
use mcp_server::handler::tool::Structured;
use mcp_server::seam::Target;
use mcp_server::seam::contributor::{Contributions, Contributor};
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::guard::{Decision, Guard};
use mcp_server::seam::interceptor::{Answer, TypedInterceptor, TypedNext};
use mcp_server::seam::sink::{Change, ChangeSink};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::seam::strategy::{KeyStrategy, StateKey};
use mcp_server::{
    RequestContext, completion, contributor, customizer, guard, interceptor, method, prompt,
    resource, resource_template, sink, source, strategy, tool, tools,
};
use serde::{Deserialize, Serialize};

/// The notes every tool shares, by title.
fn notes() -> &'static [(&'static str, &'static str)] {
    &[
        ("groceries", "milk, eggs"),
        ("ideas", "a notes server"),
        ("todo", "write tests"),
    ]
}

/// Finds a note by its title.
#[tool(read_only)]
pub async fn find_note(
    #[arg(description = "The note's title")] title: String,
) -> Result<String, String> {
    notes()
        .iter()
        .find(|(t, _)| *t == title)
        .map(|(_, body)| (*body).to_owned())
        .ok_or(format!("no note `{title}`"))
}

/// How many notes there are, and their titles.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Summary {
    /// The number of notes.
    pub count: usize,
    /// Their titles.
    pub titles: Vec<String>,
}

/// Summarizes the notes.
#[tool(read_only, idempotent)]
pub async fn summarize() -> Structured<Summary> {
    let titles: Vec<String> = notes().iter().map(|(t, _)| (*t).to_owned()).collect();
    Structured(Summary {
        count: titles.len(),
        titles,
    })
}

/// Deletes every note (refused to anyone but an administrator).
#[tool(destructive, name = "admin.purge")]
pub async fn purge(ctx: RequestContext) -> String {
    format!(
        "purged by {}",
        ctx.principal().subject.as_deref().unwrap_or("nobody")
    )
}

/// Asks the model to review a note.
#[prompt(title = "Review a note")]
pub async fn review(#[arg(description = "The note's title")] title: String) -> String {
    format!("Please review the note `{title}` and suggest improvements.")
}

/// Every note, one per line.
#[resource(uri = "notes://all", name = "all-notes", mime_type = "text/plain")]
pub async fn all_notes() -> String {
    notes()
        .iter()
        .map(|(t, b)| format!("{t}: {b}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One note, by title.
#[resource_template(
    uri_template = "notes://by-title/{title}",
    name = "note",
    mime_type = "text/plain"
)]
pub async fn note(title: String) -> Result<String, String> {
    find_note(title).await
}

/// Completes note titles for the `review` prompt.
#[completion(prompt = "review", argument = "title")]
pub async fn complete_title(value: String) -> Vec<String> {
    notes()
        .iter()
        .map(|(t, _)| (*t).to_owned())
        .filter(|t| t.starts_with(&value))
        .collect()
}

/// `notes/count`: an extension-owned JSON-RPC method.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(into = "&str", try_from = "&str")]
pub struct CountNotes;

impl From<CountNotes> for &'static str {
    fn from(_: CountNotes) -> Self {
        "notes/count"
    }
}

impl TryFrom<&str> for CountNotes {
    type Error = String;
    fn try_from(name: &str) -> Result<Self, String> {
        if name == "notes/count" {
            Ok(CountNotes)
        } else {
            Err(format!("not notes/count: {name}"))
        }
    }
}

/// Params of `notes/count`.
#[derive(Debug, Serialize, Deserialize)]
pub struct CountParams {
    /// Count only titles starting with this.
    #[serde(default)]
    pub prefix: String,
}

impl Params for CountParams {}

/// The result of `notes/count`.
#[derive(Debug, Serialize, Deserialize)]
pub struct CountResult {
    /// How many titles matched.
    pub count: usize,
    /// Always `complete`.
    #[serde(rename = "resultType", default)]
    pub result_type: mcp_server::core::result::ResultType,
}

impl Method for CountNotes {
    const NAME: &'static str = "notes/count";
    const ERAS: &'static [Era] = Era::ALL;
    type Params = CountParams;
    type Result = CountResult;
}

/// Counts the notes whose title starts with a prefix.
#[method(CountNotes)]
pub async fn count_notes(
    _ctx: RequestContext,
    params: CountParams,
) -> Result<CountResult, ErrorObject> {
    let count = notes()
        .iter()
        .filter(|(t, _)| t.starts_with(&params.prefix))
        .count();
    Ok(CountResult {
        count,
        result_type: Default::default(),
    })
}

/// How many tool calls were served, for the interceptor below.
pub static CALLS: AtomicUsize = AtomicUsize::new(0);

/// Counts every tool call.
#[derive(Debug, Default)]
pub struct CallCounter;

#[interceptor(order = 10)]
impl TypedInterceptor<CallTool> for CallCounter {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        params: CallToolRequestParams,
        next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        CALLS.fetch_add(1, Ordering::Relaxed);
        next.run(params)
    }
}

/// Tools under `admin.` are for administrators only.
#[derive(Debug, Default)]
pub struct AdminsOnly;

#[guard(on = "tool")]
impl Guard for AdminsOnly {
    fn name(&self) -> &str {
        "admins-only"
    }

    fn check(&self, ctx: &RequestContext, target: &Target) -> Decision {
        if !target.name.starts_with("admin.") || ctx.principal().has_role("admin") {
            Decision::Allow
        } else {
            Decision::deny("administrators only")
        }
    }
}

/// Marks every tool as part of this server in its description.
#[derive(Debug, Default)]
pub struct Branding;

#[customizer]
impl HandlerCustomizer<Tool> for Branding {
    fn customize(&self, config: &mut HandlerConfig<Tool>) {
        let tool = config.descriptor_mut();
        tool.description = Some(format!(
            "[notes] {}",
            tool.description.as_deref().unwrap_or_default()
        ));
    }
}

/// `Authorization: Bearer admin` is the administrator; everyone else is anonymous.
#[derive(Debug, Default)]
pub struct DemoTokens;

#[source]
impl PrincipalSource for DemoTokens {
    fn principal(&self, credentials: &Credentials) -> std::sync::Arc<Principal> {
        let principal = match credentials.bearer() {
            Some("admin") => Principal::named("admin").with_role("admin"),
            _ => Principal::anonymous(),
        };
        std::sync::Arc::new(principal)
    }
}

/// A clock for the `clock.*` tools: one instance serves both.
#[derive(Debug, Default)]
pub struct Clock {
    ticks: AtomicUsize,
}

#[tools]
impl Clock {
    /// Advances the clock by one tick.
    #[tool(name = "clock.tick")]
    async fn tick(&self) -> String {
        (self.ticks.fetch_add(1, Ordering::Relaxed) + 1).to_string()
    }

    /// Reads the clock.
    #[tool(name = "clock.read", read_only)]
    async fn read(&self) -> String {
        self.ticks.load(Ordering::Relaxed).to_string()
    }
}

/// Contributes a tool whose name is only known at boot.
#[derive(Debug, Default)]
pub struct Version;

#[contributor]
impl Contributor for Version {
    fn contribute(&self, into: &mut Contributions) {
        let tool = Tool {
            name: format!("version.{}", env!("CARGO_PKG_VERSION_MAJOR")),
            ..Default::default()
        };
        into.tool(
            tool,
            handler_fn::<CallTool, _, _, _>(|_, _| async {
                Ok(CallToolResult::text(env!("CARGO_PKG_VERSION")))
            }),
        );
    }
}

/// Seals state with a key fixed for the example (a deployment would load its own).
#[derive(Debug, Default)]
pub struct FixedKey;

#[strategy]
impl KeyStrategy for FixedKey {
    fn sealing_key(&self) -> StateKey {
        StateKey::new("notes-example", [42; 32])
    }

    fn opening_key(&self, id: &str) -> Option<StateKey> {
        (id == "notes-example").then(|| self.sealing_key())
    }
}

/// Every change published, for the tests to read.
pub static CHANGES: Mutex<Vec<Change>> = Mutex::new(Vec::new());

/// Keeps published changes in [`CHANGES`].
#[derive(Debug, Default)]
pub struct ChangeLog;

#[sink]
impl ChangeSink for ChangeLog {
    fn publish(&self, change: Change) {
        CHANGES
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(change);
    }
}

/// Adds a note (the store is fixed in this example: it only announces the change).
#[tool]
pub async fn add_note(title: String, ctx: RequestContext) -> String {
    ctx.changes().publish(Change::resource_updated(format!(
        "notes://by-title/{title}"
    )));
    format!("noted `{title}`")
}
