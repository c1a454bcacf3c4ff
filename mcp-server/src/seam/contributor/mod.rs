//! Contributors: run once at boot and return values — tools, prompts,
//! resources, resource templates, completions and whole JSON-RPC methods.
//!
//! The framework unions every contribution. Any collision (two tools with one
//! name, a method contributed twice or clashing with a built-in) fails boot
//! with both parties named.
//!
//! ```
//! use mcp_server::seam::contributor::{Contributions, Contributor};
//! use mcp_server::handler::handler_fn;
//! use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
//!
//! struct Weather;
//! impl Contributor for Weather {
//!     fn contribute(&self, into: &mut Contributions<'_>) {
//!         let tool = Tool { name: "forecast".into(), input_schema: Default::default(), ..Default::default() };
//!         into.tool(tool, handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("sunny")) }));
//!     }
//! }
//! ```

pub mod catalog;
pub mod health;

use crate::vocabulary::TargetKind;
use std::fmt;
use std::sync::Arc;

use mcp_core::completion::Complete;
use mcp_core::method::Method;
use mcp_core::prompts::{GetPrompt, Prompt};
use mcp_core::resources::{ReadResource, Resource, ResourceTemplate};
use mcp_core::tools::{CallTool, Tool};

use crate::dispatch::{ErasedMethod, MethodEntry};
use crate::handler::Handler;
use crate::handler::notification::{ErasedNotification, NotificationEntry, NotificationHandler};
use crate::vocabulary::registration::Item;
use crate::vocabulary::seam::{Kind, SeamWord};
use crate::vocabulary::{BootContext, Origin};
use mcp_core::method::NotificationMethod;

/// Contributes values at boot.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a contributor",
    note = "implement `mcp_server::seam::contributor::Contributor` and register it (the `#[contributor]` attribute does both)"
)]
pub trait Contributor: Send + Sync + 'static {
    /// Adds this contributor's values; `into.boot()` has the configuration,
    /// the selected seams and shared state.
    fn contribute(&self, into: &mut Contributions<'_>);
}

/// What a completion completes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CompletionRef {
    /// An argument of the prompt with this name.
    Prompt(String),
    /// A variable of the resource template with this URI template.
    ResourceTemplate(String),
    /// One argument of one prompt; preferred to a [`Prompt`](Self::Prompt)
    /// completion of the same prompt.
    PromptArgument {
        /// The prompt's name.
        prompt: String,
        /// The argument's name.
        argument: String,
    },
    /// One variable of one resource template; preferred to a
    /// [`ResourceTemplate`](Self::ResourceTemplate) completion of the same template.
    TemplateVariable {
        /// The URI template.
        uri_template: String,
        /// The variable's name.
        variable: String,
    },
}

impl CompletionRef {
    /// What it completes: the kind and identity of the prompt or template,
    /// and the one argument or variable, if it names one.
    pub(crate) fn completes(&self) -> (TargetKind, &str, Option<&str>) {
        match self {
            CompletionRef::Prompt(name) => (TargetKind::Prompt, name, None),
            CompletionRef::ResourceTemplate(uri) => (TargetKind::ResourceTemplate, uri, None),
            CompletionRef::PromptArgument { prompt, argument } => {
                (TargetKind::Prompt, prompt, Some(argument))
            }
            CompletionRef::TemplateVariable {
                uri_template,
                variable,
            } => (TargetKind::ResourceTemplate, uri_template, Some(variable)),
        }
    }
}

impl fmt::Display for CompletionRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompletionRef::Prompt(name) => write!(f, "prompt `{name}`"),
            CompletionRef::ResourceTemplate(uri) => write!(f, "resource template `{uri}`"),
            CompletionRef::PromptArgument { prompt, argument } => {
                write!(f, "prompt `{prompt}` argument `{argument}`")
            }
            CompletionRef::TemplateVariable {
                uri_template,
                variable,
            } => write!(
                f,
                "resource template `{uri_template}` variable `{variable}`"
            ),
        }
    }
}

/// One contributed value with the origin it came from.
pub(crate) struct Contributed<T> {
    pub(crate) value: T,
    pub(crate) origin: Origin,
}

/// A contributed descriptor with the handler of method `M`.
pub(crate) type WithHandler<D, M> = Contributed<(D, Arc<dyn Handler<M>>)>;

/// The values contributors add, each with its origin.
pub struct Contributions<'b> {
    origin: Origin,
    boot: &'b BootContext,
    pub(crate) tools: Vec<WithHandler<Tool, CallTool>>,
    pub(crate) prompts: Vec<WithHandler<Prompt, GetPrompt>>,
    pub(crate) resources: Vec<WithHandler<Resource, ReadResource>>,
    pub(crate) templates: Vec<WithHandler<ResourceTemplate, ReadResource>>,
    pub(crate) completions: Vec<WithHandler<CompletionRef, Complete>>,
    pub(crate) methods: Vec<Contributed<Arc<dyn ErasedMethod>>>,
    pub(crate) notifications: Vec<Contributed<Arc<dyn ErasedNotification>>>,
    /// The kinds served whether boot assembles members of them or not.
    pub(crate) served: std::collections::BTreeSet<TargetKind>,
}

impl fmt::Debug for Contributions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Contributions")
            .field("origin", &self.origin)
            .field("tools", &self.tools.len())
            .field("prompts", &self.prompts.len())
            .field("resources", &self.resources.len())
            .field("templates", &self.templates.len())
            .field("completions", &self.completions.len())
            .field("methods", &self.methods.len())
            .finish()
    }
}

impl<'b> Contributions<'b> {
    pub(crate) fn new(origin: Origin, boot: &'b BootContext) -> Self {
        Self {
            origin,
            boot,
            tools: Vec::new(),
            prompts: Vec::new(),
            resources: Vec::new(),
            templates: Vec::new(),
            completions: Vec::new(),
            methods: Vec::new(),
            notifications: Vec::new(),
            served: std::collections::BTreeSet::new(),
        }
    }

    /// What boot knows: configuration, selected seams, shared state, the
    /// members of registration kinds.
    pub fn boot(&self) -> &'b BootContext {
        self.boot
    }

    /// The origin recorded for the values added now: the contributor's
    /// own, or the last one [`at`](Self::at) set.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// Sets the origin recorded for the values added after this call
    /// (by default, the contributor's own).
    pub fn at(&mut self, origin: Origin) -> &mut Self {
        self.origin = origin;
        self
    }

    /// Declares that the server serves members of `kind` though boot may
    /// assemble none: its methods are routed and its capability advertised,
    /// so that the runtime catalog can add the first of them later (a
    /// crate that serves what it finds on disk, say). A resource template
    /// counts as a resource; completions and methods are not served empty.
    ///
    /// ```
    /// use mcp_server::seam::TargetKind;
    /// use mcp_server::seam::contributor::contributor_fn;
    ///
    /// let server = mcp_server::Server::builder()
    ///     .without_linked()
    ///     .contributor(mcp_server::origin!(), "docs", contributor_fn(|c| {
    ///         c.serve(TargetKind::Resource);
    ///     }))
    ///     .build();
    /// assert!(server.resources().is_empty());
    /// # let discovered = serde_json::to_value(server.capabilities()).unwrap();
    /// # assert!(discovered["resources"].is_object());
    /// ```
    pub fn serve(&mut self, kind: TargetKind) -> &mut Self {
        match kind {
            TargetKind::Tool | TargetKind::Prompt | TargetKind::Resource => {
                self.served.insert(kind);
            }
            TargetKind::ResourceTemplate => {
                self.served.insert(TargetKind::Resource);
            }
            // Served once something is contributed: nothing to declare.
            TargetKind::Completion | TargetKind::Method => {}
        }
        self
    }

    /// Adds a tool.
    pub fn tool(&mut self, tool: Tool, handler: impl Handler<CallTool>) -> &mut Self {
        self.tool_shared(tool, Arc::new(handler))
    }

    /// Adds a tool whose handler is shared.
    pub fn tool_shared(&mut self, tool: Tool, handler: Arc<dyn Handler<CallTool>>) -> &mut Self {
        let origin = self.origin;
        self.tools.push(Contributed {
            value: (tool, handler),
            origin,
        });
        self
    }

    /// Adds a prompt.
    pub fn prompt(&mut self, prompt: Prompt, handler: impl Handler<GetPrompt>) -> &mut Self {
        let origin = self.origin;
        self.prompts.push(Contributed {
            value: (prompt, Arc::new(handler)),
            origin,
        });
        self
    }

    /// Adds a resource with a fixed URI.
    pub fn resource(
        &mut self,
        resource: Resource,
        handler: impl Handler<ReadResource>,
    ) -> &mut Self {
        let origin = self.origin;
        self.resources.push(Contributed {
            value: (resource, Arc::new(handler)),
            origin,
        });
        self
    }

    /// Adds a resource template; its handler reads every URI the template matches.
    pub fn resource_template(
        &mut self,
        template: ResourceTemplate,
        handler: impl Handler<ReadResource>,
    ) -> &mut Self {
        let origin = self.origin;
        self.templates.push(Contributed {
            value: (template, Arc::new(handler)),
            origin,
        });
        self
    }

    /// Adds completions for a prompt argument or a template variable.
    pub fn completion(
        &mut self,
        reference: CompletionRef,
        handler: impl Handler<Complete>,
    ) -> &mut Self {
        let origin = self.origin;
        self.completions.push(Contributed {
            value: (reference, Arc::new(handler)),
            origin,
        });
        self
    }

    /// Adds a JSON-RPC method with its handler; it gets the same pipeline as
    /// the built-in methods (raw, typed and handler-chain interceptors, guards).
    pub fn method<M: Method>(&mut self, handler: impl Handler<M>) -> &mut Self {
        let origin = self.origin;
        let entry: Arc<dyn ErasedMethod> = Arc::new(MethodEntry::<M>::new(Arc::new(handler)));
        self.methods.push(Contributed {
            value: entry,
            origin,
        });
        self
    }

    /// Adds a handler for client notification `N`, an extension's own: it
    /// runs after the raw interceptors admit the notification. Its name
    /// shares one namespace with every request method: a name already
    /// taken by a built-in request or notification, a contributed method
    /// or another contributed notification fails boot, naming both.
    pub fn notification<N: NotificationMethod>(
        &mut self,
        handler: impl NotificationHandler<N>,
    ) -> &mut Self {
        let origin = self.origin;
        let entry: Arc<dyn ErasedNotification> = Arc::new(NotificationEntry::<N, _> {
            handler,
            notification: std::marker::PhantomData,
        });
        self.notifications.push(Contributed {
            value: entry,
            origin,
        });
        self
    }
}

/// A contributor made from a closure; see [`contributor_fn`].
pub struct ContributorFn<F>(F);

impl<F> fmt::Debug for ContributorFn<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ContributorFn")
    }
}

/// A contributor that runs `f` at boot.
pub fn contributor_fn<F>(f: F) -> ContributorFn<F>
where
    F: Fn(&mut Contributions<'_>) + Send + Sync + 'static,
{
    ContributorFn(f)
}

impl<F> Contributor for ContributorFn<F>
where
    F: Fn(&mut Contributions<'_>) + Send + Sync + 'static,
{
    fn contribute(&self, into: &mut Contributions<'_>) {
        (self.0)(into)
    }
}

/// The kind of contributors: every one runs once at boot, and what they
/// contribute is unioned.
#[derive(Debug)]
pub struct Contributors;

impl Kind for Contributors {
    type Member = Arc<dyn Contributor>;
    const NAME: &'static str = "contributor";
    const CODE: &'static str = "mcp::duplicate_contributor";
    const WORD: SeamWord = SeamWord::Contributor;
    const UNIQUE: bool = false;
    const ORDERED: bool = false;
    fn key(_: &Self::Member) -> String {
        String::new()
    }
}

impl Item {
    /// A contributor ([`Contributors`]).
    pub fn contributor(contributor: impl Contributor) -> Self {
        Self::member::<Contributors>(Arc::new(contributor))
    }
}
