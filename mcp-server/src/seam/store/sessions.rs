//! The [`SessionStore`]: where legacy (2025-11-25) HTTP sessions are kept
//! beyond the instance that opened them, so that a client sent to another
//! instance keeps its session.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use mcp_core::capabilities::ClientCapabilities;
use mcp_core::content::Implementation;
use mcp_core::logging::LoggingLevel;
use serde::{Deserialize, Serialize};

use super::Unavailable;
use crate::vocabulary::BootContext;
use crate::vocabulary::BoxFuture;
use crate::vocabulary::seam::{OneActive, SeamWord};

/// What a legacy session is, as another instance needs it to go on: who
/// opened it and what `initialize` and later requests settled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionRecord {
    /// The `Mcp-Session-Id`.
    pub id: String,
    /// The subject of the caller that opened it (`None`: anonymous); no
    /// other caller may use it.
    pub owner: Option<String>,
    /// The negotiated protocol version.
    pub protocol_version: String,
    /// What the client declared in `initialize`.
    pub client_capabilities: ClientCapabilities,
    /// The client's name and version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_info: Option<Implementation>,
    /// The level `logging/setLevel` set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_level: Option<LoggingLevel>,
    /// The resources the session subscribed to.
    #[serde(default)]
    pub subscriptions: BTreeSet<String>,
}

/// Keeps legacy sessions where every instance can find them.
///
/// The HTTP transport saves a session when `initialize` opens it and
/// whenever what it keeps changes (`logging/setLevel`,
/// `resources/subscribe` and `unsubscribe`), answering those requests once
/// the store has it; it touches a session in use at most four times per
/// idle period, in the background, never once per request; an instance
/// that does not know a session id loads it, checks its owner, and goes
/// on with it; `DELETE` removes it. The default keeps nothing: a session
/// lives in the instance that opened it, which then needs sticky routing
/// when several serve.
///
/// ```
/// use std::time::Duration;
/// use mcp_server::seam::store::{LocalSessions, SessionStore};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let store = LocalSessions;
/// assert_eq!(store.load("abc").await.unwrap(), None);
/// # });
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a session store",
    note = "implement `mcp_server::seam::store::SessionStore` and supply it (`Registration::supply`, or `Builder::supply`)"
)]
pub trait SessionStore: Send + Sync + 'static {
    /// Keeps `record` for `idle` from now (replacing what was kept).
    ///
    /// # Errors
    ///
    /// [`Unavailable`] when the store cannot be asked now.
    fn save<'a>(
        &'a self,
        record: &'a SessionRecord,
        idle: Duration,
    ) -> BoxFuture<'a, Result<(), Unavailable>>;

    /// The session `id`, unless it expired or was removed.
    ///
    /// # Errors
    ///
    /// [`Unavailable`] when the store cannot be asked now.
    fn load<'a>(&'a self, id: &'a str)
    -> BoxFuture<'a, Result<Option<SessionRecord>, Unavailable>>;

    /// Keeps session `id` for `idle` from now, as it is: it is in use.
    ///
    /// # Errors
    ///
    /// [`Unavailable`] when the store cannot be asked now.
    fn touch<'a>(&'a self, id: &'a str, idle: Duration) -> BoxFuture<'a, Result<(), Unavailable>>;

    /// Forgets session `id`: the client ended it.
    ///
    /// # Errors
    ///
    /// [`Unavailable`] when the store cannot be asked now.
    fn remove<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), Unavailable>>;

    /// Whether sessions outlive the instance that opened them (`true`
    /// unless overridden; the transport asks nothing of a store that
    /// keeps nothing).
    fn is_shared(&self) -> bool {
        true
    }
}

impl OneActive for dyn SessionStore {
    const NAME: &'static str = "SessionStore";
    const WORD: SeamWord = SeamWord::Store;
    fn fallback(_: &BootContext) -> (&'static str, Arc<Self>) {
        ("LocalSessions", Arc::new(LocalSessions))
    }
}

/// The default session store: keeps nothing, so a session lives only in
/// the instance that opened it.
#[derive(Debug, Default, Clone, Copy)]
pub struct LocalSessions;

impl SessionStore for LocalSessions {
    fn save<'a>(
        &'a self,
        _: &'a SessionRecord,
        _: Duration,
    ) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(std::future::ready(Ok(())))
    }

    fn load<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<SessionRecord>, Unavailable>> {
        Box::pin(std::future::ready(Ok(None)))
    }

    fn touch<'a>(&'a self, _: &'a str, _: Duration) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(std::future::ready(Ok(())))
    }

    fn remove<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(std::future::ready(Ok(())))
    }

    fn is_shared(&self) -> bool {
        false
    }
}
