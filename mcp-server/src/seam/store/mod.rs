//! Stores: state a deployment keeps where it chooses. Exactly one member of
//! each store seam is active: the framework's default unless one is linked
//! (`#[store]`) or registered on the builder; two fail boot.
//!
//! The [`EventStore`] keeps a legacy session's SSE events, so a client
//! whose stream broke can resume it with `Last-Event-ID`; the
//! [`SessionStore`] keeps legacy sessions where every instance finds them;
//! the [`UsedStateStore`] remembers which request states were used.

mod events;
mod sessions;

pub use events::{EventId, EventStore, MemoryEventStore, Replay};
pub use sessions::{LocalSessions, SessionRecord, SessionStore};

use std::sync::{Arc, Mutex};

use crate::vocabulary::BootContext;
use crate::vocabulary::BoxFuture;
use crate::vocabulary::lock;
use crate::vocabulary::seam::{OneActive, SeamWord};

/// Remembers which sealed request states were used, so each answers one
/// retry: a replayed state is refused before anything runs.
///
/// A record is needed only until its state expires; a store shared by every
/// instance (a Redis, say) makes one-time use hold across instances.
///
/// A claim is a future, so a store on another machine can be asked; one
/// that cannot be reached answers [`Unavailable`], and the retry carrying
/// the state is refused with an internal error saying so (never accepted:
/// a state that cannot be claimed could be replayed).
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use mcp_server::seam::store::{MemoryUsedStates, UsedStateStore};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let used = MemoryUsedStates::default();
/// let expires = SystemTime::now() + Duration::from_secs(60);
/// assert!(used.claim("state-1", expires).await.unwrap());
/// assert!(!used.claim("state-1", expires).await.unwrap());
/// # });
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a used-state store",
    note = "implement `mcp_server::seam::store::UsedStateStore` and register it (the `#[store]` attribute on the `impl` block does both)"
)]
pub trait UsedStateStore: Send + Sync + 'static {
    /// Records that state `id` was used: `Ok(false)` when it already was.
    /// The record may be dropped once `expires` has passed.
    ///
    /// # Errors
    ///
    /// [`Unavailable`] when the store cannot be asked now.
    fn claim<'a>(
        &'a self,
        id: &'a str,
        expires: std::time::SystemTime,
    ) -> BoxFuture<'a, Result<bool, Unavailable>>;
}

/// A store that cannot be asked now (a lost connection, a timeout): what
/// it says of why, for the error the client gets.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unavailable(pub String);

impl OneActive for dyn UsedStateStore {
    const NAME: &'static str = "UsedStateStore";
    const WORD: SeamWord = SeamWord::Store;
    fn fallback(_: &BootContext) -> (&'static str, Arc<Self>) {
        ("MemoryUsedStates", Arc::new(MemoryUsedStates::default()))
    }
}

/// The default used-state store: in this process, each record dropped when
/// its state expires.
#[derive(Debug, Default)]
pub struct MemoryUsedStates {
    inner: Mutex<UsedStates>,
}

#[derive(Debug, Default)]
struct UsedStates {
    ids: std::collections::HashSet<String>,
    /// Ids by expiry, soonest first.
    by_expiry: std::collections::BinaryHeap<std::cmp::Reverse<(std::time::SystemTime, String)>>,
}

impl MemoryUsedStates {
    /// How many records are kept (expired ones go on the next claim).
    pub fn len(&self) -> usize {
        lock(&self.inner).ids.len()
    }

    /// Whether no record is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Records `id` unless it is recorded already; drops expired records first.
    fn claim_now(&self, id: &str, expires: std::time::SystemTime) -> bool {
        let now = std::time::SystemTime::now();
        let mut used = lock(&self.inner);
        while let Some(std::cmp::Reverse((at, _))) = used.by_expiry.peek()
            && *at <= now
        {
            if let Some(std::cmp::Reverse((_, gone))) = used.by_expiry.pop() {
                used.ids.remove(&gone);
            }
        }
        if !used.ids.insert(id.to_owned()) {
            return false;
        }
        used.by_expiry
            .push(std::cmp::Reverse((expires, id.to_owned())));
        true
    }
}

impl UsedStateStore for MemoryUsedStates {
    fn claim<'a>(
        &'a self,
        id: &'a str,
        expires: std::time::SystemTime,
    ) -> BoxFuture<'a, Result<bool, Unavailable>> {
        Box::pin(std::future::ready(Ok(self.claim_now(id, expires))))
    }
}
