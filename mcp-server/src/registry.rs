//! Link-time registration: what crates submit through [`register!`](crate::register),
//! and what a builder adds by hand, in one shape.
//!
//! A registration is plain data: its [`Origin`], a name, an order, and a
//! function that makes the registered [`Item`] at boot from the
//! [`BootContext`]. Being `const`, it can be submitted from any crate; being
//! collected at link time, linking the crate activates it. The framework
//! sorts what it collects, since link order is unspecified.
//!
//! Members of one-active seams are made first ([`Registration::supply`]), so
//! the winners can be handed to everything else, which is made after
//! ([`Registration::new`]).
//!
//! ```
//! use mcp_server::{BootContext, Item, Registration};
//!
//! fn make(_: &BootContext) -> Item { Item::Extension }
//! mcp_server::register!(Registration::new(mcp_server::origin!(), "doc-extension", 0, make));
//! assert!(mcp_server::registry::linked().any(|r| r.name == "doc-extension"));
//! ```

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;

use mcp_core::method::Method;
use mcp_core::prompts::Prompt;
use mcp_core::resources::{Resource, ResourceTemplate};
use mcp_core::tools::Tool;

use crate::boot::{BootContext, Validator};
use crate::config::SectionDecl;
use crate::contributor::Contributor;
use crate::customizer::{
    Descriptor, HandlerCustomizer, MethodDescriptor, ServerCapabilitiesCustomizer,
};
use crate::interceptor::{
    AlternateResultInterceptor, HandlerInterceptor, RawInterceptor, Stratum, TypedInterceptor,
};
use crate::origin::Origin;
use crate::seam::{Member, SeamDecl, SeamWord, Supplied};
use crate::target::TargetKind;

/// When a registration's item is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Before one-active seams are selected: their members and declarations.
    Supply,
    /// After selection, with the winners in the boot context: everything else.
    Assemble,
}

/// One registration, submitted with [`register!`](crate::register) or added on a builder.
#[derive(Clone, Copy)]
pub struct Registration {
    /// Where it was written.
    pub origin: Origin,
    /// Its name, shown in the boot report and used to sort.
    pub name: &'static str,
    /// Its order among its seam's members: lower runs first (outermost).
    pub order: i32,
    /// When its item is made.
    pub stage: Stage,
    /// Makes the registered item at boot.
    pub make: fn(&BootContext) -> Item,
}

impl fmt::Debug for Registration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registration")
            .field("origin", &self.origin)
            .field("name", &self.name)
            .field("order", &self.order)
            .field("stage", &self.stage)
            .finish_non_exhaustive()
    }
}

impl Registration {
    /// A registration made once one-active seams are selected; `const`, so
    /// it can be submitted.
    pub const fn new(
        origin: Origin,
        name: &'static str,
        order: i32,
        make: fn(&BootContext) -> Item,
    ) -> Self {
        Self {
            origin,
            name,
            order,
            stage: Stage::Assemble,
            make,
        }
    }

    /// A registration of a one-active seam's member ([`Item::Supply`]) or
    /// declaration ([`Item::Seam`]), made before selection (its boot
    /// context has configuration and shared state, but no selected seams yet).
    pub const fn supply(
        origin: Origin,
        name: &'static str,
        make: fn(&BootContext) -> Item,
    ) -> Self {
        Self {
            origin,
            name,
            order: 0,
            stage: Stage::Supply,
            make,
        }
    }
}

inventory::collect!(Registration);

/// Submits a [`Registration`] at link time: linking the crate that writes
/// it activates it.
///
/// ```
/// use mcp_server::{BootContext, Item, Registration};
/// fn marker(_: &BootContext) -> Item { Item::Extension }
/// mcp_server::register!(Registration::new(mcp_server::origin!(), "my-extension", 0, marker));
/// ```
#[macro_export]
macro_rules! register {
    ($registration:expr) => {
        $crate::__private::inventory::submit! { $registration }
    };
}

/// Every registration linked into this program, in no particular order.
pub fn linked() -> impl Iterator<Item = &'static Registration> {
    inventory::iter::<Registration>.into_iter()
}

/// What a registration registers: one member of one seam.
#[non_exhaustive]
pub enum Item {
    /// Contributes tools, prompts, resources, templates, completions, methods.
    Contributor(Arc<dyn Contributor>),
    /// Customizes handler configs of one kind, or the server's capabilities.
    Customizer(CustomizerItem),
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
    /// A member of a one-active seam, built in or declared by any crate.
    Supply(Supplied),
    /// Declares a one-active seam, so its default is selected when nobody
    /// supplies a member.
    Seam(SeamDecl),
    /// A member of a registration kind declared by any crate.
    Member(Member),
    /// Declares a configuration section, so its settings are checked.
    Section(SectionDecl),
    /// Inspects the assembled server and may fail boot.
    Validator(Arc<dyn Validator>),
    /// Marks a crate as a linked extension, for `expect_extension`.
    Extension,
    /// Registers nothing in this configuration: what a registration of an
    /// extension that is linked but not configured makes; the text says why
    /// in the boot report.
    Inactive(&'static str),
}

impl Item {
    /// A typed interceptor for method `M`.
    pub fn typed<M: Method>(interceptor: impl TypedInterceptor<M>) -> Self {
        Item::TypedInterceptor(TypedInterceptorItem::new::<M>(Arc::new(interceptor)))
    }

    /// A customizer of every handler config of kind `D` (`Tool`, `Prompt`,
    /// `Resource`, `ResourceTemplate`, `MethodDescriptor`).
    pub fn customizer<D: Descriptor>(customizer: impl HandlerCustomizer<D>) -> Self {
        Item::Customizer(CustomizerItem {
            target: D::wrap(Arc::new(customizer)).0,
            only: None,
        })
    }

    /// A customizer of the one handler of kind `D` whose identity (tool or
    /// prompt name, URI, URI template, method name) is `name`, resolved at
    /// boot; naming nothing fails boot.
    pub fn customizer_for<D: Descriptor>(
        name: impl Into<String>,
        customizer: impl HandlerCustomizer<D>,
    ) -> Self {
        Item::Customizer(CustomizerItem {
            target: D::wrap(Arc::new(customizer)).0,
            only: Some(name.into()),
        })
    }

    /// A customizer of the server's capabilities.
    pub fn capabilities(customizer: impl ServerCapabilitiesCustomizer) -> Self {
        Item::Customizer(CustomizerItem {
            target: CustomizerTarget::Capabilities(Arc::new(customizer)),
            only: None,
        })
    }

    /// The seam word of this item, for the boot report.
    pub fn word(&self) -> SeamWord {
        match self {
            Item::Contributor(_) => SeamWord::Contributor,
            Item::Customizer(_) => SeamWord::Customizer,
            Item::RawInterceptor(_)
            | Item::TypedInterceptor(_)
            | Item::HandlerInterceptor { .. }
            | Item::AlternateResultInterceptor(_) => SeamWord::Interceptor,
            Item::Supply(s) => s.seam.word,
            Item::Seam(s) => s.seam.word,
            Item::Member(m) => m.kind.word,
            Item::Section(_) | Item::Extension | Item::Inactive(_) => SeamWord::Extension,
            Item::Validator(_) => SeamWord::Validator,
        }
    }
}

impl fmt::Debug for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word().as_str())
    }
}

/// A customizer with the kind of config it folds into.
pub struct CustomizerItem {
    pub(crate) target: CustomizerTarget,
    /// Only the handler with this identity, when set.
    pub(crate) only: Option<String>,
}

impl fmt::Debug for CustomizerItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CustomizerItem")
            .field("kind", &self.target.kind())
            .field("only", &self.only)
            .finish()
    }
}

/// The config a customizer folds into.
#[derive(Clone)]
pub(crate) enum CustomizerTarget {
    Tool(Arc<dyn HandlerCustomizer<Tool>>),
    Prompt(Arc<dyn HandlerCustomizer<Prompt>>),
    Resource(Arc<dyn HandlerCustomizer<Resource>>),
    ResourceTemplate(Arc<dyn HandlerCustomizer<ResourceTemplate>>),
    Method(Arc<dyn HandlerCustomizer<MethodDescriptor>>),
    Capabilities(Arc<dyn ServerCapabilitiesCustomizer>),
}

impl CustomizerTarget {
    /// What it customizes, as the boot report says it.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            CustomizerTarget::Tool(_) => "call-tool customizer",
            CustomizerTarget::Prompt(_) => "get-prompt customizer",
            CustomizerTarget::Resource(_) => "read-resource customizer",
            CustomizerTarget::ResourceTemplate(_) => "read-resource-template customizer",
            CustomizerTarget::Method(_) => "method customizer",
            CustomizerTarget::Capabilities(_) => "server-capabilities customizer",
        }
    }
}

/// A typed interceptor with its method kept for boot to match.
pub struct TypedInterceptorItem {
    pub(crate) method: &'static str,
    pub(crate) method_type: TypeId,
    pub(crate) interceptor: Box<dyn Any + Send + Sync>,
}

impl fmt::Debug for TypedInterceptorItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedInterceptorItem")
            .field("method", &self.method)
            .finish_non_exhaustive()
    }
}

impl TypedInterceptorItem {
    /// Wraps an interceptor for method `M`.
    pub fn new<M: Method>(interceptor: Arc<dyn TypedInterceptor<M>>) -> Self {
        Self {
            method: M::NAME,
            method_type: TypeId::of::<M>(),
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
