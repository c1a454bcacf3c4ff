//! The default task store: records in this process's memory.

use std::collections::{BTreeSet, HashMap};
use std::ops::Bound;
use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use mcp_server::BoxFuture;

use super::{StoreError, TaskStore, TaskWatch, Watchers};
use crate::record::{self, Applied, TaskRecord, Update};

/// Keeps task records in memory: fast, and gone with the process.
#[derive(Default)]
pub struct MemoryTaskStore {
    // Reads share the lock: `tasks/get` from every worker at once waits on
    // no one but a writer.
    records: RwLock<Records>,
    watchers: Watchers,
}

/// The records by id (hashed: a lookup costs one hash of the id, not a
/// string comparison per level), and their ids by owner in list order, so
/// that a page of a list costs the page, however many tasks the owner has.
#[derive(Default)]
struct Records {
    by_id: HashMap<String, TaskRecord>,
    by_owner: BTreeSet<(String, u64, String)>,
}

impl Records {
    fn insert(&mut self, record: TaskRecord) {
        self.by_owner.insert(listed(&record));
        self.by_id.insert(record.id.clone(), record);
    }

    fn remove(&mut self, id: &str) {
        if let Some(record) = self.by_id.remove(id) {
            self.by_owner.remove(&listed(&record));
        }
    }
}

/// Where a record stands in its owner's list: oldest first, then by id.
fn listed(record: &TaskRecord) -> (String, u64, String) {
    (
        record.owner.clone(),
        record.created_at_ms,
        record.id.clone(),
    )
}

impl MemoryTaskStore {
    fn records(&self) -> RwLockWriteGuard<'_, Records> {
        self.records.write().unwrap_or_else(PoisonError::into_inner)
    }

    fn reading(&self) -> RwLockReadGuard<'_, Records> {
        self.records.read().unwrap_or_else(PoisonError::into_inner)
    }
}

impl TaskStore for MemoryTaskStore {
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>> {
        let outcome = {
            let mut records = self.records();
            if records.by_id.contains_key(&record.id) {
                Err(StoreError::Exists(record.id))
            } else {
                records.insert(record);
                Ok(())
            }
        };
        Box::pin(async move { outcome })
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        let now = record::now_ms();
        let found = self.reading().by_id.get(id).cloned();
        // An expired record goes on the first read that finds it.
        let found = match found {
            Some(r) if r.expired(now) => {
                self.records().remove(id);
                None
            }
            other => other,
        };
        Box::pin(async move { Ok(found) })
    }

    fn update<'a>(
        &'a self,
        id: &'a str,
        update: Update,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<Applied>, StoreError>> {
        let applied = {
            let mut records = self.records();
            // Neither owner nor creation time changes: the list order holds.
            records
                .by_id
                .get_mut(id)
                .filter(|r| !r.expired(now_ms))
                .map(|slot| {
                    let applied = record::apply(slot.clone(), update, now_ms);
                    if applied.changed() {
                        *slot = applied.record.clone();
                    }
                    applied
                })
        };
        if let Some(applied) = &applied {
            self.watchers.publish(id, &applied.events);
        }
        Box::pin(async move { Ok(applied) })
    }

    fn list<'a>(
        &'a self,
        owner: &'a str,
        after: Option<&'a str>,
        limit: usize,
    ) -> BoxFuture<'a, Result<Vec<TaskRecord>, StoreError>> {
        let now = record::now_ms();
        let page = {
            let records = self.reading();
            let first = (owner.to_owned(), 0, String::new());
            // After the cursor's task, when it still exists; else from the start.
            let start = after
                .and_then(|a| records.by_id.get(a))
                .filter(|r| r.owner == owner)
                .map_or(Bound::Included(first), |r| Bound::Excluded(listed(r)));
            records
                .by_owner
                .range((start, Bound::Unbounded))
                .take_while(|(o, _, _)| o == owner)
                .filter_map(|(_, _, id)| records.by_id.get(id))
                .filter(|r| !r.expired(now))
                .take(limit)
                .cloned()
                .collect()
        };
        Box::pin(async move { Ok(page) })
    }

    fn purge(&self, now_ms: u64) -> BoxFuture<'_, Result<usize, StoreError>> {
        let purged = {
            let mut records = self.records();
            let expired: Vec<String> = records
                .by_id
                .values()
                .filter(|r| r.expired(now_ms))
                .map(|r| r.id.clone())
                .collect();
            for id in &expired {
                records.remove(id);
            }
            expired.len()
        };
        Box::pin(async move { Ok(purged) })
    }

    fn watch(&self, id: &str) -> TaskWatch {
        self.watchers.watch(id)
    }

    fn describe(&self) -> String {
        "in memory".into()
    }
}

impl std::fmt::Debug for MemoryTaskStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryTaskStore").finish_non_exhaustive()
    }
}
