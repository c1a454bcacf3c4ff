//! The requests in flight on one session, by id, so the client can cancel
//! one with `notifications/cancelled` and the transport can cancel all of
//! them when the session ends.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use mcp_core::cancellation::CancelledNotificationParams;
use mcp_core::jsonrpc::{Notification, RequestId};
use tokio_util::sync::CancellationToken;

use crate::vocabulary::lock;

/// The requests in flight on one session, and their cancellation tokens.
///
/// ```
/// use mcp_server::core::jsonrpc::{Notification, RequestId};
/// use mcp_server::transport::InFlight;
/// use tokio_util::sync::CancellationToken;
///
/// let in_flight = InFlight::default();
/// let token = CancellationToken::new();
/// in_flight.start(RequestId::Number(7), token.clone());
/// let cancel = Notification::new("notifications/cancelled", &serde_json::json!({"requestId": 7})).unwrap();
/// in_flight.notify(&cancel);
/// assert!(token.is_cancelled());
/// assert!(!in_flight.stop(&RequestId::Number(7)), "cancelled: its answer is not sent");
/// ```
#[derive(Debug, Default)]
pub struct InFlight(Mutex<HashMap<RequestId, CancellationToken>>);

impl InFlight {
    /// Tracks a request that runs until `stop` (or a cancellation) forgets it.
    pub fn start(&self, id: RequestId, token: CancellationToken) {
        self.lock().insert(id, token);
    }

    /// Forgets a finished request; `false` when it was cancelled before.
    pub fn stop(&self, id: &RequestId) -> bool {
        self.lock().remove(id).is_some()
    }

    /// Whether nothing runs.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// Cancels every running request.
    pub fn cancel_all(&self) {
        for (_, token) in self.lock().drain() {
            token.cancel();
        }
    }

    /// Handles a client notification: `notifications/cancelled` cancels
    /// (and forgets) the request it names; other notifications are ignored.
    pub fn notify(&self, notification: &Notification) {
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
