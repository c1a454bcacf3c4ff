//! Handing a task to another process: an executor that queues work turns
//! its [`Execution`] into a [`Handoff`] (plain data, serializable), and a
//! worker process booted from the same application runs it with
//! [`run_handoff`].
//!
//! The worker runs the whole pipeline again with the caller the task was
//! created for: guards, validation and interceptors decide there as they
//! decided when the task was created, so a caller who lost a grant
//! meanwhile does not get the run (the task fails with the guard's error).
//! The handler's input requests go through the shared store as for any
//! task, and `tasks/cancel` received by any instance interrupts the run.
//!
//! A handoff may run more than once (a queue that redelivers a job whose
//! worker died): a task that already ended is not run again, and the first
//! outcome recorded is final.
//!
//! ```
//! use mcp_tasks::handoff::Handoff;
//!
//! let handoff: Handoff = serde_json::from_value(serde_json::json!({
//!     "taskId": "t-1", "tool": "slow_compute", "arguments": {"seconds": 1},
//!     "clientCapabilities": {}, "principal": {"subject": "alice"}
//! })).unwrap();
//! assert_eq!(handoff.principal.subject.as_deref(), Some("alice"));
//! ```

use std::collections::BTreeSet;
use std::sync::Arc;

use mcp_server::Server;
use mcp_server::auth::Principal;
use mcp_server::core::error::{ErrorCode, ErrorObject};
use mcp_server::core::json::{JsonObject, JsonValue};
use mcp_server::core::meta;
use mcp_server::core::version;
use mcp_server::transport::Peer;
use serde::{Deserialize, Serialize};

use crate::executor::Execution;
use crate::record::{Outcome, Update, now_ms};
use crate::store::{StoreError, TaskStore};

/// A task's execution as data: everything a process sharing the task store
/// needs to run it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Handoff {
    /// The task to run.
    pub task_id: String,
    /// The tool it runs.
    pub tool: String,
    /// The tool's arguments, as the request carried them.
    pub arguments: JsonValue,
    /// The client's capabilities, as the request declared them.
    pub client_capabilities: JsonValue,
    /// The client's name and version, when it told them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_info: Option<JsonValue>,
    /// Who called.
    pub principal: HandedPrincipal,
}

/// The caller of a handed-off task, as data.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HandedPrincipal {
    /// The subject; `None` for an anonymous caller.
    #[serde(default)]
    pub subject: Option<String>,
    /// Its roles.
    #[serde(default)]
    pub roles: BTreeSet<String>,
    /// Its scopes.
    #[serde(default)]
    pub scopes: BTreeSet<String>,
    /// What its credentials said besides.
    #[serde(default)]
    pub claims: JsonObject,
}

impl From<&Principal> for HandedPrincipal {
    fn from(principal: &Principal) -> Self {
        Self {
            subject: principal.subject.clone(),
            roles: principal.roles.clone(),
            scopes: principal.scopes.clone(),
            claims: principal.claims.clone(),
        }
    }
}

impl From<HandedPrincipal> for Principal {
    fn from(handed: HandedPrincipal) -> Self {
        let mut principal = Principal::anonymous();
        principal.subject = handed.subject;
        principal.roles = handed.roles;
        principal.scopes = handed.scopes;
        principal.claims = handed.claims;
        principal
    }
}

impl Handoff {
    /// The handoff of `execution`, also once it is disposed of.
    pub fn of(execution: &Execution) -> Self {
        let caller = execution.caller();
        Self {
            task_id: execution.task_id().to_owned(),
            tool: execution.tool().to_owned(),
            arguments: execution.arguments().clone(),
            client_capabilities: serde_json::to_value(&caller.client_capabilities)
                .unwrap_or_else(|_| JsonValue::Object(JsonObject::new())),
            client_info: caller
                .client_info
                .as_ref()
                .and_then(|info| serde_json::to_value(info).ok()),
            principal: HandedPrincipal::from(&caller.principal),
        }
    }
}

/// Marks a worker's replay of a handed-off task, for the interceptor that
/// creates tasks: it runs the task instead of making a new one. Only
/// [`run_handoff`] puts it in a request context (through the caller's
/// seed), so nothing a client sends can.
#[derive(Debug, Clone)]
pub(crate) struct Resumed {
    pub(crate) task_id: Arc<str>,
    pub(crate) tool: Arc<str>,
}

/// Why [`run_handoff`] did not run a task's handler to its end.
#[derive(Debug, thiserror::Error)]
pub enum HandoffError {
    /// The server refused the call (a guard, invalid arguments, an unknown
    /// or expired task); the task was marked `failed` with this error
    /// unless it already ended.
    #[error("the call was refused: {}", .0.message)]
    Refused(ErrorObject),
    /// The task store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Runs the handed-off task on `server`, which must be booted from the
/// same application with the same task store: the whole pipeline, as the
/// task's caller; the outcome is recorded in the store. Returns once the
/// outcome is recorded (or the task had already ended).
///
/// # Errors
///
/// [`HandoffError::Refused`] when the server refused the call,
/// [`HandoffError::Store`] when the store failed.
pub async fn run_handoff(server: &Server, handoff: &Handoff) -> Result<(), HandoffError> {
    let mut meta = JsonObject::new();
    meta.insert(meta::PROTOCOL_VERSION.into(), version::LATEST.into());
    meta.insert(
        meta::CLIENT_CAPABILITIES.into(),
        handoff.client_capabilities.clone(),
    );
    if let Some(info) = &handoff.client_info {
        meta.insert(meta::CLIENT_INFO.into(), info.clone());
    }
    let request = serde_json::json!({
        "jsonrpc": "2.0",
        "id": 0,
        "method": "tools/call",
        "params": { "name": handoff.tool, "arguments": handoff.arguments, "_meta": meta },
    });
    let resumed = Resumed {
        task_id: handoff.task_id.as_str().into(),
        tool: handoff.tool.as_str().into(),
    };
    let peer = Peer::modern()
        .with_principal(Arc::new(Principal::from(handoff.principal.clone())))
        .with_seed(move |ctx| ctx.insert(resumed.clone()));
    let bytes = serde_json::to_vec(&request).unwrap_or_default();
    let reply = server.handle(&bytes, &peer).await.unwrap_or_default();
    let error = match serde_json::from_slice::<JsonValue>(&reply) {
        Ok(mut reply) => match reply.get_mut("error").map(JsonValue::take) {
            Some(error) => serde_json::from_value::<ErrorObject>(error).unwrap_or_else(|e| {
                ErrorObject::internal_error(format!("Internal error: an unreadable error: {e}"))
            }),
            None => return Ok(()),
        },
        Err(error) => ErrorObject::new(
            ErrorCode::INTERNAL_ERROR,
            format!("Internal error: an unreadable reply: {error}"),
        ),
    };
    let store = server
        .active::<dyn TaskStore>()
        .expect("mcp-tasks declares the store seam");
    store
        .update(
            &handoff.task_id,
            Update::Finish(Outcome::failed(error.clone())),
            now_ms(),
        )
        .await?;
    Err(HandoffError::Refused(error))
}
