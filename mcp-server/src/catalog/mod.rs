//! The runtime catalog: tools added, replaced and removed while the server
//! serves, each getting what a tool declared at boot gets.
//!
//! A [`CatalogChange`] gathers edits and [`Catalog::apply`] applies them
//! whole or not at all. Every tool it adds or replaces passes the tool
//! customizers (so guards, extension linkage and handler-chain interceptors
//! attach as they do at boot), collides with a tool of boot or another
//! runtime one exactly as boot would say, and is announced with
//! `notifications/tools/list_changed` once the change is in. A request sees
//! one version of the catalog from start to end: a call in flight finishes
//! on the tool it started with, even if a change removes it meanwhile.
//!
//! The catalog is reachable from the [`Server`](crate::Server) and from a
//! request's context:
//!
//! ```
//! use mcp_server::catalog::CatalogChange;
//! use mcp_server::core::json::JsonObject;
//! use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
//! use mcp_server::handler::{handler_fn, tool};
//! use mcp_server::seam::contributor::contributor_fn;
//! use mcp_server::{RequestContext, Server, origin};
//! use serde_json::json;
//!
//! fn described(name: &str, schema: serde_json::Value) -> Tool {
//!     Tool {
//!         name: name.into(),
//!         input_schema: serde_json::from_value(schema).unwrap(),
//!         ..Default::default()
//!     }
//! }
//!
//! // A server with one tool of boot.
//! let server = Server::builder()
//!     .named("example", "1.0.0")
//!     .without_linked()
//!     .contributor(origin!(), "tools", contributor_fn(|c| {
//!         c.tool(
//!             described("ping", json!({"type": "object"})),
//!             handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("pong")) }),
//!         );
//!     }))
//!     .build();
//!
//! // A tool described by data, added while the server serves.
//! let shout = described("shout", json!({
//!     "type": "object",
//!     "properties": {"text": {"type": "string"}},
//!     "required": ["text"]
//! }));
//! let handler = tool::handler(&shout, |_: RequestContext, args: JsonObject| async move {
//!     args["text"].as_str().unwrap_or_default().to_uppercase()
//! });
//! let applied = server
//!     .catalog()
//!     .apply(CatalogChange::new(origin!()).add_tool(shout, handler))
//!     .unwrap();
//! assert_eq!(applied.version, 1);
//! let names: Vec<_> = server.catalog().tools().into_iter().map(|t| t.name).collect();
//! assert_eq!(names, ["shout"]);
//!
//! // A tool of boot stays: the catalog refuses to remove it.
//! let refused = server.catalog().apply(CatalogChange::new(origin!()).remove_tool("ping"));
//! assert!(refused.unwrap_err().to_string().contains("error[mcp::fixed_member]"));
//! //! ```

use std::fmt;
use std::sync::Arc;

use mcp_core::completion::Complete;
use mcp_core::method::Method;
use mcp_core::prompts::{GetPrompt, Prompt};
use mcp_core::resources::{ReadResource, Resource, ResourceTemplate};
use mcp_core::tools::{CallTool, Tool};

use crate::context::RequestContext;
use crate::handler::Handler;
use crate::seam::contributor::CompletionRef;
use crate::seam::customizer::Descriptor;
use crate::seam::guard::Guard;
use crate::vocabulary::{BootError, Origin, TargetKind};

mod report;

pub use report::{CatalogEntry, CatalogReport, Since};

/// The runtime catalog of one server. Clones share it.
#[derive(Clone)]
pub struct Catalog {
    editor: Arc<dyn Editor>,
}

impl fmt::Debug for Catalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Catalog")
            .field("version", &self.version())
            .finish_non_exhaustive()
    }
}

impl RequestContext {
    /// The runtime catalog of the server serving this request: a member
    /// added or removed here is served, listed and announced to every
    /// listener once the change is applied ([`catalog`](crate::catalog)). A
    /// context made outside any server has a catalog that holds nothing and
    /// refuses every change.
    pub fn catalog(&self) -> Catalog {
        self.shared::<Catalog>()
            .map_or_else(Catalog::detached, |catalog| (*catalog).clone())
    }

    /// Whether the caller of this request may see the member `key` of
    /// `kind` (a tool or prompt by name, a resource by URI, a template by
    /// its URI template): the server serves it, from boot or the runtime
    /// catalog, and its guards let the caller see it (a member behind a
    /// challenge is seen, as lists show it). Listed or not does not matter.
    ///
    /// An extension that answers about members on a path of its own (an
    /// index, a manifest, a directory listing) asks this of each, so that
    /// what a guard hides stays hidden there too. A context made outside
    /// any server sees nothing.
    ///
    /// ```
    /// use mcp_server::RequestContext;
    /// use mcp_server::seam::TargetKind;
    ///
    /// let ctx = RequestContext::for_tests();
    /// assert!(!ctx.may_see(TargetKind::Resource, "file:///etc/hosts"));
    /// ```
    pub fn may_see(&self, kind: TargetKind, key: &str) -> bool {
        self.shared::<Catalog>()
            .is_some_and(|catalog| catalog.editor.may_see(self, kind, key))
    }
}

/// What applies changes to a server's runtime catalog (boot implements it,
/// with what it assembled the server from).
pub(crate) trait Editor: Send + Sync {
    fn apply(&self, change: CatalogChange) -> Result<Applied, Refused>;
    fn reload(&self, contributor: &str) -> Result<Applied, Refused>;
    /// The same, without telling the other instances (boot's first load).
    fn reload_here(&self, contributor: &str) -> Result<Applied, Refused>;
    fn version(&self) -> u64;
    /// The members added at runtime, by kind, in list order.
    fn contents(&self) -> Contents;
    /// Every member, of boot and of the runtime catalog.
    fn report(&self) -> CatalogReport;
    /// Whether the caller of `ctx` may see the member `key` of `kind`.
    fn may_see(&self, ctx: &RequestContext, kind: TargetKind, key: &str) -> bool;
}

/// The members added at runtime, by kind, in list order.
#[derive(Default)]
pub(crate) struct Contents {
    pub(crate) tools: Vec<Tool>,
    pub(crate) prompts: Vec<Prompt>,
    pub(crate) resources: Vec<Resource>,
    pub(crate) templates: Vec<ResourceTemplate>,
}

impl Catalog {
    pub(crate) fn new(editor: Arc<dyn Editor>) -> Self {
        Self { editor }
    }

    /// The catalog of a context made outside any server: it holds nothing
    /// and refuses every change.
    fn detached() -> Self {
        Self::new(Arc::new(Detached))
    }

    /// Applies `change` whole, or refuses it and changes nothing.
    ///
    /// # Errors
    ///
    /// Every reason the change is refused, each the diagnostic boot would
    /// print for the same problem (a member contributed twice, a customizer
    /// that changed what identifies it, a URI template that does not
    /// parse), or one of the catalog's own: a member to replace or remove
    /// that the runtime catalog does not hold, one that boot assembled,
    /// which only a new build changes, or a kind the server does not serve.
    pub fn apply(&self, change: CatalogChange) -> Result<Applied, Refused> {
        self.editor.apply(change)
    }

    /// Loads the catalog contributor named `contributor` again and applies
    /// the change from what it served before to what it serves now: members
    /// gone are removed, members kept are replaced, new ones are added, all
    /// at once ([`CatalogContributor`](crate::seam::contributor::catalog::CatalogContributor)).
    ///
    /// # Errors
    ///
    /// Why the contributor could not load, or why the change was refused
    /// (as [`apply`](Self::apply) says); the catalog keeps what the
    /// contributor served. A name no contributor has is refused too.
    pub fn reload(&self, contributor: &str) -> Result<Applied, Refused> {
        self.editor.reload(contributor)
    }

    /// Loads `contributor` on this instance only: its first load, at boot,
    /// when every instance loads its own.
    pub(crate) fn reload_here(&self, contributor: &str) -> Result<Applied, Refused> {
        self.editor.reload_here(contributor)
    }

    /// How many changes were applied; 0 until the first.
    pub fn version(&self) -> u64 {
        self.editor.version()
    }

    /// The tools added at runtime, in list order, as customizers left them
    /// (unlisted ones too).
    pub fn tools(&self) -> Vec<Tool> {
        self.editor.contents().tools
    }

    /// The prompts added at runtime, in list order, as customizers left them.
    pub fn prompts(&self) -> Vec<Prompt> {
        self.editor.contents().prompts
    }

    /// The resources added at runtime, in list order, as customizers left them.
    pub fn resources(&self) -> Vec<Resource> {
        self.editor.contents().resources
    }

    /// The resource templates added at runtime, in list order, as
    /// customizers left them.
    pub fn templates(&self) -> Vec<ResourceTemplate> {
        self.editor.contents().templates
    }

    /// Every member the server serves, of boot and of the runtime catalog,
    /// with where each came from.
    pub fn report(&self) -> CatalogReport {
        self.editor.report()
    }

    /// Where the member `key` of `kind` came from: the contributor of boot
    /// or the change that added it.
    pub fn origin_of(&self, kind: TargetKind, key: &str) -> Option<Origin> {
        self.report()
            .entries
            .into_iter()
            .find(|e| e.kind == kind && e.key == key)
            .map(|e| e.origin)
    }
}

/// The editor of a context made outside any server.
struct Detached;

impl Editor for Detached {
    fn apply(&self, change: CatalogChange) -> Result<Applied, Refused> {
        Err(Refused(vec![BootError::Extension(
            crate::vocabulary::Diagnostic::new(
                "mcp::detached_catalog",
                "this context belongs to no server, so its catalog cannot change",
            )
            .note(format!("the change: {}", change.origin))
            .help("apply changes through a context of a running server, or `Server::catalog`"),
        )]))
    }

    fn reload(&self, contributor: &str) -> Result<Applied, Refused> {
        Err(Refused(vec![BootError::Extension(
            crate::vocabulary::Diagnostic::new(
                "mcp::detached_catalog",
                "this context belongs to no server, so its catalog cannot change",
            )
            .note(format!("the reload of `{contributor}`")),
        )]))
    }

    fn reload_here(&self, contributor: &str) -> Result<Applied, Refused> {
        self.reload(contributor)
    }

    fn version(&self) -> u64 {
        0
    }

    fn contents(&self) -> Contents {
        Contents::default()
    }

    fn report(&self) -> CatalogReport {
        CatalogReport::default()
    }

    fn may_see(&self, _: &RequestContext, _: TargetKind, _: &str) -> bool {
        false
    }
}

/// Edits to apply to the runtime catalog together.
#[derive(Clone)]
pub struct CatalogChange {
    pub(crate) origin: Origin,
    pub(crate) edits: Vec<Edit>,
    /// Guards of every member the change adds or replaces.
    pub(crate) scope: Vec<Arc<dyn Guard>>,
}

impl fmt::Debug for CatalogChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CatalogChange")
            .field("origin", &self.origin)
            .field("edits", &self.edits.len())
            .finish()
    }
}

/// One edit of a change, by kind.
#[derive(Clone)]
pub(crate) enum Edit {
    Tool(Step<Tool, CallTool>),
    Prompt(Step<Prompt, GetPrompt>),
    Resource(Step<Resource, ReadResource>),
    Template(Step<ResourceTemplate, ReadResource>),
    /// Completions of a runtime prompt or template.
    Complete(CompletionRef, Arc<dyn Handler<Complete>>),
}

impl Edit {
    /// The kind and identity of the member it touches.
    pub(crate) fn target(&self) -> (TargetKind, &str) {
        fn key<D: Descriptor, M: Method>(step: &Step<D, M>) -> &str {
            match step {
                Step::Add(d, _) | Step::Replace(d, _) => d.key(),
                Step::Remove(key) => key,
            }
        }
        match self {
            Edit::Tool(s) => (TargetKind::Tool, key(s)),
            Edit::Prompt(s) => (TargetKind::Prompt, key(s)),
            Edit::Resource(s) => (TargetKind::Resource, key(s)),
            Edit::Template(s) => (TargetKind::ResourceTemplate, key(s)),
            Edit::Complete(reference, _) => (TargetKind::Completion, reference.completes().1),
        }
    }

    /// Whether it removes its member.
    pub(crate) fn removes(&self) -> bool {
        matches!(
            self,
            Edit::Tool(Step::Remove(_))
                | Edit::Prompt(Step::Remove(_))
                | Edit::Resource(Step::Remove(_))
                | Edit::Template(Step::Remove(_))
        )
    }

    /// The same member, added (`replace` false) or replaced.
    pub(crate) fn present(self, replace: bool) -> Self {
        fn step<D, M: Method>(step: Step<D, M>, replace: bool) -> Step<D, M> {
            match step {
                Step::Add(d, h) | Step::Replace(d, h) if replace => Step::Replace(d, h),
                Step::Add(d, h) | Step::Replace(d, h) => Step::Add(d, h),
                removal => removal,
            }
        }
        match self {
            Edit::Tool(s) => Edit::Tool(step(s, replace)),
            Edit::Prompt(s) => Edit::Prompt(step(s, replace)),
            Edit::Resource(s) => Edit::Resource(step(s, replace)),
            Edit::Template(s) => Edit::Template(step(s, replace)),
            complete @ Edit::Complete(..) => complete,
        }
    }

    /// The removal of the member `key` of `kind`.
    pub(crate) fn removal(kind: TargetKind, key: String) -> Self {
        match kind {
            TargetKind::Tool => Edit::Tool(Step::Remove(key)),
            TargetKind::Prompt => Edit::Prompt(Step::Remove(key)),
            TargetKind::Resource => Edit::Resource(Step::Remove(key)),
            _ => Edit::Template(Step::Remove(key)),
        }
    }
}

/// What one edit does to one member.
pub(crate) enum Step<D, M: Method> {
    Add(D, Arc<dyn Handler<M>>),
    Replace(D, Arc<dyn Handler<M>>),
    Remove(String),
}

impl<D: Clone, M: Method> Clone for Step<D, M> {
    fn clone(&self) -> Self {
        match self {
            Step::Add(d, h) => Step::Add(d.clone(), h.clone()),
            Step::Replace(d, h) => Step::Replace(d.clone(), h.clone()),
            Step::Remove(key) => Step::Remove(key.clone()),
        }
    }
}

impl CatalogChange {
    /// An empty change, written at `origin` (`mcp_server::origin!()`): the
    /// origin diagnostics and the reports give for what it adds.
    pub fn new(origin: Origin) -> Self {
        Self {
            origin,
            edits: Vec::new(),
            scope: Vec::new(),
        }
    }

    /// Guards every member this change adds or replaces with `guard`,
    /// beside the guards customizers attach: a caller it denies neither
    /// sees those members in a list nor calls them, and hears of the change
    /// only if it may see another member the change touched. This is how a
    /// catalog differs by caller: one change per tenant, each scoped to
    /// that tenant's principals.
    ///
    /// ```
    /// use mcp_server::catalog::CatalogChange;
    /// use mcp_server::seam::guard::{Decision, guard_fn};
    ///
    /// let acme_only = guard_fn("tenant-acme", |ctx, _| {
    ///     match ctx.principal().claim("tenant").and_then(|t| t.as_str()) {
    ///         Some("acme") => Decision::Allow,
    ///         _ => Decision::deny("another tenant's member"),
    ///     }
    /// });
    /// let change = CatalogChange::new(mcp_server::origin!()).scoped(acme_only);
    /// assert!(change.is_empty());
    /// ```
    #[must_use]
    pub fn scoped(mut self, guard: impl Guard) -> Self {
        self.scope.push(Arc::new(guard));
        self
    }

    /// Adds a tool; refused when a tool of that name exists. Its handler is
    /// any [`Handler<CallTool>`]: [`tool::handler`](crate::handler::tool::handler)
    /// makes one from a typed closure (with [`tool::describe`](crate::handler::tool::describe)
    /// for the schemas), or from a closure over a
    /// [`JsonObject`](mcp_core::json::JsonObject) of arguments for a tool
    /// described by data, whose arguments are checked against its schema.
    #[must_use]
    pub fn add_tool(mut self, tool: Tool, handler: impl Handler<CallTool>) -> Self {
        self.edits
            .push(Edit::Tool(Step::Add(tool, Arc::new(handler))));
        self
    }

    /// Replaces a tool added at runtime with another of the same name.
    #[must_use]
    pub fn replace_tool(mut self, tool: Tool, handler: impl Handler<CallTool>) -> Self {
        self.edits
            .push(Edit::Tool(Step::Replace(tool, Arc::new(handler))));
        self
    }

    /// Removes a tool added at runtime: it answers as an unknown tool from
    /// then on; calls already running finish.
    #[must_use]
    pub fn remove_tool(mut self, name: impl Into<String>) -> Self {
        self.edits.push(Edit::Tool(Step::Remove(name.into())));
        self
    }

    /// Adds a prompt; refused when a prompt of that name exists.
    #[must_use]
    pub fn add_prompt(mut self, prompt: Prompt, handler: impl Handler<GetPrompt>) -> Self {
        self.edits
            .push(Edit::Prompt(Step::Add(prompt, Arc::new(handler))));
        self
    }

    /// Replaces a prompt added at runtime with another of the same name.
    #[must_use]
    pub fn replace_prompt(mut self, prompt: Prompt, handler: impl Handler<GetPrompt>) -> Self {
        self.edits
            .push(Edit::Prompt(Step::Replace(prompt, Arc::new(handler))));
        self
    }

    /// Removes a prompt added at runtime.
    #[must_use]
    pub fn remove_prompt(mut self, name: impl Into<String>) -> Self {
        self.edits.push(Edit::Prompt(Step::Remove(name.into())));
        self
    }

    /// Adds a resource with a fixed URI; refused when one has that URI.
    #[must_use]
    pub fn add_resource(mut self, resource: Resource, handler: impl Handler<ReadResource>) -> Self {
        self.edits
            .push(Edit::Resource(Step::Add(resource, Arc::new(handler))));
        self
    }

    /// Replaces a resource added at runtime with another of the same URI.
    #[must_use]
    pub fn replace_resource(
        mut self,
        resource: Resource,
        handler: impl Handler<ReadResource>,
    ) -> Self {
        self.edits
            .push(Edit::Resource(Step::Replace(resource, Arc::new(handler))));
        self
    }

    /// Removes a resource added at runtime, by URI.
    #[must_use]
    pub fn remove_resource(mut self, uri: impl Into<String>) -> Self {
        self.edits.push(Edit::Resource(Step::Remove(uri.into())));
        self
    }

    /// Adds a resource template; refused when one has that template. Its
    /// handler reads the template's variables from the request context, as
    /// a template's handler of boot does.
    #[must_use]
    pub fn add_template(
        mut self,
        template: ResourceTemplate,
        handler: impl Handler<ReadResource>,
    ) -> Self {
        self.edits
            .push(Edit::Template(Step::Add(template, Arc::new(handler))));
        self
    }

    /// Replaces a resource template added at runtime with another of the
    /// same template.
    #[must_use]
    pub fn replace_template(
        mut self,
        template: ResourceTemplate,
        handler: impl Handler<ReadResource>,
    ) -> Self {
        self.edits
            .push(Edit::Template(Step::Replace(template, Arc::new(handler))));
        self
    }

    /// Removes a resource template added at runtime, by its template.
    #[must_use]
    pub fn remove_template(mut self, uri_template: impl Into<String>) -> Self {
        self.edits
            .push(Edit::Template(Step::Remove(uri_template.into())));
        self
    }

    /// Completes the arguments of a prompt, or the variables of a
    /// template, added at runtime in this change (after it) or an earlier
    /// one, as `Contributions::completion` does for one of boot: behind the
    /// guards of that prompt or template. A prompt or template replaced
    /// later starts without completions, and a removed one takes its
    /// completions with it. Refused on a server whose boot assembled no
    /// completion.
    #[must_use]
    pub fn complete(mut self, reference: CompletionRef, handler: impl Handler<Complete>) -> Self {
        self.edits
            .push(Edit::Complete(reference, Arc::new(handler)));
        self
    }

    /// Whether the change holds no edit.
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }
}

/// What an applied change did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Applied {
    /// The catalog's version with the change in.
    pub version: u64,
    /// The tools it added, replaced or removed, by name, in edit order.
    pub tools: Vec<String>,
    /// The prompts it added, replaced or removed, by name, in edit order.
    pub prompts: Vec<String>,
    /// The resources it added, replaced or removed, by URI, in edit order.
    pub resources: Vec<String>,
    /// The resource templates it added, replaced or removed, in edit order.
    pub templates: Vec<String>,
}

/// Why a change was refused: every problem found, none applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub Vec<BootError>);

impl Refused {
    /// The problems.
    pub fn errors(&self) -> &[BootError] {
        &self.0
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for error in &self.0 {
            writeln!(f, "{error}\n")?;
        }
        match self.0.len() {
            1 => write!(
                f,
                "error: the catalog change was refused because of the previous error"
            ),
            n => write!(
                f,
                "error: the catalog change was refused because of {n} previous errors"
            ),
        }
    }
}

impl std::error::Error for Refused {}
