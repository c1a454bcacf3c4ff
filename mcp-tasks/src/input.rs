//! Input asked by a handler that runs as a task: the question becomes one
//! of the task's input requests (the task is `input_required`), and the
//! answer comes back through the store, from `tasks/update` (2026-07-28)
//! or `tasks/result` (2025-11-25) received by any instance.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use mcp_server::BoxFuture;
use mcp_server::context::InputError;
use mcp_server::core::json::{JsonObject, JsonValue};
use mcp_server::transport::ClientRequester;
use serde_json::json;

use tokio_util::sync::CancellationToken;

use crate::record::{Update, now_ms};
use crate::store::TaskStore;

/// How long an answer is awaited between two looks at the store, when no
/// event arrives (a shared store whose events can be lost).
const RECHECK: Duration = Duration::from_secs(1);

/// The requester of one task's handler run.
pub(crate) struct TaskInput {
    store: Arc<dyn TaskStore>,
    id: String,
    /// Fired once the task's record exists: a handler that released its
    /// request may ask before the record is written.
    created: CancellationToken,
    /// Every key this run asked: keys are never reused over a task's life.
    keys: Mutex<HashSet<String>>,
}

impl TaskInput {
    pub(crate) fn new(
        store: Arc<dyn TaskStore>,
        id: impl Into<String>,
        created: CancellationToken,
    ) -> Self {
        Self {
            store,
            id: id.into(),
            created,
            keys: Mutex::default(),
        }
    }

    /// The handler's key when it is new, or the next free `<prefix>-<n>`.
    fn key(&self, named: Option<&str>, method: &str) -> String {
        let mut keys = self
            .keys
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let prefix = named.unwrap_or_else(|| method.split('/').next().unwrap_or("input"));
        let key = match named {
            Some(named) if !keys.contains(named) => named.to_owned(),
            _ => (1..)
                .map(|n| format!("{prefix}-{n}"))
                .find(|k| !keys.contains(k))
                .unwrap_or_default(),
        };
        keys.insert(key.clone());
        key
    }
}

impl ClientRequester for TaskInput {
    fn request(
        &self,
        method: &'static str,
        params: JsonValue,
    ) -> BoxFuture<'static, Result<JsonValue, InputError>> {
        self.request_keyed(None, method, params)
    }

    fn request_keyed(
        &self,
        key: Option<&str>,
        method: &'static str,
        params: JsonValue,
    ) -> BoxFuture<'static, Result<JsonValue, InputError>> {
        let key = self.key(key, method);
        let store = self.store.clone();
        let id = self.id.clone();
        let created = self.created.clone();
        Box::pin(async move {
            created.cancelled().await;
            let failed = |_| InputError::Unavailable("the task store failed");
            // Watch first, so that no answer arrives unseen.
            let mut events = store.watch(&id);
            let mut requests = JsonObject::new();
            requests.insert(key.clone(), json!({ "method": method, "params": params }));
            let asked = store
                .update(&id, Update::Ask(requests), now_ms())
                .await
                .map_err(failed)?;
            if !asked.is_some_and(|a| a.changed()) {
                return Err(InputError::Cancelled);
            }
            loop {
                let Some(record) = store.get(&id).await.map_err(failed)? else {
                    return Err(InputError::Cancelled);
                };
                if let Some(answer) = record.input_responses.get(&key) {
                    return Ok(answer.clone());
                }
                if record.status.is_terminal() {
                    return Err(InputError::Cancelled);
                }
                if let Ok(None) = tokio::time::timeout(RECHECK, events.next()).await {
                    tokio::time::sleep(RECHECK).await;
                }
            }
        })
    }
}
