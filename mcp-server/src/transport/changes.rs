//! The changes a legacy session hears of: list changes always, resource
//! updates it subscribed to; one feed for every transport.

use std::sync::Arc;

use mcp_core::jsonrpc::Notification;
use tokio::sync::broadcast::{self, error::RecvError};

use crate::context::Session;
use crate::seam::sink::Change;
use crate::server::Server;

/// The notifications one legacy session should get, as changes are published.
#[derive(Debug)]
pub struct ChangeFeed {
    changes: broadcast::Receiver<Change>,
    session: Arc<Session>,
    server: Server,
}

impl ChangeFeed {
    /// A feed of what `server` publishes from now on, for `session`.
    pub fn new(server: &Server, session: Arc<Session>) -> Self {
        Self {
            changes: server.listen_changes(),
            session,
            server: server.clone(),
        }
    }

    /// The next notification for the session, as the sending interceptors
    /// left it; `None` once the server publishes no more. A listener that
    /// fell behind skips what it missed.
    pub async fn next(&mut self) -> Option<Notification> {
        loop {
            match self.changes.recv().await {
                Ok(change) => {
                    if !self.server.hears(&self.session, &change) {
                        continue;
                    }
                    if let Some(notification) = self
                        .session
                        .notification_for(&change)
                        .and_then(|n| self.server.outgoing(n))
                    {
                        return Some(notification);
                    }
                }
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return None,
            }
        }
    }
}
