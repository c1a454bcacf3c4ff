//! The in-memory client: drives a built server from tests (or from an
//! application) without any I/O, through the same pipeline as a transport.
//!
//! The client speaks the 2026-07-28 era by default, filling each request's
//! `_meta` with the protocol version and its capabilities, and records the
//! notifications the server sends back; [`MemoryClient::initialize`] makes
//! it a 2025-11-25 session.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! use mcp_server::{Server, origin};
//! use mcp_server::seam::contributor::contributor_fn;
//! use mcp_server::handler::handler_fn;
//! use mcp_server::testing::MemoryClient;
//! use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
//!
//! let server = Server::builder().without_linked()
//!     .contributor(origin!(), "tools", contributor_fn(|c| {
//!         c.tool(Tool { name: "hello".into(), ..Default::default() },
//!                handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("hello!")) }));
//!     }))
//!     .build();
//! let client = MemoryClient::new(&server);
//! let result = client.call_tool("hello", serde_json::json!({})).await.unwrap();
//! assert_eq!(result.content, CallToolResult::text("hello!").content);
//! # });
//! ```

use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use mcp_core::capabilities::ClientCapabilities;
use mcp_core::error::ErrorObject;
use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::jsonrpc::{JsonRpcVersion, Notification, Request, RequestId};
use mcp_core::meta;
use mcp_core::method::Method;
use mcp_core::mrtr::InputRequiredResult;
use mcp_core::result::ResultType;
use mcp_core::tools::{CallTool, CallToolRequestParams, CallToolResult, ListTools, Tool};
use mcp_core::version::{self, Era};
use serde::de::DeserializeOwned;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::context::input::ClientRequester;
use crate::context::{DEFAULT_INPUT_TIMEOUT, Negotiated, Session};
use crate::handler::{AlternateResult, Reply};
use crate::seam::sink::{Change, NotificationSink};
use crate::server::{Peer, Server};
use crate::vocabulary::auth::Credentials;
use crate::vocabulary::lock;

/// The transport name of a memory client's session.
const TRANSPORT: &str = "memory";

/// Records notifications in arrival order.
#[derive(Debug, Default)]
struct Recorder(Mutex<Vec<Notification>>);

impl NotificationSink for Recorder {
    fn send(&self, notification: Notification) {
        lock(&self.0).push(notification);
    }
}

/// Forwards notifications to a channel, counting those not read yet.
struct Forward {
    sender: tokio::sync::mpsc::UnboundedSender<Notification>,
    unread: Arc<std::sync::atomic::AtomicUsize>,
}

impl NotificationSink for Forward {
    fn send(&self, notification: Notification) {
        if self.sender.send(notification).is_ok() {
            self.unread.fetch_add(1, Ordering::AcqRel);
        }
    }

    fn backlog(&self) -> usize {
        self.unread.load(Ordering::Acquire)
    }
}

/// One `subscriptions/listen` stream of a [`MemoryClient`].
#[derive(Debug)]
pub struct Subscription {
    notifications: tokio::sync::mpsc::UnboundedReceiver<Notification>,
    unread: Arc<std::sync::atomic::AtomicUsize>,
    response: Option<tokio::task::JoinHandle<JsonValue>>,
    /// Cancels the request when the subscription is dropped.
    _cancellation: tokio_util::sync::DropGuard,
}

impl Subscription {
    /// The next notification on the stream; `None` once it ended.
    pub async fn next(&mut self) -> Option<Notification> {
        let next = self.notifications.recv().await;
        self.read(next)
    }

    /// The next notification, if one arrives within `wait`.
    pub async fn next_within(&mut self, wait: std::time::Duration) -> Option<Notification> {
        let next = tokio::time::timeout(wait, self.notifications.recv())
            .await
            .ok()
            .flatten();
        self.read(next)
    }

    fn read(&self, next: Option<Notification>) -> Option<Notification> {
        if next.is_some() {
            self.unread.fetch_sub(1, Ordering::AcqRel);
        }
        next
    }

    /// The response that ends the stream (the listen result, or an error),
    /// once the server sent it.
    pub async fn response(&mut self) -> JsonValue {
        match self.response.take() {
            Some(response) => response.await.expect("the listen request does not panic"),
            None => JsonValue::Null,
        }
    }
}

/// A client connected to a server in memory.
pub struct MemoryClient {
    server: Server,
    credentials: Credentials,
    capabilities: ClientCapabilities,
    session: Option<Arc<Session>>,
    next_id: AtomicI64,
    notifications: Arc<Recorder>,
    requester: Option<Arc<dyn ClientRequester>>,
}

impl fmt::Debug for MemoryClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryClient")
            .field("server", &self.server)
            .finish_non_exhaustive()
    }
}

impl MemoryClient {
    /// A modern-era client of `server`, without credentials or capabilities.
    pub fn new(server: &Server) -> Self {
        Self {
            server: server.clone(),
            credentials: Credentials::none(),
            capabilities: ClientCapabilities::default(),
            session: None,
            next_id: AtomicI64::new(1),
            requester: None,
            notifications: Arc::default(),
        }
    }

    /// Sends these credentials with every request.
    #[must_use]
    pub fn with_credentials(mut self, credentials: Credentials) -> Self {
        self.credentials = credentials;
        self
    }

    /// Answers the server's input requests (elicitation, sampling, roots)
    /// with `requester`, as a legacy client would on its session.
    #[must_use]
    pub fn with_requester(mut self, requester: impl ClientRequester) -> Self {
        self.requester = Some(Arc::new(requester));
        self
    }

    /// Declares these capabilities with every request.
    #[must_use]
    pub fn with_capabilities(mut self, capabilities: ClientCapabilities) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Speaks the legacy era, as if `initialize` had negotiated `negotiated`.
    #[must_use]
    pub fn legacy(mut self, negotiated: Negotiated) -> Self {
        let session = Session::over(TRANSPORT).with_negotiated(negotiated);
        self.session = Some(Arc::new(session));
        self
    }

    /// Talks over a session that may become a legacy one, as a stdio
    /// process or an HTTP client does: 2026-07-28 requests until
    /// [`initialize`](Self::initialize) is answered, 2025-11-25 after.
    #[must_use]
    pub fn connected(mut self) -> Self {
        self.session = Some(Arc::new(Session::over(TRANSPORT)));
        self
    }

    /// Sends `initialize` for `version` with this client's capabilities,
    /// through the whole pipeline, then `notifications/initialized`; the
    /// client speaks the legacy era once it is answered.
    ///
    /// # Errors
    ///
    /// The server's error, when it refuses the `initialize`.
    pub async fn initialize(&self, version: &str) -> Result<JsonValue, ErrorObject> {
        if self.session.is_none() {
            return Err(ErrorObject::invalid_request(
                "`initialize` needs a connection: make the client with `connected()`",
            ));
        }
        let params = json!({
            "protocolVersion": version,
            "capabilities": self.capabilities,
            "clientInfo": {"name": "memory-client", "version": env!("CARGO_PKG_VERSION")},
        });
        let result = self.request_raw("initialize", params).await?;
        let notification = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        self.send(&notification).await;
        Ok(result)
    }

    /// What this client's session would be told of `change` by a
    /// transport (list changes, and updates of the resources it subscribed
    /// to); `None` for a client without a negotiated session.
    pub fn notification_for(&self, change: &Change) -> Option<Notification> {
        self.session.as_ref()?.notification_for(change)
    }

    /// What `initialize` negotiated, if it was answered.
    pub fn negotiated(&self) -> Option<Arc<Negotiated>> {
        self.session.as_ref()?.negotiated()
    }

    fn peer(&self, cancellation: CancellationToken) -> Peer {
        let peer = match &self.session {
            Some(session) => Peer::on(session.clone()),
            None => Peer::modern(),
        };
        peer.with_credentials(self.credentials.clone())
            .with_notifications(self.notifications.clone())
            .with_cancellation(cancellation)
            .with_requester(self.requester.clone(), DEFAULT_INPUT_TIMEOUT)
    }

    fn era(&self, method: &str) -> Era {
        match &self.session {
            Some(session) => Peer::on(session.clone()).era_for(method),
            None => Era::Modern,
        }
    }

    /// Sends one JSON message as is; returns the response, if any.
    pub async fn send(&self, message: &JsonValue) -> Option<JsonValue> {
        let bytes = serde_json::to_vec(message).expect("a JSON value serializes");
        let response = self
            .server
            .handle(&bytes, &self.peer(CancellationToken::new()))
            .await?;
        serde_json::from_slice(&response).ok()
    }

    /// Sends one request for `method` with `params`, adding the modern `_meta`
    /// keys it lacks; returns the response's `result` or `error`.
    pub async fn request_raw(
        &self,
        method: &str,
        params: JsonValue,
    ) -> Result<JsonValue, ErrorObject> {
        self.request_cancellable(method, params, CancellationToken::new())
            .await
    }

    /// Like [`request_raw`](Self::request_raw), with a cancellation token the
    /// caller may fire while the request runs.
    ///
    /// A client made [`with_requester`](Self::with_requester) completes
    /// 2026-07-28 multi round-trip exchanges itself, as a real client does:
    /// it answers each input-required result's requests with the requester
    /// and retries with the answers and the `requestState`, until the result
    /// is no longer input-required (at most 32 rounds). Without a requester
    /// the input-required result is returned as it came.
    pub async fn request_cancellable(
        &self,
        method: &str,
        mut params: JsonValue,
        cancellation: CancellationToken,
    ) -> Result<JsonValue, ErrorObject> {
        let modern = self.era(method) == Era::Modern;
        if modern {
            self.fill_meta(&mut params);
        }
        let mut result = self
            .send_request(method, &params, cancellation.clone())
            .await?;
        let Some(requester) = self.requester.as_ref().filter(|_| modern) else {
            return Ok(result);
        };
        for _ in 0..32 {
            if result.get("resultType").and_then(JsonValue::as_str)
                != Some(ResultType::INPUT_REQUIRED.as_str())
            {
                break;
            }
            let mut responses = JsonObject::new();
            let requests = result
                .get("inputRequests")
                .and_then(JsonValue::as_object)
                .cloned()
                .unwrap_or_default();
            for (key, request) in requests {
                let asked = request.get("method").and_then(JsonValue::as_str);
                let Some(method) = ["elicitation/create", "sampling/createMessage", "roots/list"]
                    .into_iter()
                    .find(|m| Some(*m) == asked)
                else {
                    return Err(ErrorObject::internal_error(format!(
                        "the server asked for an unknown kind of input: {request}"
                    )));
                };
                let params = request.get("params").cloned().unwrap_or_else(|| json!({}));
                let answer = requester.request(method, params).await.map_err(|e| {
                    ErrorObject::internal_error(format!("the requester failed: {e}"))
                })?;
                responses.insert(key, answer);
            }
            let object = params.as_object_mut().expect("filled params are an object");
            object.insert("inputResponses".into(), JsonValue::Object(responses));
            match result.get("requestState") {
                Some(state) => object.insert("requestState".into(), state.clone()),
                None => object.remove("requestState"),
            };
            result = self
                .send_request(method, &params, cancellation.clone())
                .await?;
        }
        Ok(result)
    }

    /// A request for `method` with `params`, under this client's next id.
    fn next_request(&self, method: &str, params: &JsonValue) -> Request {
        Request {
            jsonrpc: JsonRpcVersion,
            id: RequestId::Number(self.next_id.fetch_add(1, Ordering::Relaxed)),
            method: method.to_owned(),
            params: Some(serde_json::value::to_raw_value(params).expect("a JSON value serializes")),
        }
    }

    /// Sends one request and returns its `result`, or its error.
    async fn send_request(
        &self,
        method: &str,
        params: &JsonValue,
        cancellation: CancellationToken,
    ) -> Result<JsonValue, ErrorObject> {
        let request = self.next_request(method, params);
        let response = self
            .server
            .handle_request(request, &self.peer(cancellation))
            .await;
        let mut response: JsonObject =
            serde_json::from_slice(&response).expect("the server answers JSON");
        match (response.remove("result"), response.remove("error")) {
            (Some(result), _) => Ok(result),
            (None, Some(error)) => {
                Err(serde_json::from_value(error).expect("a JSON-RPC error object"))
            }
            (None, None) => Err(ErrorObject::internal_error(
                "a response with neither result nor error",
            )),
        }
    }

    /// Opens a `subscriptions/listen` stream with filter `notifications`
    /// (such as `{"toolsListChanged": true}`); its first notification is
    /// the acknowledgement. Dropping the subscription closes the stream, as
    /// a client closing its HTTP response does.
    pub fn listen(&self, notifications: JsonValue) -> Subscription {
        let mut params = json!({ "notifications": notifications });
        self.fill_meta(&mut params);
        let request = self.next_request("subscriptions/listen", &params);
        let (sender, notifications) = tokio::sync::mpsc::unbounded_channel();
        let unread = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let cancellation = CancellationToken::new();
        let peer = self
            .peer(cancellation.clone())
            .with_notifications(Arc::new(Forward {
                sender,
                unread: unread.clone(),
            }));
        let server = self.server.clone();
        let response = tokio::spawn(async move {
            let response = server.handle_request(request, &peer).await;
            serde_json::from_slice::<JsonValue>(&response).expect("the server answers JSON")
        });
        Subscription {
            notifications,
            unread,
            response: Some(response),
            _cancellation: cancellation.drop_guard(),
        }
    }

    /// Sends a request for method `M` and decodes its reply.
    pub async fn request<M: Method>(
        &self,
        params: &M::Params,
    ) -> Result<Reply<M::Result>, ErrorObject> {
        let params = serde_json::to_value(params).expect("params serialize");
        let result = self.request_raw(M::NAME, params).await?;
        decode_reply(result)
    }

    /// Calls a tool and returns its complete result.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: JsonValue,
    ) -> Result<CallToolResult, ErrorObject> {
        let params = CallToolRequestParams {
            name: name.to_owned(),
            arguments: arguments.as_object().cloned(),
            ..Default::default()
        };
        match self.request::<CallTool>(&params).await? {
            Reply::Complete(result) => Ok(result),
            other => Err(ErrorObject::internal_error(format!(
                "expected a complete result, got `{}`",
                other.result_type().as_str()
            ))),
        }
    }

    /// Lists every tool, following cursors.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ErrorObject> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let params = mcp_core::pagination::PaginatedRequestParams {
                cursor: cursor.take(),
                ..Default::default()
            };
            let Reply::Complete(page) = self.request::<ListTools>(&params).await? else {
                return Err(ErrorObject::internal_error(
                    "tools/list answered with a non-complete result",
                ));
            };
            tools.extend(page.tools);
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return Ok(tools),
            }
        }
    }

    /// Takes the notifications received so far.
    pub fn take_notifications(&self) -> Vec<Notification> {
        std::mem::take(&mut *lock(&self.notifications.0))
    }

    fn fill_meta(&self, params: &mut JsonValue) {
        if !params.is_object() {
            *params = json!({});
        }
        let object = params.as_object_mut().expect("an object");
        let meta = object.entry("_meta").or_insert_with(|| json!({}));
        if let Some(meta) = meta.as_object_mut() {
            meta.entry(meta::PROTOCOL_VERSION)
                .or_insert_with(|| version::LATEST.into());
            meta.entry(meta::CLIENT_CAPABILITIES).or_insert_with(|| {
                serde_json::to_value(&self.capabilities).expect("capabilities serialize")
            });
        }
    }
}

/// Decodes a `result` by its `resultType`.
fn decode_reply<T: DeserializeOwned>(result: JsonValue) -> Result<Reply<T>, ErrorObject> {
    let bad = |e: serde_json::Error| {
        ErrorObject::internal_error(format!("the result does not decode: {e}"))
    };
    let kind = result
        .get("resultType")
        .and_then(JsonValue::as_str)
        .unwrap_or("complete")
        .to_owned();
    if kind == ResultType::COMPLETE.as_str() {
        serde_json::from_value(result)
            .map(Reply::Complete)
            .map_err(bad)
    } else if kind == ResultType::INPUT_REQUIRED.as_str() {
        serde_json::from_value::<InputRequiredResult>(result)
            .map(Reply::InputRequired)
            .map_err(bad)
    } else {
        let JsonValue::Object(mut body) = result else {
            return Err(ErrorObject::internal_error(
                "a result that is not an object",
            ));
        };
        body.remove("resultType");
        Ok(Reply::Alternate(AlternateResult {
            result_type: ResultType(kind.into()),
            body,
        }))
    }
}
