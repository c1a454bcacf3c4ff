//! The legacy (2025-11-25) session: what one stdio process or HTTP
//! session negotiated with `initialize`, and what it remembers after (the
//! log level, the resources it subscribed to). A transport keeps one per
//! session and hands it to every request of the session
//! ([`Peer::on`](crate::transport::Peer::on)); the lifecycle methods change it
//! through the pipeline like every other method, and their effects take
//! hold only when the request is answered without error.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! use mcp_server::testing::MemoryClient;
//!
//! let server = mcp_server::Server::builder().without_linked().named("demo", "1.0.0").build();
//! let client = MemoryClient::new(&server).connected();
//! let result = client.initialize("2025-06-18").await.unwrap();
//! assert_eq!(result["protocolVersion"], "2025-06-18");
//! assert_eq!(client.negotiated().unwrap().protocol_version, "2025-06-18");
//! # });
//! ```
//!
//! A session also says which transport keeps it and, where the transport
//! names its sessions (`Mcp-Session-Id` on HTTP), its id; and it keeps
//! values for extensions (a clock, a counter) for as long as it lives,
//! dropping them when the transport ends it.

use std::any::{Any, TypeId};
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex};

use mcp_core::capabilities::ClientCapabilities;
use mcp_core::content::Implementation;
use mcp_core::jsonrpc::Notification;
use mcp_core::logging::LoggingLevel;

use crate::seam::sink::{Change, Topic, filter};
use crate::vocabulary::lock;

/// What a legacy (2025-11-25) client negotiated with `initialize`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Negotiated {
    /// The negotiated protocol version.
    pub protocol_version: String,
    /// The client's capabilities.
    pub client_capabilities: ClientCapabilities,
    /// The client's identity.
    pub client_info: Option<Implementation>,
    /// The level set with `logging/setLevel`.
    pub log_level: Option<LoggingLevel>,
}

/// How many resources one legacy session may watch at once.
pub const MAX_SUBSCRIPTIONS: usize = 1024;

/// What one legacy session (a stdio process, an HTTP session) remembers:
/// what `initialize` negotiated, with the log level, and the resources it
/// subscribed to.
#[derive(Default)]
pub struct Session {
    pub(crate) negotiated: Mutex<Option<Arc<Negotiated>>>,
    pub(crate) subscriptions: Mutex<BTreeSet<String>>,
    /// Items of other kinds the session follows, as `(member, item)`,
    /// oldest first.
    pub(crate) followed: Mutex<std::collections::VecDeque<(String, String)>>,
    /// The transport that keeps it, by name.
    transport: Option<&'static str>,
    /// The id the transport gave its session.
    id: Option<String>,
    /// What extensions keep with it.
    kept: Mutex<Kept>,
    /// Who sent its latest request: whose guards decide which changes it
    /// hears of.
    caller: arc_swap::ArcSwapOption<crate::vocabulary::auth::Principal>,
}

/// The values extensions keep with a session, until it ends.
#[derive(Default)]
struct Kept {
    values: HashMap<TypeId, Box<dyn Any + Send + Sync>>,
    closed: bool,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("transport", &self.transport)
            .field("id", &self.id)
            .field("negotiated", &self.negotiated())
            .finish_non_exhaustive()
    }
}

impl Session {
    /// A session kept by the transport named `transport` (`"stdio"`,
    /// `"http"`, or a third party's own name), not initialized yet.
    ///
    /// ```
    /// use mcp_server::context::Session;
    ///
    /// let session = Session::over("http").with_id("4f1c");
    /// assert_eq!((session.transport(), session.id()), (Some("http"), Some("4f1c")));
    /// assert_eq!(Session::default().transport(), None);
    /// ```
    pub fn over(transport: &'static str) -> Self {
        Self {
            transport: Some(transport),
            ..Self::default()
        }
    }

    /// The same session, negotiated already (for in-memory tests, and
    /// transports that negotiate out of band or restore a session another
    /// instance opened).
    #[must_use]
    pub fn with_negotiated(self, negotiated: Negotiated) -> Self {
        *lock(&self.negotiated) = Some(Arc::new(negotiated));
        self
    }

    /// The same session, subscribed to the resources at `uris` (a session
    /// restored from what another instance kept).
    #[must_use]
    pub fn with_subscriptions(self, uris: BTreeSet<String>) -> Self {
        *lock(&self.subscriptions) = uris;
        self
    }

    /// Remembers who sent the session's latest request.
    pub(crate) fn heard_from(&self, caller: &Arc<crate::vocabulary::auth::Principal>) {
        let known = self.caller.load();
        // A principal source may make a new `Arc` per request: equal is known.
        if !known
            .as_ref()
            .is_some_and(|k| Arc::ptr_eq(k, caller) || **k == **caller)
        {
            self.caller.store(Some(caller.clone()));
        }
    }

    /// Who sent the session's latest request, if it sent one.
    pub(crate) fn caller(&self) -> Option<Arc<crate::vocabulary::auth::Principal>> {
        self.caller.load_full()
    }

    /// The URIs of the resources the session subscribed to.
    pub fn subscriptions(&self) -> BTreeSet<String> {
        lock(&self.subscriptions).clone()
    }

    /// Names the session with the id its transport gave it.
    #[must_use]
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// The name of the transport that keeps this session, if it said.
    pub fn transport(&self) -> Option<&'static str> {
        self.transport
    }

    /// The id the transport gave this session (HTTP's `Mcp-Session-Id`);
    /// `None` where sessions have no id (stdio).
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// Keeps `value` with the session, one per type, until the session
    /// ends ([`close`](Self::close)) or is dropped, when it is dropped too;
    /// on an ended session it is dropped at once.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_server::context::Session;
    ///
    /// #[derive(Clone)]
    /// struct Opened(Arc<()>);
    ///
    /// let marker = Arc::new(());
    /// let session = Session::over("stdio");
    /// session.insert(Opened(marker.clone()));
    /// assert!(session.get::<Opened>().is_some());
    /// session.close();
    /// assert!(session.get::<Opened>().is_none());
    /// assert_eq!(Arc::strong_count(&marker), 1, "dropped when the session ended");
    /// ```
    pub fn insert<T: Any + Send + Sync>(&self, value: T) {
        let mut kept = lock(&self.kept);
        if kept.closed {
            drop(kept);
            drop(value);
            return;
        }
        let replaced = kept.values.insert(TypeId::of::<T>(), Box::new(value));
        drop(kept);
        drop(replaced);
    }

    /// A value kept with [`insert`](Self::insert), cloned out.
    pub fn get<T: Any + Send + Sync + Clone>(&self) -> Option<T> {
        let kept = lock(&self.kept);
        kept.values
            .get(&TypeId::of::<T>())?
            .downcast_ref::<T>()
            .cloned()
    }

    /// Ends the session's life: drops every value kept with it. The
    /// transport calls it when the session ends (end of input on stdio,
    /// `DELETE` or expiry of an HTTP session).
    pub fn close(&self) {
        let values = {
            let mut kept = lock(&self.kept);
            kept.closed = true;
            std::mem::take(&mut kept.values)
        };
        // Dropped outside the lock: a value's `Drop` may look at the session.
        drop(values);
    }

    /// What `initialize` negotiated, once it was answered.
    pub fn negotiated(&self) -> Option<Arc<Negotiated>> {
        lock(&self.negotiated).clone()
    }

    /// Whether `initialize` was answered on this session.
    pub fn is_initialized(&self) -> bool {
        lock(&self.negotiated).is_some()
    }

    pub(crate) fn update(&self, change: impl FnOnce(&mut Negotiated)) {
        let mut negotiated = lock(&self.negotiated);
        if let Some(current) = negotiated.as_mut() {
            let mut updated = Negotiated::clone(current);
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

    /// The notification a change becomes on this session, if it hears of
    /// it: list changes always, resource updates when subscribed, other
    /// items when followed; nothing before `initialize`.
    pub fn notification_for(&self, change: &Change) -> Option<Notification> {
        if !self.is_initialized() {
            return None;
        }
        let heard = match &change.topic {
            Topic::Flag(member) => [
                filter::TOOLS_LIST_CHANGED,
                filter::PROMPTS_LIST_CHANGED,
                filter::RESOURCES_LIST_CHANGED,
            ]
            .contains(&member.as_str()),
            Topic::Item { member, item } if member == filter::RESOURCE_SUBSCRIPTIONS => {
                lock(&self.subscriptions).contains(item)
            }
            Topic::Item { member, item } => lock(&self.followed)
                .iter()
                .any(|(m, i)| m == member && i == item),
        };
        heard.then(|| change.notification(None))
    }
}
