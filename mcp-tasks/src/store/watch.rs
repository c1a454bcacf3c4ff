//! Watchers of tasks within one process: what a store that keeps its
//! records in this process (memory, SQLite) hands to [`TaskStore::watch`].
//!
//! [`TaskStore::watch`]: super::TaskStore::watch

use std::collections::HashMap;
use std::sync::Mutex;

use futures_util::StreamExt;
use tokio::sync::broadcast;

use super::TaskWatch;
use crate::record::TaskEvent;

/// How many events one watcher may fall behind before it misses some.
const QUEUE: usize = 32;

/// The senders of every watched task, by task id.
#[derive(Default)]
pub struct Watchers {
    senders: Mutex<HashMap<String, broadcast::Sender<TaskEvent>>>,
}

impl Watchers {
    /// The events of task `id` from now on.
    pub fn watch(&self, id: &str) -> TaskWatch {
        let receiver = {
            let mut senders = self
                .senders
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            senders
                .entry(id.to_owned())
                .or_insert_with(|| broadcast::channel(QUEUE).0)
                .subscribe()
        };
        futures_util::stream::unfold(receiver, |mut receiver| async move {
            loop {
                match receiver.recv().await {
                    Ok(event) => return Some((event, receiver)),
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return None,
                }
            }
        })
        .boxed()
    }

    /// Tells the watchers of task `id`; a terminal status ends their streams.
    pub fn publish(&self, id: &str, events: &[TaskEvent]) {
        let mut senders = self
            .senders
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(sender) = senders.get(id) else {
            return;
        };
        for event in events {
            let _ = sender.send(event.clone());
        }
        let ended = events
            .iter()
            .any(|e| matches!(e, TaskEvent::Status(s) if s.is_terminal()));
        if ended || sender.receiver_count() == 0 {
            senders.remove(id);
        }
    }
}

impl std::fmt::Debug for Watchers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watchers").finish_non_exhaustive()
    }
}
