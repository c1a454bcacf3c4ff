//! The changes a legacy connection hears of: list changes always, resource
//! updates it subscribed to; one feed for every transport.

use std::sync::Arc;

use mcp_core::jsonrpc::Notification;
use tokio::sync::broadcast::{self, error::RecvError};

use crate::connection::Connection;
use crate::server::Server;
use crate::sink::Change;

/// The notifications one legacy connection should get, as changes are published.
pub(crate) struct ChangeFeed {
    changes: broadcast::Receiver<Change>,
    connection: Arc<Connection>,
}

impl ChangeFeed {
    /// A feed of what `server` publishes from now on, for `connection`.
    pub(crate) fn new(server: &Server, connection: Arc<Connection>) -> Self {
        Self {
            changes: server.listen_changes(),
            connection,
        }
    }

    /// The next notification for the connection; `None` once the server
    /// publishes no more. A listener that fell behind skips what it missed.
    pub(crate) async fn next(&mut self) -> Option<Notification> {
        loop {
            match self.changes.recv().await {
                Ok(change) => {
                    if let Some(notification) = self.connection.notification_for(&change) {
                        return Some(notification);
                    }
                }
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return None,
            }
        }
    }
}
