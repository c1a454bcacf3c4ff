//! The default task store: records in this process's memory.

use std::collections::BTreeMap;
use std::sync::Mutex;

use mcp_server::BoxFuture;

use super::{StoreError, TaskStore, TaskWatch, Watchers};
use crate::record::{self, Applied, TaskRecord, Update};

/// Keeps task records in memory: fast, and gone with the process.
#[derive(Default)]
pub struct MemoryTaskStore {
    records: Mutex<BTreeMap<String, TaskRecord>>,
    watchers: Watchers,
}

impl MemoryTaskStore {
    fn records(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, TaskRecord>> {
        self.records
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl TaskStore for MemoryTaskStore {
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>> {
        let outcome = {
            let mut records = self.records();
            if records.contains_key(&record.id) {
                Err(StoreError::Exists(record.id))
            } else {
                records.insert(record.id.clone(), record);
                Ok(())
            }
        };
        Box::pin(async move { outcome })
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        let now = record::now_ms();
        let found = {
            let mut records = self.records();
            match records.get(id) {
                Some(r) if r.expired(now) => {
                    records.remove(id);
                    None
                }
                other => other.cloned(),
            }
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
            records
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
        let mut mine: Vec<TaskRecord> = self
            .records()
            .values()
            .filter(|r| r.owner == owner && !r.expired(now))
            .cloned()
            .collect();
        mine.sort_by(|a, b| (a.created_at_ms, &a.id).cmp(&(b.created_at_ms, &b.id)));
        let start = after
            .and_then(|a| mine.iter().position(|r| r.id == a))
            .map_or(0, |i| i + 1);
        let page = mine.into_iter().skip(start).take(limit).collect();
        Box::pin(async move { Ok(page) })
    }

    fn purge(&self, now_ms: u64) -> BoxFuture<'_, Result<usize, StoreError>> {
        let purged = {
            let mut records = self.records();
            let before = records.len();
            records.retain(|_, r| !r.expired(now_ms));
            before - records.len()
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
