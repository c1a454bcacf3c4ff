//! Boot: collect every registration, sort, union the contributors, fold the
//! customizers, select one member per strategy seam, build every method's
//! chain, and freeze one immutable server — or fail with every problem found.
//!
//! ```
//! use mcp_server::{Server, origin};
//! use mcp_server::contributor::contributor_fn;
//! use mcp_server::handler::handler_fn;
//! use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
//!
//! let server = Server::builder()
//!     .named("demo", "1.0.0")
//!     .without_linked()
//!     .contributor(origin!(), "echo", contributor_fn(|c| {
//!         let tool = Tool { name: "echo".into(), ..Default::default() };
//!         c.tool(tool, handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("hi")) }));
//!     }))
//!     .try_build()
//!     .unwrap();
//! assert!(server.report().to_string().contains("tool `echo`"));
//! ```

mod assemble;
mod error;
mod report;

use std::sync::Arc;

use mcp_core::content::Implementation;

pub use error::{BootError, BootErrors};
pub use report::{BootReport, HandlerReport, Member, MethodReport};

use crate::contributor::Contributor;
use crate::origin::Origin;
use crate::registry::Item;
use crate::server::Server;
use crate::sink::ChangeSink;

/// Settings of the built-in methods.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    pub(crate) page_size: usize,
    pub(crate) list_ttl_ms: u64,
    pub(crate) discover_ttl_ms: u64,
    pub(crate) instructions: Option<String>,
}

/// A registration added on the builder rather than linked.
pub(crate) struct Added {
    pub(crate) origin: Origin,
    pub(crate) name: String,
    pub(crate) order: i32,
    pub(crate) item: Item,
}

/// Assembles a [`Server`] from linked and added registrations.
pub struct Builder {
    pub(crate) info: Implementation,
    pub(crate) linked: bool,
    pub(crate) added: Vec<Added>,
    pub(crate) expected: Vec<String>,
    pub(crate) settings: Settings,
    pub(crate) changes: Option<(Origin, Arc<dyn ChangeSink>)>,
}

impl std::fmt::Debug for Builder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Builder")
            .field("info", &self.info)
            .field("linked", &self.linked)
            .field("added", &self.added.len())
            .field("expected", &self.expected)
            .finish_non_exhaustive()
    }
}

impl Default for Builder {
    fn default() -> Self {
        Self {
            info: Implementation::new("mcp-server", env!("CARGO_PKG_VERSION")),
            linked: true,
            added: Vec::new(),
            expected: Vec::new(),
            settings: Settings {
                page_size: 100,
                list_ttl_ms: 0,
                discover_ttl_ms: 3_600_000,
                instructions: None,
            },
            changes: None,
        }
    }
}

impl Builder {
    /// Names the server (`serverInfo`).
    #[must_use]
    pub fn named(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.info.name = name.into();
        self.info.version = version.into();
        self
    }

    /// Sets the whole `serverInfo`.
    #[must_use]
    pub fn info(mut self, info: Implementation) -> Self {
        self.info = info;
        self
    }

    /// Instructions for the model, returned by `server/discover` and `initialize`.
    #[must_use]
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.settings.instructions = Some(instructions.into());
        self
    }

    /// Ignores every linked registration: only what is added on this builder
    /// counts (for tests that need a server independent of what is linked).
    #[must_use]
    pub fn without_linked(mut self) -> Self {
        self.linked = false;
        self
    }

    /// Adds a registration, as if it were linked.
    #[must_use]
    pub fn register(
        mut self,
        origin: Origin,
        name: impl Into<String>,
        order: i32,
        item: Item,
    ) -> Self {
        self.added.push(Added {
            origin,
            name: name.into(),
            order,
            item,
        });
        self
    }

    /// Adds a contributor.
    #[must_use]
    pub fn contributor(
        self,
        origin: Origin,
        name: impl Into<String>,
        contributor: impl Contributor,
    ) -> Self {
        self.register(origin, name, 0, Item::Contributor(Arc::new(contributor)))
    }

    /// Requires the extension crate `package` (say `mcp-tasks`) to be linked:
    /// some registration of it (any seam member, or an `Item::Extension`
    /// marker) must be present; boot fails with a help line naming the
    /// missing `use` when none is.
    #[must_use]
    pub fn expect_extension(mut self, package: impl Into<String>) -> Self {
        self.expected.push(package.into());
        self
    }

    /// The number of items per page of `tools/list` and the other lists (default 100).
    #[must_use]
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.settings.page_size = page_size.max(1);
        self
    }

    /// How long clients may cache lists (`ttlMs`, default 0) and `server/discover`
    /// (default one hour).
    #[must_use]
    pub fn cache_ttl(mut self, lists_ms: u64, discover_ms: u64) -> Self {
        self.settings.list_ttl_ms = lists_ms;
        self.settings.discover_ttl_ms = discover_ms;
        self
    }

    /// Where published changes go (default: an in-process broadcast).
    ///
    /// The change sink is a one-active seam: this counts as supplying one, so
    /// a linked `#[sink]` registration as well fails boot.
    #[must_use]
    #[track_caller]
    pub fn change_sink(mut self, sink: impl ChangeSink) -> Self {
        let at = std::panic::Location::caller();
        let origin = Origin {
            crate_name: "(builder)",
            crate_version: "",
            module: "Builder::change_sink",
            file: at.file(),
            line: at.line(),
        };
        self.changes = Some((origin, Arc::new(sink)));
        self
    }

    /// Assembles the server.
    ///
    /// # Errors
    ///
    /// Every problem found, at once: collisions, identity changes by
    /// customizers, two strategies for one seam, missing extensions.
    pub fn try_build(self) -> Result<Server, BootErrors> {
        assemble::assemble(self)
    }

    /// Assembles the server.
    ///
    /// # Panics
    ///
    /// With the rendered diagnostics, when [`try_build`](Self::try_build) fails.
    pub fn build(self) -> Server {
        match self.try_build() {
            Ok(server) => server,
            Err(errors) => panic!("\n{errors}"),
        }
    }
}
