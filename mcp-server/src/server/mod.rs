//! The frozen server: one immutable, cheaply clonable value; serving a
//! request is a lookup and a walk down its chain. A transport hands it each
//! decoded message with its [`Peer`]: the server admits it once
//! ([`Server::admit`]), serves it ([`Server::serve`]), and gives back the
//! [`Outcome`] to send.

mod admission;
mod health;
mod mirror;
mod outcome;
mod peer;
pub(crate) mod report;
mod serve;
pub(crate) mod splice;

pub use crate::boot::{Builder, DEFAULT_ENV_PREFIX};
pub use crate::vocabulary::{Drained, Held, Recording, Shutdown};
pub use admission::{Admitted, Refusal};
pub use health::Health;
pub use mirror::Headers;
pub use outcome::{Outcome, encode_error};
pub use peer::{Peer, Seed};
pub use report::{BootReport, ExtensionReport, HandlerReport, MethodReport, Registered};

use std::borrow::Cow;
use std::fmt;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Weak};

use futures_util::FutureExt;
use mcp_core::capabilities::ServerCapabilities;
use mcp_core::content::Implementation;
use mcp_core::error::ErrorObject;
use mcp_core::prompts::Prompt;
use mcp_core::resources::{Resource, ResourceTemplate};
use mcp_core::tools::Tool;
use mcp_core::version::Era;

use crate::context::runtime::Runtime;
use crate::dispatch::dynamic::{Dynamic, Snapshot};
use crate::dispatch::rounds::Rounds;
use crate::dispatch::{ListItems, Routes, every};
use crate::handler::tool::ParamHeader;
use crate::seam::interceptor::RawInterceptor;
use crate::seam::sink::{Change, ChangeSink};
use crate::seam::source::{Authentication, PrincipalSource};
use crate::seam::store::{EventStore, SessionStore};
use crate::seam::strategy::KeyStrategy;
use crate::vocabulary::auth::Credentials;
use crate::vocabulary::seam::{Kind, OneActive};

/// An assembled MCP server. Clones share it.
#[derive(Clone)]
pub struct Server {
    inner: Arc<ServerInner>,
    /// A version of the runtime catalog not yet current: what validators
    /// inspect before a change applies.
    draft: Option<Arc<Snapshot>>,
}

pub(crate) struct ServerInner {
    pub(crate) info: Implementation,
    /// What `server/discover` advertises.
    pub(crate) capabilities: ServerCapabilities,
    /// What `initialize` answers, before a session adds its own.
    pub(crate) legacy_capabilities: ServerCapabilities,
    pub(crate) instructions: Option<String>,
    pub(crate) routes: Routes,
    pub(crate) raw: Arc<[Arc<dyn RawInterceptor>]>,
    /// The client notifications extensions handle, by name.
    pub(crate) notifications: std::collections::HashMap<
        &'static str,
        Arc<dyn crate::handler::notification::ErasedNotification>,
    >,
    /// The active principal source, looked up once at boot.
    pub(crate) principal_source: Arc<dyn PrincipalSource>,
    pub(crate) runtime: Arc<Runtime>,
    /// What was assembled, as listed (customizers folded).
    pub(crate) catalogue: Catalogue,
    /// What changes while the server serves.
    pub(crate) catalog: crate::catalog::Catalog,
    /// The runtime catalog's current members.
    pub(crate) dynamic: Arc<Dynamic>,
    /// By tool: the arguments mirrored in `Mcp-Param-*` headers.
    pub(crate) param_headers: std::collections::HashMap<String, Vec<ParamHeader>>,
    /// `"_meta":{"io.modelcontextprotocol/serverInfo":…}`, for results without `_meta`.
    pub(crate) server_info_member: String,
    /// `"io.modelcontextprotocol/serverInfo":…`, for results with a `_meta`.
    pub(crate) server_info_entry: String,
    pub(crate) report: BootReport,
    /// Keys, used-state records and expiry of multi round-trip requests.
    pub(crate) rounds: Rounds,
}

/// Every descriptor the server serves, as customizers left it: the very
/// catalogs its lists page over.
#[derive(Default)]
pub(crate) struct Catalogue {
    pub(crate) tools: Option<Arc<ListItems<Tool>>>,
    pub(crate) prompts: Option<Arc<ListItems<Prompt>>>,
    pub(crate) resources: Option<Arc<ListItems<Resource>>>,
    pub(crate) templates: Option<Arc<ListItems<ResourceTemplate>>>,
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("info", &self.inner.info)
            .finish_non_exhaustive()
    }
}

impl Server {
    pub(crate) fn new(inner: ServerInner) -> Self {
        Self {
            inner: Arc::new(inner),
            draft: None,
        }
    }

    /// What a change to the runtime catalog holds on to: the server, not
    /// kept alive by it.
    pub(crate) fn downgrade(&self) -> Weak<ServerInner> {
        Arc::downgrade(&self.inner)
    }

    /// The server as it would be with `draft` as its runtime catalog.
    pub(crate) fn drafting(inner: Arc<ServerInner>, draft: Arc<Snapshot>) -> Self {
        Self {
            inner,
            draft: Some(draft),
        }
    }

    /// The runtime catalog's members this view of the server serves.
    fn snapshot(&self) -> Arc<Snapshot> {
        match &self.draft {
            Some(draft) => draft.clone(),
            None => self.inner.dynamic.load(),
        }
    }

    /// The server's identity.
    pub fn info(&self) -> &Implementation {
        &self.inner.info
    }

    /// The server's capabilities, as `server/discover` advertises them (2026-07-28).
    pub fn capabilities(&self) -> &ServerCapabilities {
        &self.inner.capabilities
    }

    /// The server's capabilities in one era: for [`Era::Legacy`], what
    /// `initialize` answers before a session adds log levels,
    /// list-change notifications and resource subscriptions.
    pub fn capabilities_in(&self, era: Era) -> &ServerCapabilities {
        match era {
            Era::Modern => &self.inner.capabilities,
            Era::Legacy => &self.inner.legacy_capabilities,
        }
    }

    /// The instructions for the model, if any.
    pub fn instructions(&self) -> Option<&str> {
        self.inner.instructions.as_deref()
    }

    /// What boot assembled.
    pub fn report(&self) -> &BootReport {
        &self.inner.report
    }

    /// The extensions declared by the crates this server was built with,
    /// sorted by identifier, each with its requirements (all met) and its
    /// members: known before the server handles any message.
    pub fn extensions(&self) -> &[ExtensionReport] {
        &self.inner.report.extensions
    }

    /// Whether extension `id` (an identifier, or the name of the crate that
    /// declares it) is declared.
    pub fn has_extension(&self, id: &str) -> bool {
        self.extensions()
            .iter()
            .any(|e| e.id == id || e.origin.crate_name == id)
    }

    /// Every tool, of boot and of the runtime catalog, in list order, as
    /// customizers left it (unlisted ones too).
    pub fn tools(&self) -> Vec<Tool> {
        every(self.inner.catalogue.tools.as_ref(), &self.snapshot())
    }

    /// Every prompt, of boot and of the runtime catalog, in list order, as
    /// customizers left it (unlisted ones too).
    pub fn prompts(&self) -> Vec<Prompt> {
        every(self.inner.catalogue.prompts.as_ref(), &self.snapshot())
    }

    /// Every resource with a fixed URI, of boot and of the runtime catalog,
    /// in list order, as customizers left it (unlisted ones too).
    pub fn resources(&self) -> Vec<Resource> {
        every(self.inner.catalogue.resources.as_ref(), &self.snapshot())
    }

    /// Every resource template, of boot and of the runtime catalog, in list
    /// order, as customizers left it (unlisted ones too).
    pub fn resource_templates(&self) -> Vec<ResourceTemplate> {
        every(self.inner.catalogue.templates.as_ref(), &self.snapshot())
    }

    /// The runtime catalog: tools added, replaced and removed while the
    /// server serves ([`catalog`](crate::catalog)).
    pub fn catalog(&self) -> &crate::catalog::Catalog {
        &self.inner.catalog
    }

    /// Whether the server serves `method` in `era`.
    pub fn serves(&self, method: &str, era: Era) -> bool {
        self.inner.routes.get(era, method).is_some()
    }

    /// The params member that names the target of `method` in `era`, which
    /// Streamable HTTP mirrors in `Mcp-Name` (`name`, `uri`, or what an
    /// extension's method names).
    pub fn target_member(&self, method: &str, era: Era) -> Option<&'static str> {
        self.inner.routes.get(era, method)?.target_member()
    }

    /// The active member of the one-active seam `S` (`dyn KeyStrategy`,
    /// `dyn TaskStore`); `None` when no crate declared or supplied it.
    pub fn active<S: OneActive + ?Sized>(&self) -> Option<Arc<S>> {
        self.inner.runtime.active::<S>()
    }

    /// The server's drain: every transport serving it refuses new work
    /// once it begins, and waits for what it holds ([`Shutdown`]).
    pub fn shutdown(&self) -> &Shutdown {
        &self.inner.runtime.shutdown
    }

    /// The members of registration kind `K`, sorted.
    pub fn members<K: Kind>(&self) -> &[K::Member] {
        self.inner.runtime.members::<K>()
    }

    /// The state of type `T` a crate made at boot with `BootContext::shared`.
    pub fn shared<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.inner.runtime.shared::<T>()
    }

    /// The active key strategy.
    pub fn key_strategy(&self) -> Arc<dyn KeyStrategy> {
        self.active::<dyn KeyStrategy>()
            .expect("the framework declares the key strategy seam")
    }

    /// The active event store.
    pub fn event_store(&self) -> Arc<dyn EventStore> {
        self.active::<dyn EventStore>()
            .expect("the framework declares the event store seam")
    }

    /// The active session store (the default keeps nothing).
    pub fn session_store(&self) -> Arc<dyn SessionStore> {
        self.active::<dyn SessionStore>()
            .expect("the SessionStore seam always has a member")
    }

    /// Where changes are published: the active change sink, and this
    /// instance's own listeners.
    pub fn changes(&self) -> &dyn ChangeSink {
        &*self.inner.runtime.changes
    }

    /// A listener for the changes published through this server, as a
    /// transport needs to tell its legacy sessions about them.
    pub fn listen_changes(&self) -> tokio::sync::broadcast::Receiver<Change> {
        self.inner.runtime.changes.hub().legacy_feed()
    }

    /// Passes a notification a transport sends outside any request (a
    /// 2025-11-25 session's list change or resource update) through the
    /// sending interceptors; `None` when one suppressed it.
    pub fn outgoing(
        &self,
        notification: mcp_core::jsonrpc::Notification,
    ) -> Option<mcp_core::jsonrpc::Notification> {
        let senders = &self.inner.runtime.senders;
        if senders.is_empty() {
            return Some(notification);
        }
        crate::seam::interceptor::send_notification(senders, None, notification)
    }

    /// Ends every `subscriptions/listen` stream gracefully: each answers
    /// with its listen result, and later listen requests end at once (for a
    /// server shutting down).
    pub fn end_subscriptions(&self) {
        self.inner.runtime.changes.hub().end_all();
    }

    /// How many `subscriptions/listen` streams are held.
    pub fn listeners(&self) -> usize {
        self.inner.runtime.changes.hub().len()
    }

    /// The arguments of `tool` a 2026-07-28 client mirrors in
    /// `Mcp-Param-*` headers (those its schema marks `x-mcp-header`).
    pub fn param_headers(&self, tool: &str) -> Cow<'_, [ParamHeader]> {
        if let Some(mirrored) = self.inner.param_headers.get(tool) {
            return Cow::Borrowed(mirrored);
        }
        if !self.inner.dynamic.mirrors() {
            return Cow::Borrowed(&[]);
        }
        let snapshot = self.snapshot();
        snapshot
            .tools
            .get(tool)
            .map_or(Cow::Borrowed(&[]), |t| Cow::Owned(t.param_headers.clone()))
    }

    /// Whether any tool, of boot or of the runtime catalog, mirrors
    /// arguments in `Mcp-Param-*` headers.
    pub(crate) fn mirrors_arguments(&self) -> bool {
        !self.inner.param_headers.is_empty() || self.inner.dynamic.mirrors()
    }

    /// Who sends `credentials`, as the active principal source decides, or
    /// the challenge that refuses them. Transports call it once per
    /// request and pass the principal on with [`Peer::with_principal`](crate::transport::Peer::with_principal).
    pub fn authenticate<'a>(&'a self, credentials: &'a Credentials) -> Authentication<'a> {
        self.inner.principal_source.authenticate(credentials)
    }
}

/// Runs `serving` to its end: a panic in a handler or an interceptor
/// answers `-32603` like any failure, so the client gets its response and
/// the transport goes on. (Not an `async fn`: that would hold `serving`
/// twice in its state, once as its argument and once running.)
fn unwound<T>(
    serving: impl std::future::Future<Output = Result<T, ErrorObject>>,
) -> impl std::future::Future<Output = Result<T, ErrorObject>> {
    AssertUnwindSafe(serving)
        .catch_unwind()
        .map(|unwound| unwound.unwrap_or_else(|_| Err(panicked())))
}

/// Runs `f`, a panic in it answering `-32603` as a panicking handler does.
fn caught<T>(f: impl FnOnce() -> T) -> Result<T, ErrorObject> {
    std::panic::catch_unwind(AssertUnwindSafe(f)).map_err(|_| panicked())
}

/// The error a panic in a handler, an interceptor or a guard answers with.
fn panicked() -> ErrorObject {
    ErrorObject::internal_error("Internal error: the handler panicked")
}
