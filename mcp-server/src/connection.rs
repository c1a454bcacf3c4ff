//! The legacy (2025-11-25) connection: what one stdio process or HTTP
//! session negotiated with `initialize`, and what it remembers after (the
//! log level, the resources it subscribed to). A transport keeps one per
//! connection and hands it to every request of the connection
//! ([`Caller::on`](crate::Caller::on)); the lifecycle methods change it
//! through the pipeline like every other method, and their effects take
//! hold only when the request is answered without error.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! use mcp_server::client::MemoryClient;
//!
//! let server = mcp_server::Server::builder().without_linked().named("demo", "1.0.0").build();
//! let client = MemoryClient::new(&server).connected();
//! let result = client.initialize("2025-06-18").await.unwrap();
//! assert_eq!(result["protocolVersion"], "2025-06-18");
//! assert_eq!(client.session().unwrap().protocol_version, "2025-06-18");
//! # });
//! ```

use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Arc, Mutex};

use mcp_core::capabilities::ClientCapabilities;
use mcp_core::content::Implementation;
use mcp_core::jsonrpc::Notification;
use mcp_core::logging::LoggingLevel;

use crate::lock::lock;
use crate::sink::{Change, Topic, members};

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

/// How many resources one legacy connection may watch at once.
pub const MAX_SUBSCRIPTIONS: usize = 1024;

/// What one legacy connection (a stdio process, an HTTP session)
/// remembers: what `initialize` negotiated, with the log level, and the
/// resources it subscribed to.
#[derive(Default)]
pub struct Connection {
    pub(crate) session: Mutex<Option<Arc<Session>>>,
    pub(crate) subscriptions: Mutex<BTreeSet<String>>,
    /// Items of other kinds the session follows, as `(member, item)`,
    /// oldest first.
    pub(crate) followed: Mutex<std::collections::VecDeque<(String, String)>>,
}

impl fmt::Debug for Connection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connection")
            .field("session", &self.session())
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// A connection on which `session` was negotiated already (for
    /// in-memory tests and transports that negotiate out of band).
    pub fn negotiated(session: Session) -> Self {
        Self {
            session: Mutex::new(Some(Arc::new(session))),
            subscriptions: Mutex::default(),
            followed: Mutex::default(),
        }
    }

    /// The negotiated session, once `initialize` was answered.
    pub fn session(&self) -> Option<Arc<Session>> {
        lock(&self.session).clone()
    }

    /// Whether `initialize` was answered on this connection.
    pub fn is_initialized(&self) -> bool {
        lock(&self.session).is_some()
    }

    pub(crate) fn update(&self, change: impl FnOnce(&mut Session)) {
        let mut session = lock(&self.session);
        if let Some(current) = session.as_mut() {
            let mut updated = Session::clone(current);
            change(&mut updated);
            *current = Arc::new(updated);
        }
    }

    /// Follows `item` under `member`, forgetting the oldest item followed
    /// when [`MAX_SUBSCRIPTIONS`] are followed already.
    pub(crate) fn follow(&self, member: &str, item: &str) {
        let mut followed = lock(&self.followed);
        if followed.iter().any(|(m, i)| m == member && i == item) {
            return;
        }
        if followed.len() >= MAX_SUBSCRIPTIONS {
            followed.pop_front();
        }
        followed.push_back((member.to_owned(), item.to_owned()));
    }

    /// The notification a change becomes on this connection, if it hears of
    /// it: list changes always, resource updates when subscribed, other
    /// items when followed; nothing before `initialize`.
    pub fn notification_for(&self, change: &Change) -> Option<Notification> {
        if !self.is_initialized() {
            return None;
        }
        let heard = match &change.topic {
            Topic::Flag(member) => [
                members::TOOLS_LIST_CHANGED,
                members::PROMPTS_LIST_CHANGED,
                members::RESOURCES_LIST_CHANGED,
            ]
            .contains(&member.as_str()),
            Topic::Item { member, item } if member == members::RESOURCE_SUBSCRIPTIONS => {
                lock(&self.subscriptions).contains(item)
            }
            Topic::Item { member, item } => lock(&self.followed)
                .iter()
                .any(|(m, i)| m == member && i == item),
        };
        heard.then(|| change.notification(None))
    }
}
