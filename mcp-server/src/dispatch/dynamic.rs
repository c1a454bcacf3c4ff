//! The members added while the server runs: one immutable snapshot at a
//! time, replaced whole by each change. A request loads the snapshot once
//! and keeps what it resolved to its end, so it sees one version of the
//! catalog, and a call in flight finishes on the member it started with
//! even when that member is removed meanwhile.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arc_swap::ArcSwap;
use mcp_core::completion::Complete;
use mcp_core::method::Method;
use mcp_core::prompts::{GetPrompt, Prompt};
use mcp_core::resources::{ReadResource, Resource, ResourceTemplate};
use mcp_core::tools::{CallTool, Tool};

use super::chain::HandlerChain;
use super::listed::Listed;
use crate::handler::resource::UriTemplate;
use crate::handler::tool::ParamHeader;
use crate::seam::customizer::Descriptor;
use crate::vocabulary::Origin;
use crate::vocabulary::sorted_map::SortedMap;

/// One member added at runtime: as its list shows it, its chain, and where
/// the change that added it was written.
pub(crate) struct Member<D, M: Method> {
    pub(crate) listed: Listed<D>,
    pub(crate) chain: Arc<HandlerChain<M>>,
    pub(crate) origin: Origin,
    /// The catalog version that added it.
    pub(crate) since: u64,
    /// A resource template's template, parsed once.
    pub(crate) pattern: Option<UriTemplate>,
    /// A tool's arguments mirrored in `Mcp-Param-*` headers.
    pub(crate) param_headers: Vec<ParamHeader>,
}

/// The members of one kind, by identity (shared keys: each change clones
/// the maps, not the names).
pub(crate) type Shelf<D, M> = SortedMap<Arc<str>, Arc<Member<D, M>>>;

/// One version of the runtime catalog: every member added at runtime, by
/// kind and identity.
#[derive(Default, Clone)]
pub(crate) struct Snapshot {
    /// Counts the changes applied; 0 until the first.
    pub(crate) version: u64,
    pub(crate) tools: Shelf<Tool, CallTool>,
    pub(crate) prompts: Shelf<Prompt, GetPrompt>,
    pub(crate) resources: Shelf<Resource, ReadResource>,
    pub(crate) templates: Shelf<ResourceTemplate, ReadResource>,
    /// The completions of runtime prompts, by prompt name.
    pub(crate) prompt_completions: SortedMap<Arc<str>, Arc<Completer>>,
    /// The completions of runtime templates, by URI template.
    pub(crate) template_completions: SortedMap<Arc<str>, Arc<Completer>>,
}

/// The completions of one runtime prompt or template: per argument, for
/// all its arguments, and an empty answer for the rest, every one behind
/// the guards of its prompt or template.
#[derive(Clone)]
pub(crate) struct Completer {
    pub(crate) by_argument: SortedMap<String, Arc<HandlerChain<Complete>>>,
    pub(crate) whole: Option<Arc<HandlerChain<Complete>>>,
    pub(crate) fallback: Arc<HandlerChain<Complete>>,
}

impl Completer {
    /// The chain that completes `argument`.
    pub(crate) fn chain(&self, argument: &str) -> Arc<HandlerChain<Complete>> {
        self.by_argument
            .get(argument)
            .or(self.whole.as_ref())
            .unwrap_or(&self.fallback)
            .clone()
    }
}

/// The current version of the runtime catalog, shared by the routes that
/// read it and the catalog that changes it.
#[derive(Default)]
pub(crate) struct Dynamic {
    current: ArcSwap<Snapshot>,
    /// Whether a runtime tool mirrors arguments in headers, so that a
    /// request's arguments are read before it is admitted.
    mirrors: AtomicBool,
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
        let mirrors = snapshot.tools.values().any(|t| !t.param_headers.is_empty());
        self.current.store(Arc::new(snapshot));
        self.mirrors.store(mirrors, Ordering::Release);
    }

    /// Whether a runtime tool mirrors arguments in `Mcp-Param-*` headers.
    pub(crate) fn mirrors(&self) -> bool {
        self.mirrors.load(Ordering::Acquire)
    }
}

/// A descriptor kind the runtime catalog holds, with the method that
/// serves its members.
pub(crate) trait Dynamically: Descriptor + PartialEq {
    /// The method a member of this kind answers.
    type Serves: Method;
    /// The members of this kind in `snapshot`.
    fn shelf(snapshot: &Snapshot) -> &Shelf<Self, Self::Serves>;
    /// The same, to change.
    fn shelf_mut(snapshot: &mut Snapshot) -> &mut Shelf<Self, Self::Serves>;
    /// A member's arguments mirrored in `Mcp-Param-*` headers (a tool's).
    fn mirrored(&self) -> Vec<ParamHeader>;

    /// The members of this kind, as listed, in identity order.
    fn members(snapshot: &Snapshot) -> impl Iterator<Item = &Listed<Self>> {
        Self::shelf(snapshot).values().map(|m| &m.listed)
    }

    /// The member `key`, as listed.
    fn member<'s>(snapshot: &'s Snapshot, key: &str) -> Option<&'s Listed<Self>> {
        Self::shelf(snapshot).get(key).map(|m| &m.listed)
    }
}

/// Implements [`Dynamically`] for a kind, served by a method, on a shelf.
macro_rules! shelved {
    ($($descriptor:ty => $method:ty, $shelf:ident, $mirrored:expr;)*) => {$(
        impl Dynamically for $descriptor {
            type Serves = $method;

            fn shelf(snapshot: &Snapshot) -> &Shelf<Self, $method> {
                &snapshot.$shelf
            }

            fn shelf_mut(snapshot: &mut Snapshot) -> &mut Shelf<Self, $method> {
                &mut snapshot.$shelf
            }

            fn mirrored(&self) -> Vec<ParamHeader> {
                $mirrored(self)
            }
        }
    )*};
}

shelved! {
    Tool => CallTool, tools, crate::handler::tool::param_headers;
    Prompt => GetPrompt, prompts, |_| Vec::new();
    Resource => ReadResource, resources, |_| Vec::new();
    ResourceTemplate => ReadResource, templates, |_| Vec::new();
}
