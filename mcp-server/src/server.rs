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
use mcp_core::jsonrpc::{self, ErrorResponse, Message, Request, RequestId, ResultResponse};
use mcp_core::logging::LoggingLevel;
use mcp_core::meta::{self, RequestMeta};
use mcp_core::version::{self, Era};
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio_util::sync::CancellationToken;

use crate::boot::{BootReport, Builder};
use crate::context::{ContextParts, DEFAULT_INPUT_TIMEOUT, RequestContext};
use crate::input::ClientRequester;
use crate::interceptor::{RawCall, RawChain, RawNext};
use crate::sink::{Change, ChangeSink, DiscardSink, Fanout, NotificationSink};
use crate::source::{Credentials, PrincipalSource};
use crate::store::EventStore;
use crate::strategy::KeyStrategy;

/// An assembled MCP server. Clones share it.
#[derive(Clone)]
pub struct Server {
    inner: Arc<ServerInner>,
}

pub(crate) struct ServerInner {
    pub(crate) info: Implementation,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) instructions: Option<String>,
    pub(crate) raw: RawChain,
    pub(crate) principal_source: Arc<dyn PrincipalSource>,
    pub(crate) key_strategy: Arc<dyn KeyStrategy>,
    pub(crate) changes: Arc<Fanout>,
    pub(crate) event_store: Arc<dyn EventStore>,
    /// By tool: the arguments mirrored in `Mcp-Param-*` headers.
    pub(crate) param_headers: std::collections::HashMap<String, Vec<crate::tool::ParamHeader>>,
    /// The server's `Implementation`, encoded once for modern results' `_meta`.
    pub(crate) server_info: Box<RawValue>,
    /// `"_meta":{"io.modelcontextprotocol/serverInfo":…}`, for results without `_meta`.
    pub(crate) server_info_member: String,
    pub(crate) report: BootReport,
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("info", &self.inner.info)
            .finish_non_exhaustive()
    }
}

/// Who sends a request, as the transport knows it.
#[derive(Clone)]
pub struct Caller {
    /// The era of the connection: modern unless a legacy session was negotiated.
    pub era: Era,
    /// The caller's credentials, for the principal source.
    pub credentials: Credentials,
    /// Where this request's progress and log notifications go.
    pub notifications: Arc<dyn NotificationSink>,
    /// Fires when the client cancels the request or goes away.
    pub cancellation: CancellationToken,
    /// What a legacy session negotiated; `None` for modern requests.
    pub session: Option<Arc<Session>>,
    /// Carries input requests to the client, when the transport can.
    pub requester: Option<Arc<dyn ClientRequester>>,
    /// How long a handler waits for the client's answer to an input request.
    pub input_timeout: Duration,
}

impl fmt::Debug for Caller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Caller")
            .field("era", &self.era)
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

impl Caller {
    /// A modern-era caller without credentials whose notifications are dropped.
    pub fn modern() -> Self {
        Self {
            era: Era::Modern,
            credentials: Credentials::none(),
            notifications: Arc::new(DiscardSink),
            cancellation: CancellationToken::new(),
            session: None,
            requester: None,
            input_timeout: DEFAULT_INPUT_TIMEOUT,
        }
    }
}

/// What a legacy (2025-11-25) client negotiated with `initialize`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Session {
    /// The negotiated protocol version.
    pub protocol_version: String,
    /// The client's capabilities.
    pub client_capabilities: ClientCapabilities,
    /// The client's identity.
    pub client_info: Option<Implementation>,
    /// The level set with `logging/setLevel`.
    pub log_level: Option<LoggingLevel>,
}

/// Only the `_meta` of a request's params.
#[derive(Deserialize)]
struct MetaOnly {
    #[serde(rename = "_meta", default)]
    meta: Option<RequestMeta>,
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

    /// The server's capabilities.
    pub fn capabilities(&self) -> &ServerCapabilities {
        &self.inner.capabilities
    }

    /// The instructions for the model, if any.
    pub fn instructions(&self) -> Option<&str> {
        self.inner.instructions.as_deref()
    }

    /// What boot assembled.
    pub fn report(&self) -> &BootReport {
        &self.inner.report
    }

    /// The active key strategy.
    pub fn key_strategy(&self) -> &dyn KeyStrategy {
        &*self.inner.key_strategy
    }

    /// Where changes are published: the active change sink, and this
    /// instance's own listeners.
    pub fn changes(&self) -> &dyn ChangeSink {
        &*self.inner.changes
    }

    /// The arguments of `tool` a 2026-07-28 client mirrors in
    /// `Mcp-Param-*` headers (those its schema marks `x-mcp-header`).
    pub fn param_headers(&self, tool: &str) -> &[crate::tool::ParamHeader] {
        self.inner
            .param_headers
            .get(tool)
            .map_or(&[], Vec::as_slice)
    }

    /// The active event store.
    pub fn event_store(&self) -> &Arc<dyn EventStore> {
        &self.inner.event_store
    }

    /// A listener for the changes published through this server, as a
    /// transport needs to tell its legacy sessions about them.
    pub fn listen_changes(&self) -> tokio::sync::broadcast::Receiver<Change> {
        self.inner.changes.listen()
    }

    /// Serves one message: a request gets its encoded response; a
    /// notification or a response gets `None`; bytes that are not a message
    /// get the error response.
    pub async fn handle(&self, bytes: &[u8], caller: &Caller) -> Option<Vec<u8>> {
        match jsonrpc::decode(bytes) {
            Ok(Message::Request(request)) => Some(self.handle_request(request, caller).await),
            Ok(Message::Notification(_) | Message::Response(_)) => None,
            Err(error) => Some(encode_error(error.id, error.error)),
        }
    }

    /// Serves one decoded request and returns the encoded response.
    pub async fn handle_request(&self, request: Request, caller: &Caller) -> Vec<u8> {
        let id = request.id.clone();
        match self.answer(request, None, caller).await {
            Ok(result) => serde_json::to_vec(&ResultResponse::new(id, result)).unwrap_or_default(),
            Err(error) => encode_error(Some(id), error),
        }
    }

    /// Serves one decoded request: its result, or the error to answer with.
    /// `meta` is the request's `_meta` when the transport decoded it
    /// already; `None` decodes it here.
    pub(crate) async fn answer(
        &self,
        request: Request,
        meta: Option<RequestMeta>,
        caller: &Caller,
    ) -> Result<Box<RawValue>, ErrorObject> {
        let Request {
            id, method, params, ..
        } = request;
        // A panicking handler answers -32603 like any failure: the client
        // gets its response and the transport goes on.
        let served = AssertUnwindSafe(self.serve(&id, method, params.as_deref(), meta, caller))
            .catch_unwind()
            .await;
        let result = served.unwrap_or_else(|_| {
            Err(ErrorObject::internal_error(
                "Internal error: the handler panicked",
            ))
        })?;
        if caller.era == Era::Modern {
            return Ok(with_server_info(result, &self.inner));
        }
        Ok(result)
    }

    async fn serve(
        &self,
        id: &RequestId,
        method: String,
        params: Option<&RawValue>,
        decoded: Option<RequestMeta>,
        caller: &Caller,
    ) -> Result<Box<RawValue>, ErrorObject> {
        // An unknown method, or one of the other era, is not found before
        // anything else is checked: a client probing for its era learns it here.
        let Some(route) = self
            .inner
            .raw
            .routes
            .get(method.as_str())
            .filter(|r| r.eras().contains(&caller.era))
        else {
            return Err(ErrorObject::method_not_found(&method));
        };
        let meta = match (decoded, params) {
            (Some(meta), _) => Some(meta),
            (None, Some(raw)) => {
                serde_json::from_str::<MetaOnly>(raw.get())
                    .map_err(|e| ErrorObject::invalid_params(format!("Invalid params: {e}")))?
                    .meta
            }
            (None, None) => None,
        };
        let ctx = self.context(id, method, meta, caller)?;
        let call = RawCall::new(&ctx, params, route);
        let answer = RawNext::new(&self.inner.raw, 0).run(&call).await;
        // A failure that belongs to the protocol (a missing client
        // capability) wins over whatever the handler made of it.
        if let Some(error) = ctx.take_escalation() {
            return Err(error);
        }
        Ok(answer?.into_result())
    }

    fn context(
        &self,
        id: &RequestId,
        method: String,
        meta: Option<RequestMeta>,
        caller: &Caller,
    ) -> Result<RequestContext, ErrorObject> {
        let principal = self.inner.principal_source.principal(&caller.credentials);
        let mut meta = meta.unwrap_or_default();
        let (protocol_version, client_capabilities, client_info, log_level) = match &caller.session
        {
            Some(session) => (
                Some(session.protocol_version.clone()),
                Box::new(session.client_capabilities.clone()),
                session.client_info.clone().map(Box::new),
                session.log_level,
            ),
            None => {
                let requested = meta
                    .protocol_version
                    .take()
                    .ok_or_else(|| crate::error::missing_meta(meta::PROTOCOL_VERSION))?;
                version::negotiate_modern(&requested, version::SUPPORTED)
                    .map_err(ErrorObject::from)?;
                let capabilities = meta
                    .client_capabilities
                    .take()
                    .ok_or_else(|| crate::error::missing_meta(meta::CLIENT_CAPABILITIES))?;
                (
                    Some(requested),
                    capabilities,
                    meta.client_info.take(),
                    meta.log_level,
                )
            }
        };
        Ok(RequestContext::new(ContextParts {
            id: id.clone(),
            method,
            era: caller.era,
            protocol_version,
            client_capabilities,
            client_info,
            principal,
            cancellation: caller.cancellation.clone(),
            meta,
            notifications: caller.notifications.clone(),
            log_level,
            changes: self.inner.changes.clone(),
            requester: caller.requester.clone(),
            input_timeout: caller.input_timeout,
        }))
    }
}

/// Adds `_meta["io.modelcontextprotocol/serverInfo"]` to a modern result
/// that does not name the server yet.
fn with_server_info(result: Box<RawValue>, inner: &ServerInner) -> Box<RawValue> {
    // Keys are owned: a borrowed key cannot hold an escaped member name.
    type Members<'a> = indexmap::IndexMap<String, &'a RawValue>;
    let Ok(mut members) = serde_json::from_str::<Members<'_>>(result.get()) else {
        return result;
    };
    let mut meta: Members<'_> = match members.get("_meta").map(|m| m.get()) {
        // Most results have no `_meta`: the member encoded at boot goes first.
        None => return splice(&result, &inner.server_info_member).unwrap_or(result),
        Some("null") => Members::new(),
        Some(meta) => match serde_json::from_str(meta) {
            Ok(meta) => meta,
            Err(_) => return result,
        },
    };
    if meta.contains_key(meta::SERVER_INFO) {
        return result;
    }
    meta.insert(meta::SERVER_INFO.to_owned(), &inner.server_info);
    let Ok(meta_text) = serde_json::to_string(&meta) else {
        return result;
    };
    let Ok(meta_raw) = serde_json::from_str::<&RawValue>(&meta_text) else {
        return result;
    };
    members.insert("_meta".to_owned(), meta_raw);
    serde_json::to_string(&members)
        .ok()
        .and_then(|text| RawValue::from_string(text).ok())
        .unwrap_or(result)
}

/// `object` with `member` (`"key":value`) as its first member.
fn splice(object: &RawValue, member: &str) -> Option<Box<RawValue>> {
    let rest = object.get().trim().strip_prefix('{')?.trim_start();
    let text = if rest.starts_with('}') {
        format!("{{{member}}}")
    } else {
        format!("{{{member},{rest}")
    };
    RawValue::from_string(text).ok()
}

fn encode_error(id: Option<RequestId>, error: ErrorObject) -> Vec<u8> {
    serde_json::to_vec(&ErrorResponse::new(id, error)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_info(result: &str) -> serde_json::Value {
        let server = Server::builder().without_linked().named("s", "1").build();
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
