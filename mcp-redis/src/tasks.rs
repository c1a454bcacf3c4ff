//! The task store on Redis: every instance reads and writes the same
//! records, and a task's events reach its watchers wherever they are.
//!
//! Keys (under the configured prefix):
//!
//! - `task:<id>`: the record as JSON, expiring when its time to live ends;
//! - `owner:<owner>`: the owner's task ids, scored by creation time;
//! - `expiry`: `[owner, id]` of every task with a time to live, scored by
//!   when it ends, for [`purge`](TaskStore::purge) to clean the indexes;
//! - channel `task-events`: `{id, events}` after every change, published by
//!   the script that wrote it, so watchers hear changes in write order.
//!
//! An update is read, applied in Rust by `mcp_tasks::record::apply`, and
//! written back by a script only if the record is still the one read
//! (compare and set); a writer that lost the race reads again. A terminal
//! status is therefore never overwritten, whoever writes.
//!
//! With `redis.client_cache` on (the default), records are read through
//! this instance's [client cache](crate::cache): a record read before and
//! not changed since is answered without a round trip. An update may start
//! from a copy that another instance's write made stale: its
//! compare-and-set then fails, and it reads again from Redis.

use std::sync::Arc;
use std::time::Duration;

use mcp_server::BoxFuture;
use mcp_server::core::ext::tasks::TaskStatus;
use mcp_tasks::record::{self, Applied, TaskEvent, TaskRecord, Update};
use mcp_tasks::store::{StoreError, TaskStore, TaskWatch, Watchers};
use redis::{AsyncCommands, Script};
use serde::{Deserialize, Serialize};

use crate::cache::{CacheStatistics, Missed, RecordCache};
use crate::config::RedisSection;
use crate::connection::{Failed, Redis, subscribe};

/// How many times an update is tried against concurrent writers.
const ATTEMPTS: usize = 64;

/// How many index entries `list` reads at a time.
const PAGE: usize = 128;

const CREATE: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
if ARGV[4] ~= '' then
  redis.call('PEXPIREAT', KEYS[1], ARGV[4])
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
return 1
";

const COMPARE_AND_SET: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
if ARGV[4] ~= '' then redis.call('PUBLISH', ARGV[3], ARGV[4]) end
return 1
";

const PURGE: &str = r"
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
for _, member in ipairs(gone) do
  local entry = cjson.decode(member)
  redis.call('DEL', ARGV[2] .. ':task:' .. entry[2])
  redis.call('ZREM', ARGV[2] .. ':owner:' .. entry[1], entry[2])
end
if #gone > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1]) end
return gone
";

/// A task event as it crosses Redis.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
enum WireEvent {
    Status(TaskStatus),
    Responded(Vec<String>),
}

impl From<&TaskEvent> for WireEvent {
    fn from(event: &TaskEvent) -> Self {
        match event {
            TaskEvent::Status(status) => Self::Status(*status),
            TaskEvent::Responded(keys) => Self::Responded(keys.clone()),
        }
    }
}

impl From<WireEvent> for TaskEvent {
    fn from(event: WireEvent) -> Self {
        match event {
            WireEvent::Status(status) => Self::Status(status),
            WireEvent::Responded(keys) => Self::Responded(keys),
        }
    }
}

/// What the `task-events` channel carries.
#[derive(Serialize, Deserialize)]
struct Published {
    id: String,
    events: Vec<WireEvent>,
}

/// Task records in a Redis shared by every instance.
pub struct RedisTaskStore {
    redis: Arc<Redis>,
    watchers: Arc<Watchers>,
    /// The client cache of records, unless `redis.client_cache` is off.
    cache: Option<RecordCache>,
    create: Script,
    compare_and_set: Script,
    purge: Script,
}

/// Why [`RedisTaskStore::open`] made no store.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    /// `redis.url` is not set.
    #[error("`redis.url` is not set")]
    NoUrl,
    /// `redis.url` does not parse as a Redis URL.
    #[error("`redis.url` is not a Redis URL: {0}")]
    InvalidUrl(String),
}

fn backend(failed: Failed) -> StoreError {
    StoreError::Backend(failed.0)
}

fn decode(text: &str) -> Result<TaskRecord, StoreError> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::Backend(format!("a stored task does not decode: {e}")))
}

/// A record as Redis holds it: its JSON, which compare-and-set compares,
/// and its decoded form.
#[derive(Debug)]
pub(crate) struct Stored {
    pub(crate) text: String,
    pub(crate) record: TaskRecord,
}

impl Stored {
    /// Decodes `text`; a record that does not decode is an error, never a
    /// panic.
    pub(crate) fn decode(text: String) -> Result<Self, StoreError> {
        let record = decode(&text)?;
        Ok(Self { text, record })
    }
}

fn encode(record: &TaskRecord) -> String {
    serde_json::to_string(record).expect("a task record always serializes")
}

/// Hands a message of the `task-events` channel to this instance's watchers.
fn deliver(watchers: &Watchers, payload: &[u8]) {
    let Ok(published) = serde_json::from_slice::<Published>(payload) else {
        return;
    };
    let events: Vec<TaskEvent> = published.events.into_iter().map(TaskEvent::from).collect();
    watchers.publish(&published.id, &events);
}

impl RedisTaskStore {
    pub(crate) fn new(redis: Arc<Redis>) -> Self {
        let watchers = Arc::new(Watchers::default());
        subscribe(
            redis.client().clone(),
            redis.key(&["task-events"]),
            &watchers,
            Duration::from_secs(2),
            deliver,
        );
        let section = redis.section();
        let cache = section
            .client_cache
            .then(|| RecordCache::new(redis.clone(), section.client_cache_size))
            .flatten();
        Self {
            redis,
            watchers,
            cache,
            create: Script::new(CREATE),
            compare_and_set: Script::new(COMPARE_AND_SET),
            purge: Script::new(PURGE),
        }
    }

    /// A task store on the Redis that `section` names, made outside a
    /// server's boot (a tool, a test): a server makes its own from its
    /// `redis` section.
    pub fn open(section: &RedisSection) -> Result<Self, OpenError> {
        match Redis::of(section) {
            Ok(Some(redis)) => Ok(Self::new(Arc::new(redis))),
            Ok(None) => Err(OpenError::NoUrl),
            Err(why) => Err(OpenError::InvalidUrl(why)),
        }
    }

    /// What the client cache of task records did so far; `None` while
    /// `redis.client_cache` is off.
    pub fn cache_statistics(&self) -> Option<CacheStatistics> {
        self.cache.as_ref().map(RecordCache::statistics)
    }

    /// Reads the record of `id` as stored (expired or not), through the
    /// client cache when there is one.
    async fn read(&self, id: &str) -> Result<Option<Arc<Stored>>, StoreError> {
        if let Some(cache) = self.cache() {
            match cache.read(id).await {
                Ok(stored) => return Ok(stored),
                Err(Missed::Failed(failed)) => return Err(backend(failed)),
                Err(Missed::Undecodable(error)) => return Err(error),
                // Redis refused tracking just now: read as without a cache.
                Err(Missed::Unsupported) => {}
            }
        }
        let key = self.redis.key(&["task", id]);
        let text: Option<String> = self
            .redis
            .run("reading a task", async |c| c.get(&key).await)
            .await
            .map_err(backend)?;
        text.map(|text| Stored::decode(text).map(Arc::new))
            .transpose()
    }

    /// The client cache, while it is on and Redis did not refuse it.
    fn cache(&self) -> Option<&RecordCache> {
        self.cache.as_ref().filter(|cache| cache.usable())
    }

    /// Drops this instance's copy of task `id`'s record after this
    /// instance wrote it: Redis's message about the write may arrive after
    /// the write returned, and a read in between must not get the copy.
    fn wrote(&self, id: &str) {
        if let Some(cache) = &self.cache {
            cache.forget(id);
        }
    }
}

impl TaskStore for RedisTaskStore {
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            let json = encode(&record);
            let expires = record
                .expires_at_ms()
                .map(|at| at.to_string())
                .unwrap_or_default();
            let entry = serde_json::to_string(&(&record.owner, &record.id))
                .expect("two strings always serialize");
            let (key, owner, expiry) = (
                self.redis.key(&["task", &record.id]),
                self.redis.key(&["owner", &record.owner]),
                self.redis.key(&["expiry"]),
            );
            let created = self
                .redis
                .run("creating a task", async |c| {
                    self.create
                        .key(&key)
                        .key(&owner)
                        .key(&expiry)
                        .arg(&json)
                        .arg(record.created_at_ms)
                        .arg(&record.id)
                        .arg(&expires)
                        .arg(&entry)
                        .invoke_async::<i32>(c)
                        .await
                })
                .await;
            // A copy could be left from a deleted record of that id.
            self.wrote(&record.id);
            match created.map_err(backend)? {
                1 => Ok(()),
                _ => Err(StoreError::Exists(record.id)),
            }
        })
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        if let Some(stored) = self.cache().and_then(|cache| cache.held(id)) {
            // Answered at once, without making the future that would wait
            // for Redis.
            let now = record::now_ms();
            let found = (!stored.record.expired(now)).then(|| stored.record.clone());
            return Box::pin(async move { Ok(found) });
        }
        Box::pin(async move {
            let now = record::now_ms();
            Ok(self
                .read(id)
                .await?
                .filter(|stored| !stored.record.expired(now))
                .map(|stored| stored.record.clone()))
        })
    }

    fn update<'a>(
        &'a self,
        id: &'a str,
        update: Update,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<Applied>, StoreError>> {
        Box::pin(async move {
            let key = self.redis.key(&["task", id]);
            let channel = self.redis.key(&["task-events"]);
            for _ in 0..ATTEMPTS {
                let Some(read) = self.read(id).await? else {
                    return Ok(None);
                };
                if read.record.expired(now_ms) {
                    return Ok(None);
                }
                let applied = record::apply(read.record.clone(), update.clone(), now_ms);
                if !applied.changed() {
                    return Ok(Some(applied));
                }
                let written = encode(&applied.record);
                let message = if applied.events.is_empty() {
                    String::new()
                } else {
                    let events = applied.events.iter().map(WireEvent::from).collect();
                    serde_json::to_string(&Published {
                        id: id.to_owned(),
                        events,
                    })
                    .expect("task events always serialize")
                };
                let set = self
                    .redis
                    .run("updating a task", async |c| {
                        self.compare_and_set
                            .key(&key)
                            .arg(&read.text)
                            .arg(&written)
                            .arg(&channel)
                            .arg(&message)
                            .invoke_async::<i32>(c)
                            .await
                    })
                    .await;
                // Written, perhaps written before an error, or the copy
                // read was stale: whichever, it goes, and the next read
                // asks Redis.
                self.wrote(id);
                if set.map_err(backend)? == 1 {
                    return Ok(Some(applied));
                }
            }
            Err(StoreError::Backend(format!(
                "task `{id}` changed under {ATTEMPTS} attempts to update it; try again"
            )))
        })
    }

    fn list<'a>(
        &'a self,
        owner: &'a str,
        after: Option<&'a str>,
        limit: usize,
    ) -> BoxFuture<'a, Result<Vec<TaskRecord>, StoreError>> {
        Box::pin(async move {
            let index = self.redis.key(&["owner", owner]);
            let now = record::now_ms();
            // Where the page starts: after the cursor's (created, id).
            let cursor = match after {
                Some(after) => {
                    let score: Option<f64> = self
                        .redis
                        .run("listing tasks", async |c| c.zscore(&index, after).await)
                        .await
                        .map_err(backend)?;
                    score.map(|score| (score, after.to_owned()))
                }
                None => None,
            };
            let min = cursor
                .as_ref()
                .map_or("-inf".to_owned(), |(s, _)| s.to_string());
            let mut found = Vec::new();
            let mut offset = 0usize;
            while found.len() < limit {
                let page: Vec<(String, f64)> = self
                    .redis
                    .run("listing tasks", async |c| {
                        redis::cmd("ZRANGE")
                            .arg(&index)
                            .arg(&min)
                            .arg("+inf")
                            .arg("BYSCORE")
                            .arg("LIMIT")
                            .arg(offset)
                            .arg(PAGE)
                            .arg("WITHSCORES")
                            .query_async(c)
                            .await
                    })
                    .await
                    .map_err(backend)?;
                offset += page.len();
                let ids: Vec<String> = page
                    .iter()
                    .filter(|(id, score)| match &cursor {
                        Some((at, after)) => (*score, id.as_str()) > (*at, after.as_str()),
                        None => true,
                    })
                    .map(|(id, _)| self.redis.key(&["task", id]))
                    .collect();
                if !ids.is_empty() {
                    let records: Vec<Option<String>> = self
                        .redis
                        .run("listing tasks", async |c| c.mget(&ids).await)
                        .await
                        .map_err(backend)?;
                    for text in records.into_iter().flatten() {
                        let record = decode(&text)?;
                        if !record.expired(now) && found.len() < limit {
                            found.push(record);
                        }
                    }
                }
                if page.len() < PAGE {
                    break;
                }
            }
            Ok(found)
        })
    }

    fn purge(&self, now_ms: u64) -> BoxFuture<'_, Result<usize, StoreError>> {
        Box::pin(async move {
            let expiry = self.redis.key(&["expiry"]);
            let prefix = self.redis.key(&[]);
            let purged: Vec<String> = self
                .redis
                .run("purging tasks", async |c| {
                    self.purge
                        .key(&expiry)
                        .arg(now_ms)
                        .arg(&prefix)
                        .invoke_async(c)
                        .await
                })
                .await
                .map_err(backend)?;
            for entry in &purged {
                // `[owner, id]`, as `create` wrote it; one that does not
                // decode still loses its copy when Redis's message arrives.
                if let Ok((_, id)) = serde_json::from_str::<(String, String)>(entry) {
                    self.wrote(&id);
                }
            }
            Ok(purged.len())
        })
    }

    fn watch(&self, id: &str) -> TaskWatch {
        self.watchers.watch(id)
    }

    fn describe(&self) -> String {
        self.redis.shown().to_owned()
    }
}

impl std::fmt::Debug for RedisTaskStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisTaskStore")
            .field("redis", &self.redis.shown())
            .finish_non_exhaustive()
    }
}
