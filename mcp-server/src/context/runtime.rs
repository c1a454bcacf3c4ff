//! What a running server shares with every request: the winners of the
//! one-active seams, the members of every registration kind, the state
//! crates made at boot, and where changes are published.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::Arc;

use crate::seam::sink::Fanout;
use crate::vocabulary::seam::{Kind, OneActive};

/// Type-keyed lookups, filled at boot and read-only after.
pub(crate) struct Runtime {
    pub(crate) changes: Arc<Fanout>,
    /// By seam: a boxed `Arc<S>`.
    pub(crate) actives: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
    /// By kind: a boxed `Arc<[K::Member]>`.
    pub(crate) members: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
    /// By type: the shared state crates made at boot.
    pub(crate) state: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
    /// The sending interceptors, sorted; empty when there are none.
    pub(crate) senders: crate::seam::interceptor::Senders,
    /// The server's drain.
    pub(crate) shutdown: crate::vocabulary::Shutdown,
}

impl Runtime {
    /// Nothing known, nothing published: for contexts made outside a server.
    #[cfg(any(test, feature = "test-util"))]
    pub(crate) fn empty() -> Self {
        Self {
            changes: Arc::new(Fanout::new(
                Arc::new(crate::seam::sink::hub::Hub::new(0, 1)),
                Arc::new(crate::seam::sink::InProcessChangeSink),
            )),
            actives: HashMap::new(),
            members: HashMap::new(),
            state: HashMap::new(),
            senders: Arc::from([]),
            shutdown: crate::vocabulary::Shutdown::default(),
        }
    }

    /// The active member of seam `S`, if the seam is known.
    pub(crate) fn active<S: OneActive + ?Sized>(&self) -> Option<Arc<S>> {
        self.actives
            .get(&TypeId::of::<S>())?
            .downcast_ref::<Arc<S>>()
            .cloned()
    }

    /// The members of kind `K`, sorted; empty when there are none.
    pub(crate) fn members<K: Kind>(&self) -> &[K::Member] {
        self.members
            .get(&TypeId::of::<K>())
            .and_then(|m| m.downcast_ref::<Arc<[K::Member]>>())
            .map_or(&[], |m| &m[..])
    }

    /// The state of type `T` some crate made at boot.
    pub(crate) fn shared<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.state
            .get(&TypeId::of::<T>())?
            .clone()
            .downcast::<T>()
            .ok()
    }
}
