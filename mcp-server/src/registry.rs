//! Link-time registration: what extension crates submit through `inventory`,
//! and what a builder adds by hand, in one shape.
//!
//! A registration is plain data: its [`Origin`], a name, an order, and a
//! function that makes the registered [`Item`] at boot. Being `const`, it can
//! be submitted from any crate; being collected at link time, linking the
//! crate activates it. The framework sorts what it collects, since inventory's
//! order is unspecified.
//!
//! ```
//! use mcp_server::registry::{Item, Registration};
//!
//! fn make() -> Item { Item::Extension }
//! mcp_server::__private::inventory::submit! {
//!     Registration::new(mcp_server::origin!(), "doc-extension", 0, make)
//! }
//! assert!(mcp_server::registry::linked().any(|r| r.name == "doc-extension"));
//! ```

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use mcp_core::method::Method;
use mcp_core::prompts::Prompt;
use mcp_core::resources::{Resource, ResourceTemplate};
use mcp_core::tools::Tool;

use crate::contributor::Contributor;
use crate::customizer::{HandlerCustomizer, MethodDescriptor, ServerCapabilitiesCustomizer};
use crate::interceptor::{
    AlternateResultInterceptor, HandlerInterceptor, RawInterceptor, Stratum, TypedInterceptor,
};
use crate::origin::Origin;
use crate::sink::ChangeSink;
use crate::source::PrincipalSource;
use crate::store::EventStore;
use crate::strategy::KeyStrategy;
use crate::target::TargetKind;

/// One registration, submitted through `inventory` or added on a builder.
#[derive(Clone, Copy)]
pub struct Registration {
    /// Where it was written.
    pub origin: Origin,
    /// Its name, shown in the boot report and used to sort.
    pub name: &'static str,
    /// Its order among its seam's members: lower runs first (outermost).
    pub order: i32,
    /// Makes the registered item at boot.
    pub make: fn() -> Item,
}

impl fmt::Debug for Registration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registration")
            .field("origin", &self.origin)
            .field("name", &self.name)
            .field("order", &self.order)
            .finish_non_exhaustive()
    }
}

impl Registration {
    /// A registration; `const`, so it can be submitted.
    pub const fn new(origin: Origin, name: &'static str, order: i32, make: fn() -> Item) -> Self {
        Self {
            origin,
            name,
            order,
            make,
        }
    }
}

inventory::collect!(Registration);

/// Every registration linked into this program, in no particular order.
pub fn linked() -> impl Iterator<Item = &'static Registration> {
    inventory::iter::<Registration>.into_iter()
}

/// What a registration registers: one member of one seam.
#[non_exhaustive]
pub enum Item {
    /// Contributes tools, prompts, resources, templates, completions, methods.
    Contributor(Arc<dyn Contributor>),
    /// Customizes every tool's handler config.
    CallToolCustomizer(Arc<dyn HandlerCustomizer<Tool>>),
    /// Customizes every prompt's handler config.
    GetPromptCustomizer(Arc<dyn HandlerCustomizer<Prompt>>),
    /// Customizes every fixed resource's handler config.
    ReadResourceCustomizer(Arc<dyn HandlerCustomizer<Resource>>),
    /// Customizes every resource template's handler config.
    ReadResourceTemplateCustomizer(Arc<dyn HandlerCustomizer<ResourceTemplate>>),
    /// Customizes every contributed method's handler config.
    MethodCustomizer(Arc<dyn HandlerCustomizer<MethodDescriptor>>),
    /// Customizes the server's capabilities.
    ServerCapabilitiesCustomizer(Arc<dyn ServerCapabilitiesCustomizer>),
    /// Wraps every method.
    RawInterceptor(Arc<dyn RawInterceptor>),
    /// Wraps one method with typed params and result.
    TypedInterceptor(TypedInterceptorItem),
    /// Sits in a stratum of every handler chain in scope.
    HandlerInterceptor {
        /// The stratum.
        stratum: Stratum,
        /// Which handlers it applies to.
        scope: Scope,
        /// The interceptor.
        interceptor: Arc<dyn HandlerInterceptor>,
    },
    /// Wraps the invocation of every handler.
    AlternateResultInterceptor(Arc<dyn AlternateResultInterceptor>),
    /// The principal source (exactly one is active).
    PrincipalSource(Arc<dyn PrincipalSource>),
    /// The key strategy that seals MRTR request state (exactly one is active).
    KeyStrategy(Arc<dyn KeyStrategy>),
    /// Where published changes go (exactly one is active; the default is an
    /// in-process broadcast, and `Builder::change_sink` counts as one).
    ChangeSink(Arc<dyn ChangeSink>),
    /// The event store (a one-active seam).
    EventStore(Arc<dyn EventStore>),
    /// Marks a crate as a linked extension, for `expect_extension`.
    Extension,
}

impl Item {
    /// A typed interceptor for method `M`.
    pub fn typed<M: Method>(interceptor: impl TypedInterceptor<M>) -> Self {
        Item::TypedInterceptor(TypedInterceptorItem::new::<M>(Arc::new(interceptor)))
    }

    /// The seam word of this item, for the boot report.
    pub fn seam(&self) -> &'static str {
        match self {
            Item::Contributor(_) => "Contributor",
            Item::CallToolCustomizer(_)
            | Item::GetPromptCustomizer(_)
            | Item::ReadResourceCustomizer(_)
            | Item::ReadResourceTemplateCustomizer(_)
            | Item::MethodCustomizer(_)
            | Item::ServerCapabilitiesCustomizer(_) => "Customizer",
            Item::RawInterceptor(_)
            | Item::TypedInterceptor(_)
            | Item::HandlerInterceptor { .. }
            | Item::AlternateResultInterceptor(_) => "Interceptor",
            Item::PrincipalSource(_) => "Source",
            Item::KeyStrategy(_) => "Strategy",
            Item::ChangeSink(_) => "Sink",
            Item::EventStore(_) => "Store",
            Item::Extension => "Extension",
        }
    }
}

impl fmt::Debug for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.seam())
    }
}

/// A typed interceptor with its method kept for boot to check.
#[derive(Debug)]
pub struct TypedInterceptorItem {
    pub(crate) method: &'static str,
    pub(crate) params_type: &'static str,
    pub(crate) interceptor: Box<dyn Any + Send + Sync>,
}

impl TypedInterceptorItem {
    /// Wraps an interceptor for method `M`.
    pub fn new<M: Method>(interceptor: Arc<dyn TypedInterceptor<M>>) -> Self {
        Self {
            method: M::NAME,
            params_type: std::any::type_name::<M::Params>(),
            interceptor: Box::new(interceptor),
        }
    }
}

/// Which handlers a registered handler-chain interceptor applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every handler of every method.
    All,
    /// Every handler of one method.
    Method(&'static str),
    /// Every handler of one kind.
    Kind(TargetKind),
}

impl Scope {
    pub(crate) fn covers(self, method: &str, kind: TargetKind) -> bool {
        match self {
            Scope::All => true,
            Scope::Method(m) => m == method,
            Scope::Kind(k) => k == kind,
        }
    }
}
