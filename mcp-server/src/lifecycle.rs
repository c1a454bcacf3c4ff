//! The legacy (2025-11-25) lifecycle a transport runs before and beside the
//! pipeline: `initialize`, `ping` and `logging/setLevel`.
//!
//! A 2025-11-25 client negotiates once per stdio process or HTTP session;
//! what it negotiated becomes the [`Session`] of every later request.
//!
//! ```
//! use mcp_server::legacy;
//! use mcp_server::core::legacy::initialize::InitializeRequestParams;
//! use mcp_server::core::content::Implementation;
//!
//! let server = mcp_server::Server::builder().without_linked().named("demo", "1.0.0").build();
//! let params = InitializeRequestParams::new("2025-06-18", Default::default(), Implementation::new("client", "1"));
//! let (session, result) = legacy::initialize(&server, params);
//! assert_eq!(result.protocol_version, "2025-06-18");
//! assert_eq!(session.protocol_version, "2025-06-18");
//! assert_eq!(result.server_info.name, "demo");
//! ```

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use mcp_core::error::ErrorObject;
use mcp_core::jsonrpc::{ErrorResponse, Notification, Request, RequestId, ResultResponse};
use mcp_core::legacy::initialize::{InitializeRequestParams, InitializeResult};
use mcp_core::legacy::logging::SetLevelRequestParams;
use mcp_core::legacy::subscribe::{SubscribeRequestParams, UnsubscribeRequestParams};
use mcp_core::resources::ResourceUpdatedNotificationParams;
use mcp_core::version;
use serde::Serialize;

use crate::lock::lock;
use crate::server::{Server, Session};
use crate::sink::Change;

/// Answers `initialize`: echoes a supported legacy version (or offers the
/// newest one), and returns the session the client's later requests carry.
pub fn initialize(server: &Server, params: InitializeRequestParams) -> (Session, InitializeResult) {
    let negotiated =
        version::negotiate_legacy(&params.protocol_version, version::SUPPORTED).version();
    let session = Session {
        protocol_version: negotiated.to_owned(),
        client_capabilities: params.capabilities,
        client_info: Some(params.client_info),
        log_level: None,
    };
    let mut capabilities = server.capabilities().clone();
    // What a legacy connection adds to the server's own capabilities: log
    // levels, list-change notifications and resource subscriptions.
    capabilities.logging.get_or_insert_default();
    if let Some(tools) = capabilities.tools.as_mut() {
        tools.list_changed.get_or_insert(true);
    }
    if let Some(prompts) = capabilities.prompts.as_mut() {
        prompts.list_changed.get_or_insert(true);
    }
    if let Some(resources) = capabilities.resources.as_mut() {
        resources.list_changed.get_or_insert(true);
        resources.subscribe.get_or_insert(true);
    }
    let result = InitializeResult {
        meta: None,
        protocol_version: negotiated.to_owned(),
        capabilities,
        server_info: server.info().clone(),
        instructions: server.instructions().map(str::to_owned),
    };
    (session, result)
}

/// How many resources one legacy connection may watch at once.
pub const MAX_SUBSCRIPTIONS: usize = 1024;

/// What one legacy connection (a stdio process, an HTTP session)
/// remembers: what `initialize` negotiated, the log level, and the
/// resources it subscribed to.
#[derive(Debug, Default)]
pub(crate) struct Lifecycle {
    session: Mutex<Option<Arc<Session>>>,
    subscriptions: Mutex<BTreeSet<String>>,
}

impl Lifecycle {
    /// The negotiated session, once `initialize` was answered.
    pub(crate) fn session(&self) -> Option<Arc<Session>> {
        lock(&self.session).clone()
    }

    /// Answers the lifecycle methods a legacy connection owns (`initialize`,
    /// and once initialized `ping`, `logging/setLevel`,
    /// `resources/subscribe` and `resources/unsubscribe`); `None` for the rest.
    pub(crate) fn answer(&self, server: &Server, request: &Request) -> Option<Vec<u8>> {
        let initialized = self.session().is_some();
        let answer = match request.method.as_str() {
            "initialize" => request
                .params_as::<InitializeRequestParams>()
                .map(|params| {
                    let (session, result) = initialize(server, params);
                    *lock(&self.session) = Some(Arc::new(session));
                    encode_result(&request.id, &result)
                }),
            "ping" if initialized => Ok(encode_result(&request.id, &EMPTY)),
            "logging/setLevel" if initialized => {
                request.params_as::<SetLevelRequestParams>().map(|params| {
                    let mut session = lock(&self.session);
                    if let Some(current) = session.as_mut() {
                        let mut updated = Session::clone(current);
                        updated.log_level = Some(params.level);
                        *current = Arc::new(updated);
                    }
                    encode_result(&request.id, &EMPTY)
                })
            }
            "resources/subscribe" if initialized => {
                request
                    .params_as::<SubscribeRequestParams>()
                    .and_then(|params| {
                        let mut subscriptions = lock(&self.subscriptions);
                        if subscriptions.len() >= MAX_SUBSCRIPTIONS
                            && !subscriptions.contains(&params.uri)
                        {
                            return Err(ErrorObject::invalid_params(format!(
                                "Too many subscriptions: a session may watch {MAX_SUBSCRIPTIONS} resources"
                            )));
                        }
                        subscriptions.insert(params.uri);
                        Ok(encode_result(&request.id, &EMPTY))
                    })
            }
            "resources/unsubscribe" if initialized => request
                .params_as::<UnsubscribeRequestParams>()
                .map(|params| {
                    lock(&self.subscriptions).remove(&params.uri);
                    encode_result(&request.id, &EMPTY)
                }),
            _ => return None,
        };
        Some(answer.unwrap_or_else(|error| {
            serde_json::to_vec(&ErrorResponse::new(Some(request.id.clone()), error))
                .unwrap_or_default()
        }))
    }

    /// The notification a change becomes on this connection, if it hears of it:
    /// list changes always, resource updates when subscribed.
    pub(crate) fn notification_for(&self, change: &Change) -> Option<Notification> {
        let (method, params) = match change {
            Change::ToolsListChanged => ("notifications/tools/list_changed", None),
            Change::PromptsListChanged => ("notifications/prompts/list_changed", None),
            Change::ResourcesListChanged => ("notifications/resources/list_changed", None),
            Change::ResourceUpdated(uri) => {
                if !lock(&self.subscriptions).contains(uri) {
                    return None;
                }
                (
                    "notifications/resources/updated",
                    Some(ResourceUpdatedNotificationParams {
                        meta: None,
                        uri: uri.clone(),
                    }),
                )
            }
        };
        match params {
            Some(params) => Notification::new(method, &params).ok(),
            None => Notification::new(method, &serde_json::json!({})).ok(),
        }
    }
}

/// A legacy empty result: exactly `{}`, as 2025-11-25 clients check.
#[derive(Serialize)]
struct Empty {}

const EMPTY: Empty = Empty {};

fn encode_result<T: Serialize>(id: &RequestId, result: &T) -> Vec<u8> {
    serde_json::to_vec(&ResultResponse::new(id.clone(), result)).unwrap_or_default()
}
