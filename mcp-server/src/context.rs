//! The request context: everything handler and interceptor code may know
//! about the request it serves, whatever the protocol era.
//!
//! ```
//! use mcp_server::context::RequestContext;
//! use mcp_server::core::version::Era;
//!
//! let ctx = RequestContext::for_tests();
//! assert_eq!(ctx.era(), Era::Modern);
//! assert!(!ctx.principal().is_authenticated());
//! assert!(!ctx.is_cancelled());
//! ```

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use mcp_core::capabilities::ClientCapabilities;
use mcp_core::content::Implementation;
use mcp_core::jsonrpc::RequestId;
use mcp_core::meta::RequestMeta;
use mcp_core::version::{self, Era};
use serde::de::DeserializeOwned;
use tokio_util::sync::CancellationToken;

use crate::sink::{ChangeSink, DiscardSink, LogSink, NotificationSink, ProgressSink};
use crate::source::Principal;

/// What handler and interceptor code knows about one request.
///
/// Cheap to clone: every clone shares the same request.
#[derive(Clone)]
pub struct RequestContext {
    inner: Arc<Inner>,
}

struct Inner {
    id: RequestId,
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
    changes: Arc<dyn ChangeSink>,
    extensions: Mutex<HashMap<TypeId, Box<dyn Any + Send + Sync>>>,
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
    pub(crate) id: RequestId,
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
    pub(crate) changes: Arc<dyn ChangeSink>,
}

impl RequestContext {
    pub(crate) fn new(parts: ContextParts) -> Self {
        let progress = ProgressSink::new(
            parts.meta.progress_token.clone(),
            parts.notifications.clone(),
        );
        let log = LogSink::new(parts.log_level, parts.notifications);
        Self {
            inner: Arc::new(Inner {
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
                changes: parts.changes,
                extensions: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// A modern-era context for an anonymous caller, for unit tests of handler code.
    pub fn for_tests() -> Self {
        Self::new(ContextParts {
            id: RequestId::Number(0),
            method: "tools/call".into(),
            era: Era::Modern,
            protocol_version: Some(version::LATEST.into()),
            client_capabilities: Box::default(),
            client_info: None,
            principal: Arc::new(Principal::anonymous()),
            cancellation: CancellationToken::new(),
            meta: RequestMeta::default(),
            notifications: Arc::new(DiscardSink),
            log_level: None,
            changes: Arc::new(crate::sink::BroadcastChangeSink::default()),
        })
    }

    /// The JSON-RPC id of the request.
    pub fn id(&self) -> &RequestId {
        &self.inner.id
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
        &*self.inner.changes
    }

    /// The request's `_meta`, reserved keys typed and the rest in `extra`.
    pub fn meta(&self) -> &RequestMeta {
        &self.inner.meta
    }

    /// Reads a `_meta` key as a `T`; `None` when absent or of another shape.
    pub fn meta_value<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        T::deserialize(self.inner.meta.extra.get(key)?).ok()
    }

    /// Stores a value for later interceptors and the handler of this request
    /// (a correlation id, a span), one per type.
    pub fn insert<T: Any + Send + Sync>(&self, value: T) {
        let mut extensions = self
            .inner
            .extensions
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        extensions.insert(TypeId::of::<T>(), Box::new(value));
    }

    /// A value stored with [`insert`](Self::insert), cloned out.
    pub fn get<T: Any + Send + Sync + Clone>(&self) -> Option<T> {
        let extensions = self
            .inner
            .extensions
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        extensions
            .get(&TypeId::of::<T>())?
            .downcast_ref::<T>()
            .cloned()
    }
}
