//! Catalog contributors: what any crate contributes to the runtime catalog,
//! at boot and again whenever its source changes.
//!
//! A catalog contributor serves members described by data (tools generated
//! from an OpenAPI document, a table, a plugin directory, prompts an
//! administrator edits). Its [`load`](CatalogContributor::load) says what
//! it serves now, as one change that adds all of it; the framework turns
//! that into the change from what it served before (members gone are
//! removed, members kept are replaced, new ones are added) and applies it
//! whole, through the customizers, guards, collision checks and validators
//! every member passes. It loads once at boot, where a refusal fails boot,
//! and again at each [`Catalog::reload`], which its
//! [`watch`](CatalogContributor::watch) calls when its source changes.
//! Several crates may contribute one each: the kind
//! [`CatalogContributors`] is keyed by name.
//!
//! ```
//! use std::sync::Arc;
//! use std::sync::atomic::{AtomicUsize, Ordering};
//! use mcp_server::catalog::CatalogChange;
//! use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
//! use mcp_server::handler::handler_fn;
//! use mcp_server::seam::Item;
//! use mcp_server::seam::contributor::catalog::CatalogContributor;
//! use mcp_server::seam::contributor::contributor_fn;
//! use mcp_server::boot::Diagnostic;
//!
//! /// Serves `count` numbered tools; the count stands for a source.
//! struct Numbered(Arc<AtomicUsize>);
//!
//! impl CatalogContributor for Numbered {
//!     fn name(&self) -> &str {
//!         "numbered"
//!     }
//!
//!     fn load(&self) -> Result<CatalogChange, Diagnostic> {
//!         let mut change = CatalogChange::new(mcp_server::origin!());
//!         for n in 0..self.0.load(Ordering::Relaxed) {
//!             let tool = Tool { name: format!("tool_{n}"), ..Default::default() };
//!             let answer = handler_fn::<CallTool, _, _, _>(move |_, _| async move {
//!                 Ok(CallToolResult::text(n.to_string()))
//!             });
//!             change = change.add_tool(tool, answer);
//!         }
//!         Ok(change)
//!     }
//! }
//!
//! let count = Arc::new(AtomicUsize::new(2));
//! let server = mcp_server::Server::builder()
//!     .without_linked()
//!     .contributor(mcp_server::origin!(), "app", contributor_fn(|c| {
//!         c.tool(Tool { name: "ping".into(), ..Default::default() },
//!             handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("pong")) }));
//!     }))
//!     .register(mcp_server::origin!(), "numbered", 0,
//!         Item::catalog_contributor(Numbered(count.clone())))
//!     .build();
//! assert_eq!(server.tools().len(), 3);
//! count.store(1, Ordering::Relaxed);
//! let applied = server.catalog().reload("numbered").unwrap();
//! assert_eq!(applied.tools, ["tool_0", "tool_1"]); // one replaced, one removed
//! assert_eq!(server.tools().len(), 2);
//! ```

use std::sync::Arc;

use crate::catalog::{Catalog, CatalogChange};
use crate::vocabulary::Diagnostic;
use crate::vocabulary::registration::Item;
use crate::vocabulary::seam::{Kind, SeamWord};

/// Contributes members to the runtime catalog, at boot and on each reload.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a catalog contributor",
    note = "implement `mcp_server::seam::contributor::catalog::CatalogContributor`: a `name` and a `load` that returns what it serves now"
)]
pub trait CatalogContributor: Send + Sync + 'static {
    /// Its name: what [`Catalog::reload`] names it by, and the boot report shows.
    fn name(&self) -> &str;

    /// Everything it serves now, as one change that adds all of it (each
    /// edit an `add_*`; `replace_*` counts as an add, `remove_*` is
    /// ignored). A diagnostic says why it cannot load: at boot it fails
    /// boot, on a reload the reload is refused and the catalog keeps what
    /// it served.
    ///
    /// # Errors
    ///
    /// Why its source cannot be read.
    fn load(&self) -> Result<CatalogChange, Diagnostic>;

    /// Called once the server is built: a contributor that follows a
    /// source starts watching it here, and calls `catalog.reload(name)`
    /// when it changes. Does nothing unless overridden.
    fn watch(&self, catalog: &Catalog) {
        let _ = catalog;
    }
}

/// The registration kind of catalog contributors, keyed by name.
#[derive(Debug)]
pub struct CatalogContributors;

impl Kind for CatalogContributors {
    type Member = Arc<dyn CatalogContributor>;
    const NAME: &'static str = "catalog contributor";
    const CODE: &'static str = "mcp::duplicate_catalog_contributor";
    const WORD: SeamWord = SeamWord::Contributor;
    const HELP: &'static str = "give one of the catalog contributors another name";

    fn key(contributor: &Arc<dyn CatalogContributor>) -> String {
        contributor.name().to_owned()
    }
}

impl Item {
    /// A catalog contributor ([`CatalogContributors`]).
    pub fn catalog_contributor(contributor: impl CatalogContributor) -> Self {
        Self::member::<CatalogContributors>(Arc::new(contributor) as Arc<dyn CatalogContributor>)
    }
}
