//! Customizers: run once per target at boot and fold into a framework-owned
//! config — a handler's descriptor, guards and handler-chain interceptors, or
//! the server's capabilities.
//!
//! Customizers are folded in a deterministic order (order, then name, then
//! origin). A customizer may change a descriptor's metadata (title,
//! description, `_meta`) but not its identity (a tool's name and schemas, a
//! prompt's name, a resource's URI, a template's URI template): boot checks
//! after each customizer and fails naming it.
//!
//! | kind | config | identity |
//! |---|---|---|
//! | call-tool | `HandlerConfig<Tool>` | `name`, `inputSchema`, `outputSchema` |
//! | get-prompt | `HandlerConfig<Prompt>` | `name` |
//! | read-resource | `HandlerConfig<Resource>` | `uri` |
//! | read-resource-template | `HandlerConfig<ResourceTemplate>` | `uriTemplate` |
//! | contributed method | `HandlerConfig<MethodDescriptor>` | `name` |
//!
//! ```
//! use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
//! use mcp_server::core::tools::Tool;
//!
//! /// Prefixes every tool description.
//! struct Branding;
//! impl HandlerCustomizer<Tool> for Branding {
//!     fn customize(&self, config: &mut HandlerConfig<'_, Tool>) {
//!         let tool = config.descriptor_mut();
//!         tool.description = Some(format!("[acme] {}", tool.description.as_deref().unwrap_or("")));
//!     }
//! }
//! ```

use std::fmt;
use std::sync::Arc;

use mcp_core::capabilities::ServerCapabilities;
use mcp_core::meta::Meta;
use mcp_core::prompts::Prompt;
use mcp_core::resources::{Resource, ResourceTemplate};
use mcp_core::tools::Tool;
use mcp_core::version::Era;
use serde::Serialize;

use crate::seam::guard::Guard;
use crate::seam::interceptor::{HandlerInterceptor, Stratum};
use crate::vocabulary::registration::Item;
use crate::vocabulary::seam::{Kind, SeamWord};
use crate::vocabulary::{BootContext, Origin, TargetKind};

/// Customizes the handler config of every target of kind `D`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a customizer of `{D}` handlers",
    note = "implement `mcp_server::seam::customizer::HandlerCustomizer<{D}>` and register it (the `#[customizer]` attribute on the `impl` block does both)"
)]
pub trait HandlerCustomizer<D>: Send + Sync + 'static {
    /// Folds this customizer into one handler's config.
    fn customize(&self, config: &mut HandlerConfig<'_, D>);
}

/// Attaches one guard to every handler of the kinds it is registered for:
/// a [`HandlerCustomizer`] of any descriptor kind whose `customize` adds the
/// guard to the handler's config (what `#[guard]` registers, once per kind).
///
/// ```
/// use mcp_server::seam::customizer::{GuardAttacher, HandlerCustomizer};
/// use mcp_server::core::tools::Tool;
/// use mcp_server::seam::guard::{Decision, guard_fn};
///
/// let attacher = GuardAttacher::new(guard_fn("nobody", |_, _| Decision::deny("closed")));
/// fn is_tool_customizer(_: &impl HandlerCustomizer<Tool>) {}
/// is_tool_customizer(&attacher);
/// ```
pub struct GuardAttacher<G> {
    guard: Arc<G>,
}

impl<G: Guard> fmt::Debug for GuardAttacher<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GuardAttacher")
            .field("guard", &self.guard.name())
            .finish()
    }
}

impl<G: Guard> GuardAttacher<G> {
    /// Attaches `guard`; every handler it customizes shares the one instance.
    pub fn new(guard: G) -> Self {
        Self {
            guard: Arc::new(guard),
        }
    }
}

impl<D, G: Guard> HandlerCustomizer<D> for GuardAttacher<G> {
    fn customize(&self, config: &mut HandlerConfig<'_, D>) {
        config.guards.push(self.guard.clone());
    }
}

/// Customizes the server's capabilities (extensions advertise themselves here).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a server-capabilities customizer",
    note = "implement `mcp_server::seam::customizer::ServerCapabilitiesCustomizer` and register it (the `#[customizer]` attribute on the `impl` block does both)"
)]
pub trait ServerCapabilitiesCustomizer: Send + Sync + 'static {
    /// Edits the capabilities; `boot` has the configuration and selected seams.
    fn customize(&self, capabilities: &mut ServerCapabilities, boot: &BootContext);

    /// Edits the capabilities of one era only, after every customizer's
    /// [`customize`](Self::customize): what `initialize` answers
    /// ([`Era::Legacy`]) or what `server/discover` advertises
    /// ([`Era::Modern`]), for a feature whose negotiation differs between
    /// them. Does nothing unless overridden.
    fn customize_era(&self, era: Era, capabilities: &mut ServerCapabilities, boot: &BootContext) {
        let _ = (era, capabilities, boot);
    }
}

/// The descriptor of a contributed JSON-RPC method.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MethodDescriptor {
    /// The wire name.
    pub name: String,
}

/// An interceptor a customizer attached, with its place in the chain.
#[derive(Clone)]
pub(crate) struct Attached {
    pub(crate) stratum: Stratum,
    pub(crate) order: i32,
    pub(crate) name: String,
    pub(crate) interceptor: Arc<dyn HandlerInterceptor>,
    pub(crate) origin: Origin,
}

/// One handler's config while customizers fold into it.
pub struct HandlerConfig<'b, D> {
    descriptor: D,
    origin: Origin,
    boot: &'b BootContext,
    pub(crate) guards: Vec<Arc<dyn Guard>>,
    pub(crate) interceptors: Vec<Attached>,
    pub(crate) current: Origin,
    listed: bool,
}

impl<D: fmt::Debug> fmt::Debug for HandlerConfig<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HandlerConfig")
            .field("descriptor", &self.descriptor)
            .field("origin", &self.origin)
            .field("guards", &self.guards.len())
            .field("interceptors", &self.interceptors.len())
            .field("listed", &self.listed)
            .finish()
    }
}

impl<'b, D> HandlerConfig<'b, D> {
    pub(crate) fn new(descriptor: D, origin: Origin, boot: &'b BootContext) -> Self {
        Self {
            descriptor,
            origin,
            boot,
            guards: Vec::new(),
            interceptors: Vec::new(),
            current: origin,
            listed: true,
        }
    }

    /// What boot knows: configuration, selected seams, shared state.
    pub fn boot(&self) -> &'b BootContext {
        self.boot
    }

    /// The descriptor as customizers left it so far.
    pub fn descriptor(&self) -> &D {
        &self.descriptor
    }

    /// The descriptor, to edit its metadata (not its identity).
    pub fn descriptor_mut(&mut self) -> &mut D {
        &mut self.descriptor
    }

    /// Replaces the descriptor; the replacement must keep the identity.
    pub fn set_descriptor(&mut self, descriptor: D) {
        self.descriptor = descriptor;
    }

    /// Where the handler was registered.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// Adds a guard, evaluated at the start of the `AUTHORIZATION` stratum.
    pub fn add_guard(&mut self, guard: impl Guard) -> &mut Self {
        self.guards.push(Arc::new(guard));
        self
    }

    /// Adds an interceptor in `stratum`, at `order` among that stratum's members.
    pub fn add_interceptor(
        &mut self,
        stratum: Stratum,
        order: i32,
        name: impl Into<String>,
        interceptor: impl HandlerInterceptor,
    ) -> &mut Self {
        let origin = self.current;
        self.interceptors.push(Attached {
            stratum,
            order,
            name: name.into(),
            interceptor: Arc::new(interceptor),
            origin,
        });
        self
    }

    /// Keeps the handler out of its list (`tools/list`, `prompts/list`,
    /// `resources/list`, `resources/templates/list`) while it stays
    /// callable, under its guards, by a client that learns its name
    /// elsewhere: a resource only a tool's metadata points at, for one.
    ///
    /// ```
    /// use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
    /// use mcp_server::core::resources::Resource;
    ///
    /// /// Keeps `internal://` resources out of `resources/list`.
    /// struct Unlisted;
    /// impl HandlerCustomizer<Resource> for Unlisted {
    ///     fn customize(&self, config: &mut HandlerConfig<'_, Resource>) {
    ///         if config.descriptor().uri.starts_with("internal://") {
    ///             config.unlist();
    ///         }
    ///     }
    /// }
    /// ```
    pub fn unlist(&mut self) -> &mut Self {
        self.listed = false;
        self
    }

    /// Whether the handler appears in its list (see [`unlist`](Self::unlist)).
    pub fn is_listed(&self) -> bool {
        self.listed
    }

    pub(crate) fn into_parts(self) -> (D, Vec<Arc<dyn Guard>>, Vec<Attached>) {
        (self.descriptor, self.guards, self.interceptors)
    }
}

/// A descriptor customizers fold into (`Tool`, `Prompt`, `Resource`,
/// `ResourceTemplate`, `MethodDescriptor`): its kind, identity and `_meta`.
pub trait Descriptor: Clone + Send + Sync + 'static {
    /// The kind of target it describes.
    const KIND: TargetKind;
    /// What its customizers are called in the boot report (`call-tool customizer`).
    const CUSTOMIZER: &'static str;
    /// The identifying name (tool or prompt name, URI, URI template, method name).
    fn key(&self) -> &str;
    /// The `_meta` guards and interceptors may read.
    fn meta(&self) -> Option<&Meta>;
    /// The identity fields, named, as JSON text for comparison and messages.
    fn identity(&self) -> Vec<(&'static str, String)>;
}

fn text<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

impl Descriptor for Tool {
    const KIND: TargetKind = TargetKind::Tool;
    const CUSTOMIZER: &'static str = "call-tool customizer";
    fn key(&self) -> &str {
        &self.name
    }
    fn meta(&self) -> Option<&Meta> {
        self.meta.as_ref()
    }
    fn identity(&self) -> Vec<(&'static str, String)> {
        vec![
            ("name", self.name.clone()),
            ("inputSchema", text(&self.input_schema)),
            ("outputSchema", text(&self.output_schema)),
        ]
    }
}

/// Implements [`Descriptor`] for a descriptor identified by one string member.
macro_rules! descriptor {
    ($ty:ty, $kind:expr, $customizer:literal, $field:ident, $wire:literal) => {
        impl Descriptor for $ty {
            const KIND: TargetKind = $kind;
            const CUSTOMIZER: &'static str = $customizer;
            fn key(&self) -> &str {
                &self.$field
            }
            fn meta(&self) -> Option<&Meta> {
                self.meta.as_ref()
            }
            fn identity(&self) -> Vec<(&'static str, String)> {
                vec![($wire, self.$field.clone())]
            }
        }
    };
}

descriptor!(
    Prompt,
    TargetKind::Prompt,
    "get-prompt customizer",
    name,
    "name"
);
descriptor!(
    Resource,
    TargetKind::Resource,
    "read-resource customizer",
    uri,
    "uri"
);
descriptor!(
    ResourceTemplate,
    TargetKind::ResourceTemplate,
    "read-resource-template customizer",
    uri_template,
    "uriTemplate"
);

impl Descriptor for MethodDescriptor {
    const KIND: TargetKind = TargetKind::Method;
    const CUSTOMIZER: &'static str = "method customizer";
    fn key(&self) -> &str {
        &self.name
    }
    fn meta(&self) -> Option<&Meta> {
        None
    }
    fn identity(&self) -> Vec<(&'static str, String)> {
        vec![("name", self.name.clone())]
    }
}

/// A handler customizer of descriptor kind `D`, for every handler of the
/// kind or only the one whose identity is `only`: a member of
/// [`Customizers<D>`].
pub struct Customizing<D> {
    /// Only the handler with this identity, when set.
    pub only: Option<String>,
    /// The customizer.
    pub customizer: Arc<dyn HandlerCustomizer<D>>,
}

impl<D: Descriptor> fmt::Debug for Customizing<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Customizing")
            .field("kind", &D::CUSTOMIZER)
            .field("only", &self.only)
            .finish_non_exhaustive()
    }
}

/// The kind of handler customizers of descriptor kind `D`: folded into each
/// handler of the kind in (order, registration name, origin) order.
#[derive(Debug)]
pub struct Customizers<D>(std::marker::PhantomData<fn() -> D>);

impl<D: Descriptor> Kind for Customizers<D> {
    type Member = Customizing<D>;
    const NAME: &'static str = D::CUSTOMIZER;
    const CODE: &'static str = "mcp::duplicate_customizer";
    const WORD: SeamWord = SeamWord::Customizer;
    const UNIQUE: bool = false;
    fn key(member: &Customizing<D>) -> String {
        member.only.clone().unwrap_or_default()
    }
    fn describe(member: &Customizing<D>) -> String {
        match &member.only {
            Some(only) => format!("{} of `{only}`", D::CUSTOMIZER),
            None => D::CUSTOMIZER.to_owned(),
        }
    }
}

/// The kind of server-capabilities customizers, applied in (order,
/// registration name, origin) order.
#[derive(Debug)]
pub struct CapabilitiesCustomizers;

impl Kind for CapabilitiesCustomizers {
    type Member = Arc<dyn ServerCapabilitiesCustomizer>;
    const NAME: &'static str = "server-capabilities customizer";
    const CODE: &'static str = "mcp::duplicate_capabilities_customizer";
    const WORD: SeamWord = SeamWord::Customizer;
    const UNIQUE: bool = false;
    fn key(_: &Self::Member) -> String {
        String::new()
    }
}

impl Item {
    /// A customizer of every handler config of kind `D` (`Tool`, `Prompt`,
    /// `Resource`, `ResourceTemplate`, `MethodDescriptor`).
    pub fn customizer<D: Descriptor>(customizer: impl HandlerCustomizer<D>) -> Self {
        Self::member::<Customizers<D>>(Customizing {
            only: None,
            customizer: Arc::new(customizer),
        })
    }

    /// A customizer of the one handler of kind `D` whose identity (tool or
    /// prompt name, URI, URI template, method name) is `name`, resolved at
    /// boot; naming nothing fails boot.
    pub fn customizer_for<D: Descriptor>(
        name: impl Into<String>,
        customizer: impl HandlerCustomizer<D>,
    ) -> Self {
        Self::member::<Customizers<D>>(Customizing {
            only: Some(name.into()),
            customizer: Arc::new(customizer),
        })
    }

    /// A customizer of the server's capabilities ([`CapabilitiesCustomizers`]).
    pub fn capabilities(customizer: impl ServerCapabilitiesCustomizer) -> Self {
        Self::member::<CapabilitiesCustomizers>(Arc::new(customizer))
    }
}

/// Grant customizers fold into what one `subscriptions/listen` stream is
/// granted; they live beside the listen machinery in [`crate::seam::sink`].
pub use crate::seam::sink::{GrantCustomizer, GrantCustomizers};
