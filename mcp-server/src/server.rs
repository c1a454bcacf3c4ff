//! The frozen server: one immutable, cheaply clonable value; serving a
//! request is a lookup and a walk down its chain.

use std::fmt;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt;
use mcp_core::capabilities::{ClientCapabilities, ServerCapabilities};
use mcp_core::content::Implementation;
use mcp_core::error::ErrorObject;
use mcp_core::jsonrpc::{self, Message, Notification, Request, RequestId};
use mcp_core::meta::{self, RequestMeta};
use mcp_core::prompts::Prompt;
use mcp_core::resources::{Resource, ResourceTemplate};
use mcp_core::tools::Tool;
use mcp_core::version::{self, Era};
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio_util::sync::CancellationToken;

use crate::boot::{BootReport, Builder};
use crate::connection::Connection;
pub use crate::connection::Session;
use crate::context::{ContextParts, DEFAULT_INPUT_TIMEOUT, RequestContext};
use crate::dispatch::{Catalog, Pipeline, Routes};
use crate::input::ClientRequester;
use crate::interceptor::{RawCall, RawInterceptor, RawNext};
use crate::members;
use crate::mrtr::{Binding, Exchange, INPUT_METHODS, Rounds};
use crate::reply::encode_error;
use crate::runtime::Runtime;
use crate::seam::{Kind, OneActive};
use crate::sink::{Change, ChangeSink, DiscardSink, NotificationSink};
use crate::source::{Authentication, Credentials, Principal, PrincipalSource};
use crate::store::{EventStore, SessionStore};
use crate::strategy::KeyStrategy;
use crate::tool::ParamHeader;

/// An assembled MCP server. Clones share it.
#[derive(Clone)]
pub struct Server {
    inner: Arc<ServerInner>,
}

pub(crate) struct ServerInner {
    pub(crate) info: Implementation,
    /// What `server/discover` advertises.
    pub(crate) capabilities: ServerCapabilities,
    /// What `initialize` answers, before a connection adds its own.
    pub(crate) legacy_capabilities: ServerCapabilities,
    pub(crate) instructions: Option<String>,
    pub(crate) routes: Routes,
    pub(crate) raw: Arc<[Arc<dyn RawInterceptor>]>,
    /// The active principal source, looked up once at boot.
    pub(crate) principal_source: Arc<dyn PrincipalSource>,
    pub(crate) runtime: Arc<Runtime>,
    /// What was assembled, as listed (customizers folded).
    pub(crate) catalogue: Catalogue,
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
    pub(crate) tools: Option<Arc<Catalog<Tool>>>,
    pub(crate) prompts: Option<Arc<Catalog<Prompt>>>,
    pub(crate) resources: Option<Arc<Catalog<Resource>>>,
    pub(crate) templates: Option<Arc<Catalog<ResourceTemplate>>>,
}

/// The descriptors of one catalog, or none.
fn listed<D: crate::customizer::Descriptor>(catalog: Option<&Arc<Catalog<D>>>) -> Vec<&D> {
    catalog.into_iter().flat_map(|c| c.descriptors()).collect()
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("info", &self.inner.info)
            .finish_non_exhaustive()
    }
}

/// What a caller runs on each request context made for it
/// ([`Caller::with_seed`]).
pub type Seed = Arc<dyn Fn(&RequestContext) + Send + Sync>;

/// Who sends a request, as the transport knows it.
#[derive(Clone)]
pub struct Caller {
    /// The caller's credentials, for the principal source.
    pub credentials: Credentials,
    /// Who the caller is, when the transport authenticated it already;
    /// `None` authenticates [`credentials`](Self::credentials) when the
    /// message is served.
    pub principal: Option<Arc<Principal>>,
    /// Where this request's progress and log notifications go.
    pub notifications: Arc<dyn NotificationSink>,
    /// Fires when the client cancels the request or goes away.
    pub cancellation: CancellationToken,
    /// The legacy connection the request comes on (a stdio process, an
    /// HTTP session); `None` where only 2026-07-28 requests arrive.
    pub connection: Option<Arc<Connection>>,
    /// Carries input requests to the client, when the transport can.
    pub requester: Option<Arc<dyn ClientRequester>>,
    /// How long a handler waits for the client's answer to an input request.
    pub input_timeout: Duration,
    /// Runs on each request context made for this caller, before any
    /// interceptor: what the embedding process (never the client) tells
    /// the request, as values read with [`RequestContext::get`].
    pub seed: Option<Seed>,
}

impl fmt::Debug for Caller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Caller")
            .field("connection", &self.connection)
            .finish_non_exhaustive()
    }
}

impl Caller {
    /// A caller without credentials, on no legacy connection, whose
    /// notifications are dropped.
    pub fn modern() -> Self {
        Self {
            credentials: Credentials::none(),
            principal: None,
            notifications: Arc::new(DiscardSink),
            cancellation: CancellationToken::new(),
            connection: None,
            requester: None,
            input_timeout: DEFAULT_INPUT_TIMEOUT,
            seed: None,
        }
    }

    /// A caller on the legacy connection `connection`.
    pub fn on(connection: Arc<Connection>) -> Self {
        Self {
            connection: Some(connection),
            ..Self::modern()
        }
    }

    /// With these credentials.
    #[must_use]
    pub fn with_credentials(mut self, credentials: Credentials) -> Self {
        self.credentials = credentials;
        self
    }

    /// Authenticated already, as `principal` (what
    /// [`Server::authenticate`] made of its credentials).
    #[must_use]
    pub fn with_principal(mut self, principal: Arc<Principal>) -> Self {
        self.principal = Some(principal);
        self
    }

    /// With this request's notifications going to `sink`.
    #[must_use]
    pub fn with_notifications(mut self, sink: Arc<dyn NotificationSink>) -> Self {
        self.notifications = sink;
        self
    }

    /// Cancelled by `token`.
    #[must_use]
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.cancellation = token;
        self
    }

    /// Asking its client for input through `requester`, waiting at most `timeout`.
    #[must_use]
    pub fn with_requester(
        mut self,
        requester: Option<Arc<dyn ClientRequester>>,
        timeout: Duration,
    ) -> Self {
        self.requester = requester;
        self.input_timeout = timeout;
        self
    }

    /// With `seed` run on each request context made for this caller, before
    /// any interceptor: a process that replays a call on the client's
    /// behalf (a worker running a queued task) tells its interceptors so.
    ///
    /// ```
    /// use mcp_server::{Caller, RequestContext};
    ///
    /// #[derive(Clone)]
    /// struct Replayed;
    ///
    /// let caller = Caller::modern().with_seed(|ctx: &RequestContext| ctx.insert(Replayed));
    /// assert!(caller.seed.is_some());
    /// ```
    #[must_use]
    pub fn with_seed(mut self, seed: impl Fn(&RequestContext) + Send + Sync + 'static) -> Self {
        self.seed = Some(Arc::new(seed));
        self
    }

    /// The era of a message for `method`: legacy on a negotiated connection
    /// and for the `initialize` that negotiates it, modern otherwise.
    pub fn era_for(&self, method: &str) -> Era {
        match &self.connection {
            Some(connection) if connection.is_initialized() || method == "initialize" => {
                Era::Legacy
            }
            _ => Era::Modern,
        }
    }
}

/// Who sends one message: its caller, and the principal its credentials
/// showed.
struct Sender<'c> {
    caller: &'c Caller,
    principal: Arc<Principal>,
}

/// What a 2026-07-28 request carries in `params._meta`, checked: the
/// version it names is one the server speaks, and it declares its
/// capabilities.
#[derive(Debug)]
pub(crate) struct Checked {
    pub(crate) protocol_version: String,
    pub(crate) capabilities: Box<ClientCapabilities>,
    pub(crate) meta: RequestMeta,
}

impl Checked {
    /// Checks a modern request's `_meta`.
    pub(crate) fn new(mut meta: RequestMeta) -> Result<Self, ErrorObject> {
        let protocol_version = meta
            .protocol_version
            .take()
            .ok_or_else(|| crate::error::missing_meta(meta::PROTOCOL_VERSION))?;
        let capabilities = meta
            .client_capabilities
            .take()
            .ok_or_else(|| crate::error::missing_meta(meta::CLIENT_CAPABILITIES))?;
        version::negotiate_modern(&protocol_version, version::SUPPORTED)
            .map_err(ErrorObject::from)?;
        Ok(Self {
            protocol_version,
            capabilities,
            meta,
        })
    }
}

/// What a message's `_meta` told, checked (a 2026-07-28 request) or as it came.
enum Told {
    Checked(Checked),
    Unchecked(RequestMeta),
}

/// Only the `_meta` of a request's params.
#[derive(Deserialize)]
struct MetaOnly {
    #[serde(rename = "_meta", default)]
    meta: Option<RequestMeta>,
}

fn meta_of(params: Option<&RawValue>) -> Result<RequestMeta, ErrorObject> {
    match params {
        None => Ok(RequestMeta::default()),
        Some(raw) => serde_json::from_str::<MetaOnly>(raw.get())
            .map(|m| m.meta.unwrap_or_default())
            .map_err(|e| ErrorObject::invalid_params(format!("Invalid params: {e}"))),
    }
}

impl Server {
    /// A builder for a server.
    pub fn builder() -> Builder {
        Builder::default()
    }

    pub(crate) fn new(inner: ServerInner) -> Self {
        Self {
            inner: Arc::new(inner),
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
    /// `initialize` answers before a connection adds log levels,
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

    /// Every tool, in list order, as customizers left it (unlisted ones too).
    pub fn tools(&self) -> Vec<&Tool> {
        listed(self.inner.catalogue.tools.as_ref())
    }

    /// Every prompt, in list order, as customizers left it (unlisted ones too).
    pub fn prompts(&self) -> Vec<&Prompt> {
        listed(self.inner.catalogue.prompts.as_ref())
    }

    /// Every resource with a fixed URI, in list order, as customizers left it (unlisted ones too).
    pub fn resources(&self) -> Vec<&Resource> {
        listed(self.inner.catalogue.resources.as_ref())
    }

    /// Every resource template, in list order, as customizers left it (unlisted ones too).
    pub fn resource_templates(&self) -> Vec<&ResourceTemplate> {
        listed(self.inner.catalogue.templates.as_ref())
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
    pub fn param_headers(&self, tool: &str) -> &[ParamHeader] {
        self.inner
            .param_headers
            .get(tool)
            .map_or(&[], Vec::as_slice)
    }

    /// Whether some tool mirrors arguments in `Mcp-Param-*` headers.
    pub(crate) fn mirrors_params(&self) -> bool {
        !self.inner.param_headers.is_empty()
    }

    /// Who sends `credentials`, as the active principal source decides, or
    /// the challenge that refuses them. Transports call it once per
    /// request and pass the principal on with [`Caller::with_principal`].
    pub fn authenticate<'a>(&'a self, credentials: &'a Credentials) -> Authentication<'a> {
        self.inner.principal_source.authenticate(credentials)
    }

    /// The caller's principal: the one the transport found, or what the
    /// principal source makes of its credentials.
    async fn principal_of(&self, caller: &Caller) -> Result<Arc<Principal>, ErrorObject> {
        match &caller.principal {
            Some(principal) => Ok(principal.clone()),
            None => self
                .authenticate(&caller.credentials)
                .await
                .map_err(crate::challenge::Challenge::into_error),
        }
    }

    /// Serves one message: a request gets its encoded response; a
    /// notification goes through the raw interceptors and gets `None`, as
    /// does a response; bytes that are not a message get the error response.
    pub async fn handle(&self, bytes: &[u8], caller: &Caller) -> Option<Vec<u8>> {
        match jsonrpc::decode(bytes) {
            Ok(Message::Request(request)) => Some(self.handle_request(request, caller).await),
            Ok(Message::Notification(notification)) => {
                self.admit(&notification, caller).await;
                None
            }
            Ok(Message::Response(_)) => None,
            Err(error) => Some(encode_error(error.id, error.error)),
        }
    }

    /// Serves one decoded request and returns the encoded response.
    pub async fn handle_request(&self, request: Request, caller: &Caller) -> Vec<u8> {
        let id = request.id.clone();
        match self.answer(request, None, caller).await {
            Ok(result) => result.response(&id),
            Err(error) => encode_error(Some(id), error),
        }
    }

    /// Passes a client notification through the raw interceptors; `true`
    /// when none refused it, so the transport acts on it (a cancellation).
    pub async fn admit(&self, notification: &Notification, caller: &Caller) -> bool {
        let era = caller.era_for(&notification.method);
        let meta = meta_of(notification.params.as_deref()).unwrap_or_default();
        // A caller whose credentials are refused is not heard.
        let Ok(principal) = self.principal_of(caller).await else {
            return false;
        };
        let ctx = self.context(
            None,
            notification.method.clone(),
            era,
            Told::Unchecked(meta),
            caller,
            principal,
        );
        let call = RawCall::new(&ctx, notification.params.as_deref());
        let pipeline = Pipeline::notification(&self.inner.raw);
        let admitted = unwound(RawNext::new(&pipeline, 0).run(&call)).await;
        admitted.is_ok_and(|answer| ctx.key().check(answer.key).is_ok())
    }

    /// Serves one decoded request: its result, or the error to answer with.
    /// `checked` is the request's `_meta` when the transport checked it
    /// already; `None` checks it here.
    pub(crate) async fn answer(
        &self,
        request: Request,
        checked: Option<Checked>,
        caller: &Caller,
    ) -> Result<ResultText, ErrorObject> {
        let Request {
            id, method, params, ..
        } = request;
        let era = caller.era_for(&method);
        let principal = self.principal_of(caller).await?;
        let result = unwound(self.serve(
            id,
            method,
            era,
            params.as_deref(),
            checked,
            Sender { caller, principal },
        ))
        .await?;
        Ok(match era {
            Era::Modern => with_server_info(result, &self.inner),
            Era::Legacy => ResultText(legacy_result(result).into()),
        })
    }

    async fn serve(
        &self,
        id: RequestId,
        method: String,
        era: Era,
        params: Option<&RawValue>,
        checked: Option<Checked>,
        Sender { caller, principal }: Sender<'_>,
    ) -> Result<Box<RawValue>, ErrorObject> {
        // An unknown method, or one of the other era, is not found before
        // anything else is checked: a client probing for its era learns it here.
        let Some(route) = self.inner.routes.get(era, &method) else {
            return Err(ErrorObject::method_not_found(&method));
        };
        let told = match (era, checked) {
            (Era::Modern, Some(checked)) => Ok(Told::Checked(checked)),
            (Era::Modern, None) => meta_of(params).and_then(Checked::new).map(Told::Checked),
            (Era::Legacy, _) => meta_of(params).map(Told::Unchecked),
        };
        let told = match told {
            Ok(told) => told,
            // What the guards hide answers as unknown before anything else.
            Err(error) => {
                return Err(self
                    .hidden_from(&method, era, params, caller, principal)
                    .unwrap_or(error));
            }
        };
        let ctx = self.context(Some(id), method, era, told, caller, principal);
        // A retry's state is checked, and claimed, before anything runs.
        let binding =
            (era == Era::Modern && INPUT_METHODS.contains(&ctx.method())).then(|| Binding {
                method: ctx.method(),
                target_member: route.target_member(),
                principal: ctx.principal().subject.as_deref(),
                params,
            });
        if let Some(binding) = &binding {
            ctx.set_exchange(Exchange::begin(binding, &self.inner.rounds).await?);
        }
        let call = RawCall::new(&ctx, params);
        let pipeline = Pipeline::request(&self.inner.raw, &**route);
        let answer = RawNext::new(&pipeline, 0).run(&call).await;
        // A failure that belongs to the protocol (a missing client
        // capability) wins over whatever the handler made of it.
        if let Some(error) = ctx.take_escalation() {
            return Err(error);
        }
        // Questions without answers end the request, whatever it returned;
        // but a target the guards hide answers as an unknown one, even when
        // an interceptor outside the guards asked something first.
        if let (Some(binding), Some(exchange)) = (&binding, ctx.exchange())
            && let Some(input_required) = exchange.outcome(binding, &self.inner.rounds)
        {
            if let Some(hidden) = route.hidden(&ctx, params) {
                return Err(hidden);
            }
            return Ok(input_required);
        }
        let answer = answer?;
        ctx.key().check(answer.key)?;
        let result = if answer.taken_over {
            route.screen(&ctx, answer.into_result())?
        } else {
            answer.into_result()
        };
        ctx.commit();
        Ok(result)
    }

    /// The answer for a target of `method` that exists but that the guards
    /// hide from this caller: the transport's own checks answer with it
    /// instead of theirs, so they tell nothing a caller may not see.
    pub(crate) fn hidden(
        &self,
        method: &str,
        era: Era,
        params: Option<&RawValue>,
        caller: &Caller,
    ) -> Option<ErrorObject> {
        let principal = caller
            .principal
            .clone()
            .unwrap_or_else(|| self.inner.principal_source.principal(&caller.credentials));
        self.hidden_from(method, era, params, caller, principal)
    }

    fn hidden_from(
        &self,
        method: &str,
        era: Era,
        params: Option<&RawValue>,
        caller: &Caller,
        principal: Arc<Principal>,
    ) -> Option<ErrorObject> {
        let route = self.inner.routes.get(era, method)?;
        let meta = meta_of(params).unwrap_or_default();
        let ctx = self.context(
            None,
            method.to_owned(),
            era,
            Told::Unchecked(meta),
            caller,
            principal,
        );
        route.hidden(&ctx, params)
    }

    /// The context of one message.
    fn context(
        &self,
        id: Option<RequestId>,
        method: String,
        era: Era,
        told: Told,
        caller: &Caller,
        principal: Arc<Principal>,
    ) -> RequestContext {
        let session = match era {
            Era::Legacy => caller.connection.as_ref().and_then(|l| l.session()),
            Era::Modern => None,
        };
        let (mut meta, protocol_version, client_capabilities) = match (told, &session) {
            (Told::Checked(checked), _) => (
                checked.meta,
                Some(checked.protocol_version),
                checked.capabilities,
            ),
            (Told::Unchecked(meta), Some(session)) => (
                meta,
                Some(session.protocol_version.clone()),
                Box::new(session.client_capabilities.clone()),
            ),
            // A notification, or `initialize` itself: what its `_meta` says.
            (Told::Unchecked(mut meta), None) => {
                let version = meta.protocol_version.take();
                let capabilities = meta.client_capabilities.take().unwrap_or_default();
                (meta, version, capabilities)
            }
        };
        let (client_info, log_level) = match &session {
            Some(session) => (session.client_info.clone().map(Box::new), session.log_level),
            None => (meta.client_info.take(), meta.log_level),
        };
        let ctx = RequestContext::new(ContextParts {
            id,
            method,
            era,
            protocol_version,
            client_capabilities,
            client_info,
            principal,
            cancellation: caller.cancellation.clone(),
            meta,
            notifications: caller.notifications.clone(),
            log_level,
            runtime: self.inner.runtime.clone(),
            connection: caller.connection.clone(),
            // Only a legacy connection carries requests to its client.
            requester: caller.requester.clone().filter(|_| era == Era::Legacy),
            input_timeout: caller.input_timeout,
        });
        if let Some(seed) = &caller.seed {
            seed(&ctx);
        }
        ctx
    }
}

/// Runs `serving` to its end: a panic in a handler or an interceptor
/// answers `-32603` like any failure, so the client gets its response and
/// the transport goes on. (Not an `async fn`: that would hold `serving`
/// twice in its state, once as its argument and once running.)
fn unwound<T>(
    serving: impl std::future::Future<Output = Result<T, ErrorObject>>,
) -> impl std::future::Future<Output = Result<T, ErrorObject>> {
    AssertUnwindSafe(serving).catch_unwind().map(|unwound| {
        unwound.unwrap_or_else(|_| {
            Err(ErrorObject::internal_error(
                "Internal error: the handler panicked",
            ))
        })
    })
}

/// A legacy empty result is exactly `{}`, as 2025-11-25 clients check.
fn legacy_result(result: Box<RawValue>) -> Box<RawValue> {
    if result.get() == r#"{"resultType":"complete"}"# {
        return RawValue::from_string("{}".to_owned()).unwrap_or(result);
    }
    result
}

/// The JSON text of a request's result, ready to go into its response.
#[derive(Debug)]
pub(crate) struct ResultText(Box<str>);

impl ResultText {
    /// The encoded response to request `id` that carries this result.
    pub(crate) fn response(&self, id: &RequestId) -> Vec<u8> {
        let id = serde_json::to_string(id).unwrap_or_else(|_| "null".to_owned());
        let mut out = Vec::with_capacity(self.0.len() + id.len() + 32);
        out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
        out.extend_from_slice(id.as_bytes());
        out.extend_from_slice(br#","result":"#);
        out.extend_from_slice(self.0.as_bytes());
        out.push(b'}');
        out
    }

    /// The result's text.
    #[cfg(test)]
    pub(crate) fn get(&self) -> &str {
        &self.0
    }
}

/// Adds `_meta["io.modelcontextprotocol/serverInfo"]` to a modern result
/// that does not name the server yet, in one pass over its text; the
/// result is valid JSON, and so is what the splice makes of it.
fn with_server_info(result: Box<RawValue>, inner: &ServerInner) -> ResultText {
    let text = result.get();
    let spliced = match members::find(text, "_meta") {
        // Most results have no `_meta`: the member encoded at boot goes first.
        Ok(None) => members::prepend(text, &inner.server_info_member),
        Ok(Some(span)) => {
            let meta = &text[span.clone()];
            let named = match members::find(meta, meta::SERVER_INFO) {
                Ok(Some(_)) => None,
                Ok(None) => members::prepend(meta, &inner.server_info_entry),
                Err(()) if meta == "null" => Some(format!("{{{}}}", inner.server_info_entry)),
                Err(()) => None,
            };
            named.map(|meta| [&text[..span.start], &meta, &text[span.end..]].concat())
        }
        Err(()) => None,
    };
    ResultText(spliced.map_or_else(|| result.into(), String::into_boxed_str))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_info(result: &str) -> serde_json::Value {
        let server = Server::builder()
            .without_linked()
            .without_environment()
            .named("s", "1")
            .build();
        let raw = RawValue::from_string(result.to_owned()).unwrap();
        serde_json::from_str(with_server_info(raw, &server.inner).get()).unwrap()
    }

    #[test]
    fn server_info_joins_a_result_with_or_without_meta() {
        let info = serde_json::json!({"name": "s", "version": "1"});
        let key = meta::SERVER_INFO;
        assert_eq!(with_info("{}")["_meta"][key], info);
        assert_eq!(with_info(r#" { "a" : 1 } "#)["a"], 1);
        assert_eq!(with_info(r#"{"a":1}"#)["_meta"][key], info);
        assert_eq!(with_info(r#"{"_meta":null,"a":1}"#)["_meta"][key], info);
        let kept = with_info(r#"{"_meta":{"x":2},"a":1}"#);
        assert_eq!(
            (&kept["_meta"]["x"], &kept["_meta"][key]),
            (&2.into(), &info)
        );
        let named =
            with_info(r#"{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"other"}}}"#);
        assert_eq!(named["_meta"][key]["name"], "other");
    }
}
