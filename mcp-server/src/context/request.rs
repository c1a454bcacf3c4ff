//! The request context itself, and what a deferred run of its handler shares
//! with it.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use std::time::Duration;

use mcp_core::capabilities::ClientCapabilities;
use mcp_core::content::Implementation;
use mcp_core::elicitation::{ElicitRequestParams, ElicitResult};
use mcp_core::error::ErrorObject;
use mcp_core::jsonrpc::{Notification, RequestId};
use mcp_core::meta::RequestMeta;
use mcp_core::roots::{ListRootsRequestParams, ListRootsResult};
use mcp_core::sampling::{CreateMessageRequestParams, CreateMessageResult};
#[cfg(any(test, feature = "test-util"))]
use mcp_core::version;
use mcp_core::version::Era;
use serde::de::DeserializeOwned;
use tokio_util::sync::CancellationToken;

use super::exchange::Exchange;
use super::input::{self, ClientRequester, InputError, InputKind};
use super::runtime::Runtime;
use super::session::Session;
use crate::seam::interceptor::{
    End, Outbound, OutboundKind, Senders, send_exchange, send_notification,
};
use crate::seam::sink::{ChangeSink, LogSink, NotificationSink, ProgressSink};
use crate::vocabulary::auth::Principal;
use crate::vocabulary::lock;
use crate::vocabulary::seam::{Kind, OneActive};

/// Identifies one in-flight call: one request, with its one caller and the
/// one target the request names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct CallKey(u64);

impl CallKey {
    /// A key no other call has had in this process.
    pub(crate) fn fresh() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Self(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    /// Refuses an answer made for another call.
    pub(crate) fn check(self, made_for: CallKey) -> Result<(), ErrorObject> {
        if self == made_for {
            Ok(())
        } else {
            Err(ErrorObject::internal_error(
                "Internal error: an interceptor answered with a result made for another call",
            ))
        }
    }
}

/// How long a handler waits for the client's answer to an input request
/// unless the transport says otherwise.
pub const DEFAULT_INPUT_TIMEOUT: Duration = Duration::from_secs(300);

/// What handler and interceptor code knows about one request.
///
/// Cheap to clone: every clone shares the same request.
#[derive(Clone)]
pub struct RequestContext {
    inner: Arc<Inner>,
}

struct Inner {
    key: CallKey,
    id: Option<RequestId>,
    method: String,
    era: Era,
    protocol_version: Option<String>,
    client_capabilities: Box<ClientCapabilities>,
    client_info: Option<Box<Implementation>>,
    principal: Arc<Principal>,
    cancellation: CancellationToken,
    meta: RequestMeta,
    progress: ProgressSink,
    log: LogSink,
    notifications: Arc<dyn NotificationSink>,
    /// The sink that passes the sending interceptors, when there are any.
    sending: Option<Arc<Sending>>,
    runtime: Arc<Runtime>,
    session: Option<Arc<Session>>,
    requester: Option<Arc<dyn ClientRequester>>,
    input_timeout: Duration,
    escalation: Mutex<Option<ErrorObject>>,
    extensions: Mutex<HashMap<TypeId, Box<dyn Any + Send + Sync>>>,
    /// The request a deferred run comes from, whose values it shares.
    origin: Option<Arc<Inner>>,
    /// Effects that take hold only if the request is answered without error.
    commits: Mutex<Vec<Box<dyn FnOnce() + Send>>>,
    /// The multi round-trip exchange of a modern request that may ask
    /// (shared with a deferred run of its handler that starts inside it).
    exchange: std::sync::OnceLock<Arc<Exchange>>,
    /// Set on the context of a deferred run of a handler.
    deferral: Option<Box<Deferral>>,
    /// Whether any effect was staged (most requests stage none).
    staged: std::sync::atomic::AtomicBool,
}

impl fmt::Debug for RequestContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestContext")
            .field("id", &self.inner.id)
            .field("method", &self.inner.method)
            .field("era", &self.inner.era)
            .field("principal", &self.inner.principal)
            .finish_non_exhaustive()
    }
}

/// The parts of a context a transport and the dispatcher decide.
pub(crate) struct ContextParts {
    pub(crate) id: Option<RequestId>,
    pub(crate) method: String,
    pub(crate) era: Era,
    pub(crate) protocol_version: Option<String>,
    pub(crate) client_capabilities: Box<ClientCapabilities>,
    pub(crate) client_info: Option<Box<Implementation>>,
    pub(crate) principal: Arc<Principal>,
    pub(crate) cancellation: CancellationToken,
    pub(crate) meta: RequestMeta,
    pub(crate) notifications: Arc<dyn NotificationSink>,
    pub(crate) log_level: Option<mcp_core::logging::LoggingLevel>,
    pub(crate) runtime: Arc<Runtime>,
    /// The legacy session the request came on, if any.
    pub(crate) session: Option<Arc<Session>>,
    /// How the request asks its client for input, when its transport can.
    pub(crate) requester: Option<Arc<dyn ClientRequester>>,
    pub(crate) input_timeout: Duration,
}

/// A request's sink when the server has sending interceptors: each
/// notification passes them, in order, before the transport's sink.
struct Sending {
    senders: Senders,
    out: Arc<dyn NotificationSink>,
    ctx: std::sync::Weak<Inner>,
    /// Whether any message of the request passed them, so that `end` runs.
    seen: std::sync::atomic::AtomicBool,
}

impl NotificationSink for Sending {
    fn send(&self, notification: Notification) {
        self.seen.store(true, Ordering::Relaxed);
        let ctx = self.ctx.upgrade().map(|inner| RequestContext { inner });
        if let Some(notification) = send_notification(&self.senders, ctx, notification) {
            self.out.send(notification);
        }
    }

    fn backlog(&self) -> usize {
        self.out.backlog()
    }
}

impl RequestContext {
    pub(crate) fn new(parts: ContextParts) -> Self {
        let inner = Arc::new_cyclic(|me| {
            let (notifications, sending) = if parts.runtime.senders.is_empty() {
                (parts.notifications, None)
            } else {
                let sending = Arc::new(Sending {
                    senders: parts.runtime.senders.clone(),
                    out: parts.notifications,
                    ctx: me.clone(),
                    seen: std::sync::atomic::AtomicBool::new(false),
                });
                (sending.clone() as Arc<dyn NotificationSink>, Some(sending))
            };
            let progress =
                ProgressSink::new(parts.meta.progress_token.clone(), notifications.clone());
            let log = LogSink::new(parts.log_level, notifications.clone());
            Inner {
                key: CallKey::fresh(),
                id: parts.id,
                method: parts.method,
                era: parts.era,
                protocol_version: parts.protocol_version,
                client_capabilities: parts.client_capabilities,
                client_info: parts.client_info,
                principal: parts.principal,
                cancellation: parts.cancellation,
                meta: parts.meta,
                progress,
                log,
                notifications,
                sending,
                runtime: parts.runtime,
                session: parts.session,
                requester: parts.requester,
                input_timeout: parts.input_timeout,
                escalation: Mutex::new(None),
                extensions: Mutex::new(HashMap::new()),
                origin: None,
                commits: Mutex::new(Vec::new()),
                staged: std::sync::atomic::AtomicBool::new(false),
                exchange: std::sync::OnceLock::new(),
                deferral: None,
            }
        });
        Self { inner }
    }

    /// Tells the sending interceptors that saw a message of this request
    /// that it ended, and how.
    pub(crate) fn end_sending(&self, end: End) {
        if let Some(sending) = &self.inner.sending
            && sending.seen.load(Ordering::Relaxed)
        {
            for sender in sending.senders.iter() {
                sender.end(self, end);
            }
        }
    }

    /// Passes one exchange message through the sending interceptors; what
    /// they left, or the refusal the asking handler sees.
    async fn outbound(
        &self,
        kind: OutboundKind,
        method: &'static str,
        key: Option<&str>,
        value: serde_json::Value,
    ) -> Result<serde_json::Value, InputError> {
        let Some(sending) = &self.inner.sending else {
            return Ok(value);
        };
        let serde_json::Value::Object(params) = value else {
            return Ok(value);
        };
        sending.seen.store(true, Ordering::Relaxed);
        let mut message = Outbound::new(kind, method.to_owned(), params, Some(self.clone()));
        if let Some(key) = key {
            message = message.with_key(key.to_owned());
        }
        send_exchange(&sending.senders, message)
            .await
            .map(serde_json::Value::Object)
            .map_err(InputError::Refused)
    }

    /// A modern-era `tools/call` context for an anonymous caller, outside
    /// any server, for unit tests of handler code. Nothing it authorizes is
    /// accepted by a server.
    #[cfg(any(test, feature = "test-util"))]
    pub fn for_tests() -> Self {
        Self::new(ContextParts {
            id: Some(RequestId::Number(0)),
            method: "tools/call".into(),
            era: Era::Modern,
            protocol_version: Some(version::LATEST.into()),
            client_capabilities: Box::default(),
            client_info: None,
            principal: Arc::new(Principal::anonymous()),
            cancellation: CancellationToken::new(),
            meta: RequestMeta::default(),
            notifications: Arc::new(crate::seam::sink::DiscardSink),
            log_level: None,
            runtime: Arc::new(Runtime::empty()),
            session: None,
            requester: None,
            input_timeout: DEFAULT_INPUT_TIMEOUT,
        })
    }

    /// The key of this call, which proofs and answers carry.
    pub(crate) fn key(&self) -> CallKey {
        self.inner.key
    }

    /// The values stored with `insert`: the request's own, shared by a
    /// deferred run of its handler.
    fn extensions(&self) -> &Mutex<HashMap<TypeId, Box<dyn Any + Send + Sync>>> {
        match &self.inner.origin {
            Some(origin) => &origin.extensions,
            None => &self.inner.extensions,
        }
    }

    /// The same call for a deferred run of its handler, outside the
    /// request: what it escalates or stages no longer changes the
    /// request's answer, which may be gone. It has a cancellation of its
    /// own, asks no client on a 2026-07-28 request unless its runner gives
    /// it a requester, and shares the request's multi round-trip exchange
    /// only while it runs inside the request (see [`Deferral`]).
    pub(crate) fn detached(&self) -> Self {
        let i = &self.inner;
        let exchange = std::sync::OnceLock::new();
        if let Some(shared) = i.exchange.get() {
            let _ = exchange.set(shared.clone());
        }
        Self {
            inner: Arc::new(Inner {
                key: i.key,
                id: i.id.clone(),
                method: i.method.clone(),
                era: i.era,
                protocol_version: i.protocol_version.clone(),
                client_capabilities: i.client_capabilities.clone(),
                client_info: i.client_info.clone(),
                principal: i.principal.clone(),
                cancellation: CancellationToken::new(),
                meta: i.meta.clone(),
                progress: i.progress.clone(),
                log: i.log.clone(),
                notifications: i.notifications.clone(),
                sending: None,
                runtime: i.runtime.clone(),
                session: i.session.clone(),
                requester: match i.era {
                    Era::Legacy => i.requester.clone(),
                    Era::Modern => None,
                },
                input_timeout: i.input_timeout,
                escalation: Mutex::new(None),
                extensions: Mutex::new(HashMap::new()),
                origin: Some(i.origin.clone().unwrap_or_else(|| self.inner.clone())),
                commits: Mutex::new(Vec::new()),
                staged: std::sync::atomic::AtomicBool::new(false),
                exchange,
                deferral: Some(Box::default()),
            }),
        }
    }

    /// What a deferred run's runner set, on a deferred run's context.
    pub(crate) fn deferral(&self) -> Option<&Deferral> {
        self.inner.deferral.as_deref()
    }

    /// Tells whoever runs this handler that the input it needs before its
    /// work starts is gathered: a runner that started it inside its
    /// request (an extension that answers with a task once the work
    /// starts) answers the request now and lets the handler go on after.
    /// Input asked after this point no longer belongs to the request's
    /// multi round-trip exchange; it goes wherever the runner sends it.
    /// Anywhere else this does nothing.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let ctx = mcp_server::RequestContext::for_tests();
    /// ctx.release_request(); // nobody runs it that way: nothing happens
    /// # });
    /// ```
    pub fn release_request(&self) {
        if let Some(deferral) = self.deferral() {
            deferral.release();
        }
    }

    /// The JSON-RPC id of the request; `None` for a client notification.
    pub fn id(&self) -> Option<&RequestId> {
        self.inner.id.as_ref()
    }

    /// The method name.
    pub fn method(&self) -> &str {
        &self.inner.method
    }

    /// The protocol era of this request.
    pub fn era(&self) -> Era {
        self.inner.era
    }

    /// The protocol version of this request (modern: from `_meta`; legacy: negotiated).
    pub fn protocol_version(&self) -> Option<&str> {
        self.inner.protocol_version.as_deref()
    }

    /// The client's capabilities for this request.
    pub fn client_capabilities(&self) -> &ClientCapabilities {
        &self.inner.client_capabilities
    }

    /// Who the client says it is, if it said.
    pub fn client_info(&self) -> Option<&Implementation> {
        self.inner.client_info.as_deref()
    }

    /// Who is calling, as the active principal source decided.
    pub fn principal(&self) -> &Principal {
        &self.inner.principal
    }

    /// Fires when the client cancels the request or goes away.
    pub fn cancellation(&self) -> &CancellationToken {
        &self.inner.cancellation
    }

    /// Whether the request has been cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancellation.is_cancelled()
    }

    /// Progress reporting for this request.
    pub fn progress(&self) -> &ProgressSink {
        &self.inner.progress
    }

    /// Log messages for this request's client.
    pub fn log(&self) -> &LogSink {
        &self.inner.log
    }

    /// Publishes changes to every listener.
    pub fn changes(&self) -> &dyn ChangeSink {
        &*self.inner.runtime.changes
    }

    /// The server's drain: work that outlives this request (a task's run)
    /// holds it, and ends itself properly when its deadline passes.
    pub fn shutdown(&self) -> &crate::vocabulary::Shutdown {
        &self.inner.runtime.shutdown
    }

    /// The active member of the one-active seam `S` (`dyn TaskStore`, say);
    /// `None` when no crate declared or supplied the seam.
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

    /// Sends a notification on this request's own stream.
    pub(crate) fn send(&self, notification: Notification) {
        self.inner.notifications.send(notification);
    }

    /// Sends notification `N`, an extension's own, on this request's
    /// stream, where its progress and log messages go, through the sending
    /// interceptors; a notification of another era than the request's is
    /// not sent.
    ///
    /// ```
    /// use mcp_server::{Notification, Params, RequestContext};
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Debug, Serialize, Deserialize, Params)]
    /// struct Stage { name: String }
    ///
    /// #[derive(Notification)]
    /// #[mcp(name = "com.example/stage", params = Stage)]
    /// struct StageReached;
    ///
    /// fn report(ctx: &RequestContext) {
    ///     ctx.notify::<StageReached>(Stage { name: "parsed".into() });
    /// }
    /// # report(&RequestContext::for_tests());
    /// ```
    pub fn notify<N: mcp_core::method::NotificationMethod>(&self, params: N::Params) {
        if !N::ERAS.contains(&self.inner.era) {
            return;
        }
        match Notification::new(N::NAME, &params) {
            Ok(notification) => self.send(notification),
            Err(error) => {
                tracing::warn!(notification = N::NAME, %error, "a notification's params do not serialize; it is not sent");
            }
        }
    }

    /// Messages sent on this request's stream that the client has not read.
    pub(crate) fn backlog(&self) -> usize {
        self.inner.notifications.backlog()
    }

    /// The session this request came on, where its transport keeps one: a
    /// stdio process, a 2025-11-25 HTTP session, a connected memory client.
    /// `None` for a 2026-07-28 request over HTTP, which stands alone.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use mcp_server::{RequestContext, Server, origin};
    /// use mcp_server::context::Negotiated;
    /// use mcp_server::testing::MemoryClient;
    /// use mcp_server::seam::contributor::contributor_fn;
    /// use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
    /// use mcp_server::handler::handler_fn;
    ///
    /// let server = Server::builder().without_linked()
    ///     .contributor(origin!(), "tools", contributor_fn(|c| {
    ///         c.tool(Tool { name: "transport".into(), ..Default::default() },
    ///                handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
    ///                    let transport = ctx.session().and_then(|s| s.transport());
    ///                    Ok(CallToolResult::text(transport.unwrap_or("none")))
    ///                }));
    ///     }))
    ///     .build();
    /// let modern = MemoryClient::new(&server).call_tool("transport", serde_json::json!({})).await.unwrap();
    /// assert_eq!(modern.content, CallToolResult::text("none").content);
    /// let legacy = MemoryClient::new(&server).legacy(Negotiated { protocol_version: "2025-11-25".into(), ..Default::default() });
    /// let legacy = legacy.call_tool("transport", serde_json::json!({})).await.unwrap();
    /// assert_eq!(legacy.content, CallToolResult::text("memory").content);
    /// # });
    /// ```
    pub fn session(&self) -> Option<&Arc<Session>> {
        self.inner.session.as_ref()
    }

    /// Makes the 2025-11-25 session this request came on hear of the
    /// changes published for `item` under `member` (an extension's own
    /// kind: `Change::new(method, Topic::Item { member, item })`), as it
    /// hears of the resources it subscribed to; a session follows its 1,024
    /// most recent items, the oldest forgotten first. False where the
    /// request has no legacy session.
    pub fn follow_on_session(&self, member: &str, item: &str) -> bool {
        let session = self.legacy_session();
        if let Some(session) = session {
            session.follow(member, item);
        }
        session.is_some()
    }

    /// The legacy session of a legacy request.
    fn legacy_session(&self) -> Option<&Arc<Session>> {
        self.session().filter(|_| self.inner.era == Era::Legacy)
    }

    /// Runs `effect` once the request is answered without error (a
    /// session change that must not outlive a refused request).
    pub(crate) fn on_success(&self, effect: impl FnOnce() + Send + 'static) {
        lock(&self.inner.commits).push(Box::new(effect));
        self.inner.staged.store(true, Ordering::Release);
    }

    /// Applies the effects [`on_success`](Self::on_success) staged.
    pub(crate) fn commit(&self) {
        if !self.inner.staged.load(Ordering::Acquire) {
            return;
        }
        let effects = std::mem::take(&mut *lock(&self.inner.commits));
        for effect in effects {
            effect();
        }
    }

    /// The request's `_meta`, reserved keys typed and the rest in `extra`.
    pub fn meta(&self) -> &RequestMeta {
        &self.inner.meta
    }

    /// Reads a `_meta` key as a `T`; `None` when absent or of another shape.
    pub fn meta_value<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        T::deserialize(self.inner.meta.extra.get(key)?).ok()
    }

    /// Asks the user, through the client, to fill in a form or open a URL.
    ///
    /// On a 2025-11-25 session this sends `elicitation/create` to the client
    /// and waits for the answer. On a 2026-07-28 request without the answer
    /// yet it returns [`InputError::Required`] at once: the request ends with
    /// an input-required result asking for it, and the client's retry runs
    /// the handler again from the start, when this call returns the answer.
    /// Work done before the question is done again on every round; keep
    /// what must not be redone in [`carry`](Self::carry).
    ///
    /// The answer is filed under a key the framework assigns (`elicitation-1`
    /// for the first elicitation of a run, and so on); name the key with
    /// [`input`](Self::input) instead.
    ///
    /// # Errors
    ///
    /// See [`InputError`]. A client that did not declare the capability is
    /// never asked: on 2026-07-28 the whole request then fails with `-32021`,
    /// whatever the handler returns (check first with
    /// [`can_elicit`](Self::can_elicit) to go on without it).
    pub async fn elicit(&self, params: ElicitRequestParams) -> Result<ElicitResult, InputError> {
        let kind = InputKind::of_elicitation(&params);
        self.ask(None, kind, &params).await
    }

    /// Asks the client's model for a message; see [`elicit`](Self::elicit)
    /// for how the answer comes back in either era.
    ///
    /// # Errors
    ///
    /// See [`elicit`](Self::elicit).
    pub async fn sample(
        &self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, InputError> {
        let kind = InputKind::of_sampling(&params);
        self.ask(None, kind, &params).await
    }

    /// Asks the client for its roots; see [`elicit`](Self::elicit) for how
    /// the answer comes back in either era.
    ///
    /// # Errors
    ///
    /// See [`elicit`](Self::elicit).
    pub async fn list_roots(&self) -> Result<ListRootsResult, InputError> {
        let params = ListRootsRequestParams::default();
        self.ask(None, InputKind::Roots, &params).await
    }

    /// Input filed under a key of the handler's choosing, such as
    /// `"user_name"`: keys are unique within a request, and the client
    /// answers under the same key.
    pub fn input<'a>(&'a self, key: &'a str) -> Input<'a> {
        Input { ctx: self, key }
    }

    /// Whether the client declared form elicitation for this request.
    pub fn can_elicit(&self) -> bool {
        input::check_declared(&self.inner.client_capabilities, InputKind::ElicitForm).is_ok()
    }

    /// Whether the client declared sampling for this request.
    pub fn can_sample(&self) -> bool {
        input::check_declared(&self.inner.client_capabilities, InputKind::Sampling).is_ok()
    }

    /// Whether the client declared roots for this request.
    pub fn can_list_roots(&self) -> bool {
        input::check_declared(&self.inner.client_capabilities, InputKind::Roots).is_ok()
    }

    /// The handler's own state from the last round of a 2026-07-28 multi
    /// round-trip request, as [`carry`](Self::carry) set it; `None` on the
    /// first round, on a legacy session, or when it does not read as a `T`.
    pub fn carried<T: DeserializeOwned>(&self) -> Option<T> {
        let exchange = self.exchange()?;
        T::deserialize(exchange.carried()?).ok()
    }

    /// Keeps `value` for the next round of a 2026-07-28 multi round-trip
    /// request, sealed in its `requestState` (the client can neither read
    /// nor alter it; keep it small). A no-op on a legacy session, where the
    /// handler simply goes on, and where no round follows.
    pub fn carry<T: serde::Serialize>(&self, value: &T) {
        if let (Some(exchange), Ok(value)) = (self.exchange(), serde_json::to_value(value)) {
            exchange.carry(value);
        }
    }

    /// Ends a 2026-07-28 request with an input-required result that carries
    /// only a `requestState`: the client retries, and the handler runs
    /// again (with what it [`carry`](Self::carry)-ed). Whatever the handler
    /// returns is not sent.
    ///
    /// # Errors
    ///
    /// [`InputError::NotAllowed`] where no round can follow: on a legacy
    /// session, or a method other than `tools/call`, `prompts/get` and
    /// `resources/read`.
    pub fn retry_later(&self) -> Result<(), InputError> {
        match self.exchange() {
            Some(exchange) => {
                exchange.retry_later();
                Ok(())
            }
            None => Err(InputError::NotAllowed(self.inner.method.clone())),
        }
    }

    /// The multi round-trip exchange of this request, once the server set it.
    pub(crate) fn set_exchange(&self, exchange: Exchange) {
        let _ = self.inner.exchange.set(Arc::new(exchange));
    }

    /// The multi round-trip exchange of this request, if it has one; on a
    /// deferred run, only while the run is inside its request.
    pub(crate) fn exchange(&self) -> Option<&Exchange> {
        let exchange = self.inner.exchange.get()?;
        match self.deferral() {
            Some(deferral) if !deferral.inside() => None,
            _ => Some(exchange),
        }
    }

    /// Asks for one input under `key` (or the next key for its kind).
    async fn ask<P: serde::Serialize, R: DeserializeOwned>(
        &self,
        key: Option<&str>,
        kind: InputKind,
        params: &P,
    ) -> Result<R, InputError> {
        if let Err(error) = input::check_declared(&self.inner.client_capabilities, kind) {
            if self.inner.era == Era::Modern {
                self.escalate(kind.missing());
            }
            return Err(error);
        }
        let runner = self
            .deferral()
            .filter(|deferral| !deferral.inside())
            .and_then(Deferral::requester);
        if self.inner.era == Era::Modern && runner.is_none() {
            let Some(exchange) = self.exchange() else {
                return Err(InputError::NotAllowed(self.inner.method.clone()));
            };
            let key = key.map_or_else(|| exchange.next_key(kind.key_prefix()), str::to_owned);
            if let Some(answer) = exchange.answer(&key) {
                return R::deserialize(answer).map_err(|e| {
                    let message = format!(
                        "Invalid inputResponses: the response under \"{key}\" is not a {} result: {e}",
                        kind.method()
                    );
                    self.escalate(ErrorObject::invalid_params(message.clone()));
                    InputError::Malformed(message)
                });
            }
            let params =
                serde_json::to_value(params).map_err(|e| InputError::Malformed(e.to_string()))?;
            let params = self
                .outbound(
                    OutboundKind::InputRequest,
                    kind.method(),
                    Some(&key),
                    params,
                )
                .await?;
            exchange.ask(key, kind.method(), params);
            return Err(InputError::Required);
        }
        self.ask_peer(runner, key, kind.method(), params).await
    }

    /// Asks the client with a request of `method` on a legacy session (or
    /// through `runner`, a deferred run's requester), through the sending
    /// interceptors.
    async fn ask_peer<P: serde::Serialize, R: DeserializeOwned>(
        &self,
        runner: Option<Arc<dyn ClientRequester>>,
        key: Option<&str>,
        method: &'static str,
        params: &P,
    ) -> Result<R, InputError> {
        let requester =
            runner
                .or_else(|| self.inner.requester.clone())
                .ok_or(InputError::Unavailable(
                    "the transport cannot send requests to the client",
                ))?;
        if self.inner.sending.is_none() {
            return self
                .wait(input::ask(&*requester, key, method, params))
                .await;
        }
        let params =
            serde_json::to_value(params).map_err(|e| InputError::Malformed(e.to_string()))?;
        let params = self
            .outbound(OutboundKind::Request, method, key, params)
            .await?;
        let answer: serde_json::Value = self
            .wait(input::ask(&*requester, key, method, &params))
            .await?;
        let answer = self
            .outbound(OutboundKind::Answer, method, key, answer)
            .await?;
        R::deserialize(answer).map_err(|e| InputError::Malformed(e.to_string()))
    }

    /// Sends the client a request of an extension's own method `M`
    /// (declared with `#[derive(Method)]`) and waits for its typed answer,
    /// through the sending interceptors, bounded by the input timeout and
    /// the request's cancellation.
    ///
    /// Only a 2025-11-25 session carries requests to the client besides
    /// input requests: a 2026-07-28 request asks for input only as an
    /// input-required result, of elicitation, sampling and roots. Whether
    /// the client understands `M` is the extension's to know (from
    /// [`client_capabilities`](Self::client_capabilities)).
    ///
    /// ```
    /// use mcp_server::context::InputError;
    /// use mcp_server::{Method, Params, RequestContext};
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Debug, Default, Serialize, Deserialize, Params)]
    /// struct Flags { keys: Vec<String> }
    ///
    /// #[derive(Debug, Serialize, Deserialize)]
    /// struct Values { values: serde_json::Map<String, serde_json::Value> }
    ///
    /// /// `com.example/flags`: the client's feature flags.
    /// #[derive(Method)]
    /// #[mcp(name = "com.example/flags", params = Flags, result = Values)]
    /// struct ReadFlags;
    ///
    /// async fn flags(ctx: &RequestContext) -> Option<Values> {
    ///     match ctx.request::<ReadFlags>(Flags { keys: vec!["beta".into()] }).await {
    ///         Ok(answer) => Some(answer),
    ///         // A 2026-07-28 request: ask another way.
    ///         Err(InputError::Unavailable(_)) => None,
    ///         Err(_) => None,
    ///     }
    /// }
    /// # let _ = flags;
    /// ```
    ///
    /// # Errors
    ///
    /// [`InputError::Unavailable`] on a 2026-07-28 request; otherwise as
    /// [`elicit`](Self::elicit) on a legacy session.
    pub async fn request<M: mcp_core::method::Method>(
        &self,
        params: M::Params,
    ) -> Result<M::Result, InputError> {
        if self.inner.era == Era::Modern {
            return Err(InputError::Unavailable(
                "a 2026-07-28 request carries no request to the client but the input \
                 requests of elicitation, sampling and roots",
            ));
        }
        self.ask_peer(None, None, M::NAME, &params).await
    }

    /// Awaits an answer, bounded by the input timeout and the request's cancellation.
    async fn wait<T>(
        &self,
        answer: impl std::future::Future<Output = Result<T, InputError>>,
    ) -> Result<T, InputError> {
        let timeout = self.inner.input_timeout;
        tokio::select! {
            () = self.inner.cancellation.cancelled() => Err(InputError::Cancelled),
            answer = tokio::time::timeout(timeout, answer) => {
                answer.unwrap_or(Err(InputError::TimedOut(timeout)))
            }
        }
    }

    /// Makes the request fail with `error`, whatever its handler returns:
    /// for failures that belong to the protocol, not to the tool.
    pub fn escalate(&self, error: ErrorObject) {
        // A deferred run still inside its request fails the request.
        let inner = match (&self.inner.origin, self.deferral()) {
            (Some(origin), Some(deferral)) if deferral.inside() => &**origin,
            _ => &*self.inner,
        };
        let mut slot = lock(&inner.escalation);
        slot.get_or_insert(error);
    }

    /// The error [`escalate`](Self::escalate) set, taken out.
    pub(crate) fn take_escalation(&self) -> Option<ErrorObject> {
        lock(&self.inner.escalation).take()
    }

    /// Stores a value for later interceptors and the handler of this request
    /// (a correlation id, a span), one per type.
    pub fn insert<T: Any + Send + Sync>(&self, value: T) {
        let mut extensions = lock(self.extensions());
        extensions.insert(TypeId::of::<T>(), Box::new(value));
    }

    /// A value stored with [`insert`](Self::insert), cloned out.
    pub fn get<T: Any + Send + Sync + Clone>(&self) -> Option<T> {
        let extensions = lock(self.extensions());
        extensions
            .get(&TypeId::of::<T>())?
            .downcast_ref::<T>()
            .cloned()
    }
}

/// What the runner of a deferred handler run decides: where its input
/// questions go, and whether the run is still inside its request.
#[derive(Default)]
pub(crate) struct Deferral {
    /// Where the run's input questions go, once it is outside its request.
    requester: std::sync::OnceLock<Arc<dyn ClientRequester>>,
    /// Set while the run is inside its request, until the handler releases it.
    release: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
}

impl Deferral {
    /// Sends the run's input questions to `requester`; the first set wins.
    pub(crate) fn ask_through(&self, requester: Arc<dyn ClientRequester>) {
        let _ = self.requester.set(requester);
    }

    fn requester(&self) -> Option<Arc<dyn ClientRequester>> {
        self.requester.get().cloned()
    }

    /// The run starts inside its request; `released` hears when it leaves.
    pub(crate) fn enter(&self) -> tokio::sync::oneshot::Receiver<()> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        *lock(&self.release) = Some(tx);
        rx
    }

    /// Whether the run is inside its request.
    pub(crate) fn inside(&self) -> bool {
        lock(&self.release).is_some()
    }

    /// The run leaves its request.
    pub(crate) fn release(&self) {
        if let Some(tx) = lock(&self.release).take() {
            let _ = tx.send(());
        }
    }
}

/// Input under a key the handler names; see [`RequestContext::input`].
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    ctx: &'a RequestContext,
    key: &'a str,
}

impl Input<'_> {
    /// [`RequestContext::elicit`], answered under this key.
    ///
    /// # Errors
    ///
    /// See [`RequestContext::elicit`].
    pub async fn elicit(self, params: ElicitRequestParams) -> Result<ElicitResult, InputError> {
        let kind = InputKind::of_elicitation(&params);
        self.ctx.ask(Some(self.key), kind, &params).await
    }

    /// [`RequestContext::sample`], answered under this key.
    ///
    /// # Errors
    ///
    /// See [`RequestContext::elicit`].
    pub async fn sample(
        self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, InputError> {
        let kind = InputKind::of_sampling(&params);
        self.ctx.ask(Some(self.key), kind, &params).await
    }

    /// [`RequestContext::list_roots`], answered under this key.
    ///
    /// # Errors
    ///
    /// See [`RequestContext::elicit`].
    pub async fn list_roots(self) -> Result<ListRootsResult, InputError> {
        let params = ListRootsRequestParams::default();
        self.ctx
            .ask(Some(self.key), InputKind::Roots, &params)
            .await
    }
}
