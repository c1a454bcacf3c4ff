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
//! use mcp_server::customizer::{HandlerConfig, HandlerCustomizer};
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

use crate::boot::BootContext;
use crate::guard::Guard;
use crate::interceptor::{HandlerInterceptor, Stratum};
use crate::origin::Origin;
use crate::registry::CustomizerTarget;
use crate::target::TargetKind;

/// Customizes the handler config of every target of kind `D`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a customizer of `{D}` handlers",
    note = "implement `mcp_server::customizer::HandlerCustomizer<{D}>` and register it (the `#[customizer]` attribute on the `impl` block does both)"
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
/// use mcp_server::customizer::{GuardAttacher, HandlerCustomizer};
/// use mcp_server::core::tools::Tool;
/// use mcp_server::guard::{Decision, guard_fn};
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
    note = "implement `mcp_server::customizer::ServerCapabilitiesCustomizer` and register it (the `#[customizer]` attribute on the `impl` block does both)"
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
    /// use mcp_server::customizer::{HandlerConfig, HandlerCustomizer};
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
    /// The identifying name (tool or prompt name, URI, URI template, method name).
    fn key(&self) -> &str;
    /// The `_meta` guards and interceptors may read.
    fn meta(&self) -> Option<&Meta>;
    /// The identity fields, named, as JSON text for comparison and messages.
    fn identity(&self) -> Vec<(&'static str, String)>;
    /// The customizer, with this kind erased, for a registry item.
    #[doc(hidden)]
    fn wrap(customizer: Arc<dyn HandlerCustomizer<Self>>) -> ErasedCustomizer;
}

/// A handler customizer of some descriptor kind, with the kind erased.
pub struct ErasedCustomizer(pub(crate) CustomizerTarget);

impl fmt::Debug for ErasedCustomizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.kind())
    }
}

fn text<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

impl Descriptor for Tool {
    const KIND: TargetKind = TargetKind::Tool;
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
    fn wrap(customizer: Arc<dyn HandlerCustomizer<Self>>) -> ErasedCustomizer {
        ErasedCustomizer(CustomizerTarget::Tool(customizer))
    }
}

/// Implements [`Descriptor`] for a descriptor identified by one string member.
macro_rules! descriptor {
    ($ty:ty, $kind:expr, $variant:ident, $field:ident, $wire:literal) => {
        impl Descriptor for $ty {
            const KIND: TargetKind = $kind;
            fn key(&self) -> &str {
                &self.$field
            }
            fn meta(&self) -> Option<&Meta> {
                self.meta.as_ref()
            }
            fn identity(&self) -> Vec<(&'static str, String)> {
                vec![($wire, self.$field.clone())]
            }
            fn wrap(customizer: Arc<dyn HandlerCustomizer<Self>>) -> ErasedCustomizer {
                ErasedCustomizer(CustomizerTarget::$variant(customizer))
            }
        }
    };
}

descriptor!(Prompt, TargetKind::Prompt, Prompt, name, "name");
descriptor!(Resource, TargetKind::Resource, Resource, uri, "uri");
descriptor!(
    ResourceTemplate,
    TargetKind::ResourceTemplate,
    ResourceTemplate,
    uri_template,
    "uriTemplate"
);

impl Descriptor for MethodDescriptor {
    const KIND: TargetKind = TargetKind::Method;
    fn key(&self) -> &str {
        &self.name
    }
    fn meta(&self) -> Option<&Meta> {
        None
    }
    fn identity(&self) -> Vec<(&'static str, String)> {
        vec![("name", self.name.clone())]
    }
    fn wrap(customizer: Arc<dyn HandlerCustomizer<Self>>) -> ErasedCustomizer {
        ErasedCustomizer(CustomizerTarget::Method(customizer))
    }
}
