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

use mcp_core::tools::{CallTool, Tool};

use crate::context::RequestContext;
use crate::handler::Handler;
use crate::vocabulary::{BootError, Origin};

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
    /// The runtime catalog of the server serving this request: a tool added
    /// or removed here is served, listed and announced to every listener
    /// once the change is applied ([`catalog`](crate::catalog)). A context
    /// made outside any server has a catalog that holds nothing and refuses
    /// every change.
    pub fn catalog(&self) -> Catalog {
        self.shared::<Catalog>()
            .map_or_else(Catalog::detached, |catalog| (*catalog).clone())
    }
}

/// What applies changes to a server's runtime catalog (boot implements it,
/// with what it assembled the server from).
pub(crate) trait Editor: Send + Sync {
    fn apply(&self, change: CatalogChange) -> Result<Applied, Refused>;
    fn version(&self) -> u64;
    fn tools(&self) -> Vec<Tool>;
    fn origin_of_tool(&self, name: &str) -> Option<Origin>;
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
    /// print for the same problem (a tool contributed twice, a customizer
    /// that changed what identifies it), or one of the catalog's own: a
    /// tool to replace or remove that the runtime catalog does not hold, or
    /// one that boot assembled, which only a new build changes.
    pub fn apply(&self, change: CatalogChange) -> Result<Applied, Refused> {
        self.editor.apply(change)
    }

    /// How many changes were applied; 0 until the first.
    pub fn version(&self) -> u64 {
        self.editor.version()
    }

    /// The tools added at runtime, in list order, as customizers left them
    /// (unlisted ones too).
    pub fn tools(&self) -> Vec<Tool> {
        self.editor.tools()
    }

    /// Where the change that added the runtime tool `name` was written.
    pub fn origin_of_tool(&self, name: &str) -> Option<Origin> {
        self.editor.origin_of_tool(name)
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

    fn version(&self) -> u64 {
        0
    }

    fn tools(&self) -> Vec<Tool> {
        Vec::new()
    }

    fn origin_of_tool(&self, _: &str) -> Option<Origin> {
        None
    }
}

/// Edits to apply to the runtime catalog together.
#[derive(Clone)]
pub struct CatalogChange {
    pub(crate) origin: Origin,
    pub(crate) edits: Vec<Edit>,
}

impl fmt::Debug for CatalogChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CatalogChange")
            .field("origin", &self.origin)
            .field("edits", &self.edits.len())
            .finish()
    }
}

/// One edit of a change.
#[derive(Clone)]
pub(crate) enum Edit {
    Add(Tool, Arc<dyn Handler<CallTool>>),
    Replace(Tool, Arc<dyn Handler<CallTool>>),
    Remove(String),
}

impl CatalogChange {
    /// An empty change, written at `origin` (`mcp_server::origin!()`): the
    /// origin diagnostics and the boot report give for what it adds.
    pub fn new(origin: Origin) -> Self {
        Self {
            origin,
            edits: Vec::new(),
        }
    }

    /// Adds a tool; refused when a tool of that name exists. Its handler is
    /// any [`Handler<CallTool>`]: [`tool::handler`](crate::handler::tool::handler)
    /// makes one from a typed closure (with [`tool::describe`](crate::handler::tool::describe)
    /// for the schemas), or from a closure over a
    /// [`JsonObject`](mcp_core::json::JsonObject) of arguments for a tool
    /// described by data, whose arguments are checked against its schema.
    #[must_use]
    pub fn add_tool(mut self, tool: Tool, handler: impl Handler<CallTool>) -> Self {
        self.edits.push(Edit::Add(tool, Arc::new(handler)));
        self
    }

    /// Replaces a tool added at runtime with another of the same name.
    #[must_use]
    pub fn replace_tool(mut self, tool: Tool, handler: impl Handler<CallTool>) -> Self {
        self.edits.push(Edit::Replace(tool, Arc::new(handler)));
        self
    }

    /// Removes a tool added at runtime: it answers as an unknown tool from
    /// then on; calls already running finish.
    #[must_use]
    pub fn remove_tool(mut self, name: impl Into<String>) -> Self {
        self.edits.push(Edit::Remove(name.into()));
        self
    }

    /// Whether the change holds no edit.
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }
}

/// What an applied change did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Applied {
    /// The catalog's version with the change in.
    pub version: u64,
    /// The tools it added, replaced or removed, by name, in edit order.
    pub tools: Vec<String>,
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
