//! The members added while the server runs: one immutable snapshot at a
//! time, replaced whole by each change. A request loads the snapshot once
//! and keeps what it resolved to its end, so it sees one version of the
//! catalog, and a call in flight finishes on the member it started with
//! even when that member is removed meanwhile.

use std::collections::BTreeMap;
use std::sync::Arc;

use arc_swap::ArcSwap;
use mcp_core::method::Method;
use mcp_core::prompts::Prompt;
use mcp_core::resources::{Resource, ResourceTemplate};
use mcp_core::tools::{CallTool, Tool};

use super::chain::HandlerChain;
use super::listed::Listed;
use crate::seam::customizer::Descriptor;
use crate::vocabulary::Origin;

/// One member added at runtime: as its list shows it, its chain, and where
/// the change that added it was written.
pub(crate) struct Member<D, M: Method> {
    pub(crate) listed: Listed<D>,
    pub(crate) chain: Arc<HandlerChain<M>>,
    pub(crate) origin: Origin,
}

/// One version of the runtime catalog: every member added at runtime, by
/// identity.
#[derive(Default)]
pub(crate) struct Snapshot {
    /// Counts the changes applied; 0 until the first.
    pub(crate) version: u64,
    pub(crate) tools: BTreeMap<String, Arc<Member<Tool, CallTool>>>,
}

/// The current version of the runtime catalog, shared by the routes that
/// read it and the catalog that changes it.
#[derive(Default)]
pub(crate) struct Dynamic {
    current: ArcSwap<Snapshot>,
}

impl Dynamic {
    /// The current snapshot, kept as long as the caller holds it.
    pub(crate) fn load(&self) -> Arc<Snapshot> {
        self.current.load_full()
    }

    /// The current snapshot, for a look that ends before the next await.
    pub(crate) fn peek(&self) -> arc_swap::Guard<Arc<Snapshot>> {
        self.current.load()
    }

    /// Makes `snapshot` the current version.
    pub(crate) fn store(&self, snapshot: Snapshot) {
        self.current.store(Arc::new(snapshot));
    }
}

/// The members of one descriptor kind in a snapshot, in identity order.
pub(crate) trait Dynamically: Descriptor {
    /// The listed members of this kind.
    fn members(snapshot: &Snapshot) -> Box<dyn Iterator<Item = &Listed<Self>> + '_>;
    /// The listed member named `key`.
    fn member<'s>(snapshot: &'s Snapshot, key: &str) -> Option<&'s Listed<Self>>;
}

impl Dynamically for Tool {
    fn members(snapshot: &Snapshot) -> Box<dyn Iterator<Item = &Listed<Self>> + '_> {
        Box::new(snapshot.tools.values().map(|m| &m.listed))
    }

    fn member<'s>(snapshot: &'s Snapshot, key: &str) -> Option<&'s Listed<Self>> {
        snapshot.tools.get(key).map(|m| &m.listed)
    }
}

/// Implements [`Dynamically`] for a kind the runtime catalog does not hold yet.
macro_rules! held_nowhere {
    ($($descriptor:ty),*) => {$(
        impl Dynamically for $descriptor {
            fn members(_: &Snapshot) -> Box<dyn Iterator<Item = &Listed<Self>> + '_> {
                Box::new(std::iter::empty())
            }

            fn member<'s>(_: &'s Snapshot, _: &str) -> Option<&'s Listed<Self>> {
                None
            }
        }
    )*};
}

held_nowhere!(Prompt, Resource, ResourceTemplate);
