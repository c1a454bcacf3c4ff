//! The requests a connection is running, by id, so the client can cancel
//! one with `notifications/cancelled` and the connection can cancel all of
//! them when it ends.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use mcp_core::cancellation::CancelledNotificationParams;
use mcp_core::jsonrpc::{Notification, RequestId};
use tokio_util::sync::CancellationToken;

use crate::lock::lock;

/// Running requests and their cancellation tokens.
#[derive(Debug, Default)]
pub(crate) struct Running(Mutex<HashMap<RequestId, CancellationToken>>);

impl Running {
    /// Tracks a request that runs until `stop` (or a cancellation) forgets it.
    pub(crate) fn start(&self, id: RequestId, token: CancellationToken) {
        self.lock().insert(id, token);
    }

    /// Forgets a finished request; `false` when it was cancelled before.
    pub(crate) fn stop(&self, id: &RequestId) -> bool {
        self.lock().remove(id).is_some()
    }

    /// Whether nothing runs.
    pub(crate) fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// Cancels every running request.
    pub(crate) fn cancel_all(&self) {
        for (_, token) in self.lock().drain() {
            token.cancel();
        }
    }

    /// Handles a client notification: `notifications/cancelled` cancels
    /// (and forgets) the request it names; other notifications are ignored.
    pub(crate) fn notify(&self, notification: &Notification) {
        if notification.method != "notifications/cancelled" {
            return;
        }
        let Ok(params) = notification.params_as::<CancelledNotificationParams>() else {
            return;
        };
        let cancelled = self.lock().remove(&params.request_id);
        if let Some(token) = cancelled {
            token.cancel();
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<RequestId, CancellationToken>> {
        lock(&self.0)
    }
}
