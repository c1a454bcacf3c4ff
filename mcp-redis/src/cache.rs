//! Task records kept by this instance between reads, coherent with Redis
//! through its server-assisted client-side caching.
//!
//! Records are read on a connection of their own, in RESP3 with `CLIENT
//! TRACKING ON`: Redis remembers each key read there and, once that key is
//! modified (by any client, in a script, by expiry, eviction or deletion),
//! pushes an `invalidate` message on that connection, which drops the copy
//! here. A read of a copy held here costs no round trip.
//!
//! The redis crate has a cache of its own (`cache-aio`), which this does
//! not use: it keeps a reply in its cache after handing it over, without
//! checking that no invalidation of that key was handled meanwhile, so a
//! write that lands between Redis answering a read and the reply being
//! kept leaves the stale reply in the cache until the key changes again
//! (redis 1.8.1; `docs/scale-out.md` says how it was seen). It also caches
//! replies, not records, so every hit would decode the JSON again.
//!
//! The races are closed here:
//!
//! - a write between a read and keeping its copy: a read reserves its key
//!   before it asks, an invalidation removes reservations as well as
//!   copies (it is handled on the connection's task, before the replies
//!   after it are handed over), and a read keeps its copy only if its
//!   reservation is still there;
//! - this instance's own writes: they go on the store's other connection,
//!   and their invalidation, on the tracking connection, may be taken in
//!   after the write returns, so the writer drops its copy itself
//!   ([`forget`](RecordCache::forget)) once the write returns;
//! - a connection that fails, closes or goes silent: the invalidations
//!   sent meanwhile are lost, so every copy goes when the connection fails
//!   or closes, and copies are served only while the connection was heard
//!   from within the last [`QUIET`] (a read that finds it quieter asks
//!   Redis, which proves it alive again).
//!
//! What remains is an invalidation's delivery time: a read here that starts
//! after another instance's write returned, but before Redis's message
//! about it was taken in here, gets the copy as it was.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

use mcp_tasks::store::StoreError;
use redis::aio::MultiplexedConnection;
use redis::{
    AsyncCommands, AsyncConnectionConfig, ErrorKind, ProtocolVersion, PushInfo, PushKind,
    ServerErrorKind,
};

use crate::connection::{Failed, Redis};
use crate::tasks::Stored;

/// How long copies are served with nothing heard on the tracking
/// connection: the most a copy can be stale by when the connection is cut
/// without closing (a lost invalidation is then not noticed before).
const QUIET: Duration = Duration::from_secs(1);

/// What the client cache of task records did since its store was made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStatistics {
    /// Reads answered from a copy held by this instance.
    pub hits: u64,
    /// Reads that went to Redis.
    pub misses: u64,
    /// Copies, and reads in flight, dropped because Redis said their
    /// record changed.
    pub invalidations: u64,
}

/// Why a read through the cache gave no answer.
pub(crate) enum Missed {
    /// Redis refuses tracking: the read goes without the cache.
    Unsupported,
    /// Redis failed or did not answer in time.
    Failed(Failed),
    /// What Redis holds does not decode.
    Undecodable(StoreError),
}

/// A key's place in the cache.
enum Slot {
    /// A read of the key is in flight: its copy is kept only if this
    /// reservation is still here when it returns.
    Reserved(u64),
    /// The record as last read.
    Held(Arc<Stored>),
}

/// What the cache and its tracking connection's task share.
struct Shared {
    /// By task id.
    slots: Mutex<HashMap<String, Slot>>,
    /// What every record's key starts with (`<prefix>:task:`).
    records: String,
    capacity: usize,
    /// The tracking connection in use and its number; `None` before the
    /// first read and after a failure.
    tracking: Mutex<Option<(u64, MultiplexedConnection)>>,
    /// Reservation and connection numbers.
    next: AtomicU64,
    born: Instant,
    /// When the tracking connection last answered or pushed, in
    /// microseconds after `born`.
    heard: AtomicU64,
    hits: AtomicU64,
    misses: AtomicU64,
    invalidations: AtomicU64,
}

/// Locks `mutex`; a panic elsewhere while it was held leaves nothing half
/// done here (every change is one map operation), so its state is kept.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    /// Notes that the tracking connection was just heard from.
    fn heard_now(&self) {
        let now = self.born.elapsed().as_micros() as u64;
        self.heard.fetch_max(now, Ordering::Relaxed);
    }

    /// Whether the tracking connection was quiet too long to trust copies.
    fn quiet(&self) -> bool {
        let now = self.born.elapsed().as_micros() as u64;
        now.saturating_sub(self.heard.load(Ordering::Relaxed)) > QUIET.as_micros() as u64
    }

    /// The copy of task `id`'s record, if one is held and may be served.
    fn held(&self, id: &str) -> Option<Arc<Stored>> {
        if self.quiet() {
            return None;
        }
        match lock(&self.slots).get(id) {
            Some(Slot::Held(stored)) => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                Some(stored.clone())
            }
            _ => None,
        }
    }

    /// Reserves `id` for a read about to go to Redis.
    fn reserve(&self, id: &str) -> u64 {
        self.misses.fetch_add(1, Ordering::Relaxed);
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        self.put(id, Slot::Reserved(number));
        number
    }

    /// Keeps `stored` as the copy of `id` if `reservation` still holds it.
    fn keep(&self, id: &str, reservation: u64, stored: Arc<Stored>) {
        let mut slots = lock(&self.slots);
        if let Some(slot) = slots.get_mut(id)
            && matches!(slot, Slot::Reserved(number) if *number == reservation)
        {
            *slot = Slot::Held(stored);
        }
    }

    /// Removes `reservation` of `id`, if it is still there.
    fn release(&self, id: &str, reservation: u64) {
        let mut slots = lock(&self.slots);
        if matches!(slots.get(id), Some(Slot::Reserved(n)) if *n == reservation) {
            slots.remove(id);
        }
    }

    /// Puts `slot` at `id`, making room first when the cache is full.
    fn put(&self, id: &str, slot: Slot) {
        let mut slots = lock(&self.slots);
        if slots.len() >= self.capacity && !slots.contains_key(id) {
            let victim = slots.keys().next().cloned();
            if let Some(victim) = victim {
                slots.remove(&victim);
            }
        }
        slots.insert(id.to_owned(), slot);
    }

    /// Drops every copy and reservation.
    fn clear(&self) -> usize {
        let mut slots = lock(&self.slots);
        let dropped = slots.len();
        slots.clear();
        dropped
    }

    /// Acts on a push message of tracking connection `number`.
    fn pushed(&self, number: u64, push: PushInfo) {
        match push.kind {
            PushKind::Invalidate => {
                self.heard_now();
                let dropped = self.invalidate(&push.data);
                self.invalidations
                    .fetch_add(dropped as u64, Ordering::Relaxed);
            }
            PushKind::Disconnection => self.close(Some(number)),
            _ => {}
        }
    }

    /// Drops what an `invalidate` message names; how many slots went. A
    /// message with no key list (after `FLUSHDB`/`FLUSHALL`), or one not
    /// understood, drops everything.
    fn invalidate(&self, data: &[redis::Value]) -> usize {
        let Some(redis::Value::Array(keys)) = data.first() else {
            return self.clear();
        };
        let mut slots = lock(&self.slots);
        let mut dropped = 0;
        for key in keys {
            let redis::Value::BulkString(key) = key else {
                drop(slots);
                return dropped + self.clear();
            };
            // A key that is not UTF-8, or not a record's, is none of
            // this cache's.
            let id = std::str::from_utf8(key)
                .ok()
                .and_then(|key| key.strip_prefix(self.records.as_str()));
            if let Some(id) = id
                && slots.remove(id).is_some()
            {
                dropped += 1;
            }
        }
        dropped
    }

    /// The tracking connection in use, if there is one.
    fn current(&self) -> Option<(u64, MultiplexedConnection)> {
        lock(&self.tracking).clone()
    }

    /// Stops using tracking connection `number` (any, when `None`) and
    /// drops every copy: what was invalidated on it meanwhile is unknown.
    fn close(&self, number: Option<u64>) {
        {
            let mut tracking = lock(&self.tracking);
            if matches!(&*tracking, Some((n, _)) if number.is_none_or(|number| *n == number)) {
                *tracking = None;
            }
        }
        // After the connection is gone: a read that reserved before this
        // loses its reservation, and one that reserves after it cannot get
        // the connection that failed.
        self.clear();
    }
}

/// The client cache of one task store.
pub(crate) struct RecordCache {
    redis: Arc<Redis>,
    /// The same Redis, spoken to in RESP3 (push messages need it).
    client: redis::Client,
    shared: Arc<Shared>,
    /// Held while a tracking connection is opened, so only one is.
    opening: tokio::sync::Mutex<()>,
    /// Set once Redis refused tracking: reads go without the cache.
    refused: AtomicBool,
}

impl RecordCache {
    /// A cache of at most `capacity` records of `redis`; `None` (with a
    /// warning) when no RESP3 client can be made for it.
    pub(crate) fn new(redis: Arc<Redis>, capacity: usize) -> Option<Self> {
        let info = redis.client().get_connection_info().clone();
        let settings = info
            .redis_settings()
            .clone()
            .set_protocol(ProtocolVersion::RESP3);
        let client = match redis::Client::open(info.set_redis_settings(settings)) {
            Ok(client) => client,
            Err(error) => {
                tracing::warn!(target: "mcp_redis", %error, "task records are not cached");
                return None;
            }
        };
        Some(Self {
            client,
            shared: Arc::new(Shared {
                slots: Mutex::new(HashMap::new()),
                records: redis.key(&["task", ""]),
                capacity: capacity.max(1),
                tracking: Mutex::new(None),
                next: AtomicU64::new(1),
                born: Instant::now(),
                heard: AtomicU64::new(0),
                hits: AtomicU64::new(0),
                misses: AtomicU64::new(0),
                invalidations: AtomicU64::new(0),
            }),
            redis,
            opening: tokio::sync::Mutex::new(()),
            refused: AtomicBool::new(false),
        })
    }

    /// Whether reads go through the cache (Redis did not refuse tracking).
    pub(crate) fn usable(&self) -> bool {
        !self.refused.load(Ordering::Relaxed)
    }

    /// This instance's copy of task `id`'s record, when it holds one that
    /// may answer a read.
    pub(crate) fn held(&self, id: &str) -> Option<Arc<Stored>> {
        self.shared.held(id)
    }

    /// The record of task `id`: this instance's copy when it holds one
    /// that may be served, else read from Redis on the tracking connection
    /// (and kept, unless it changed meanwhile); `Ok(None)` when there is
    /// none.
    pub(crate) async fn read(&self, id: &str) -> Result<Option<Arc<Stored>>, Missed> {
        if let Some(stored) = self.shared.held(id) {
            return Ok(Some(stored));
        }
        let key = format!("{}{id}", self.shared.records);
        let reservation = self.shared.reserve(id);
        let text = self
            .redis
            .within("reading a task", async {
                let mut connection = self.connection().await?;
                connection.get::<_, Option<String>>(&key).await
            })
            .await;
        let text = match text {
            Ok(Some(text)) => text,
            Ok(None) => {
                self.shared.release(id, reservation);
                return Ok(None);
            }
            Err(failed) => {
                self.shared.release(id, reservation);
                if !self.usable() {
                    return Err(Missed::Unsupported);
                }
                // Whether the connection or only this read failed is not
                // known: a new connection costs less than a missed change.
                self.shared.close(None);
                return Err(Missed::Failed(failed));
            }
        };
        self.shared.heard_now();
        let stored = match Stored::decode(text) {
            Ok(stored) => Arc::new(stored),
            Err(error) => {
                self.shared.release(id, reservation);
                return Err(Missed::Undecodable(error));
            }
        };
        self.shared.keep(id, reservation, stored.clone());
        Ok(Some(stored))
    }

    /// Drops this instance's copy of task `id`'s record (and any read of
    /// it in flight): for the writer, after its own write, whose
    /// invalidation may arrive after the write returned.
    pub(crate) fn forget(&self, id: &str) {
        lock(&self.shared.slots).remove(id);
    }

    /// What the cache did so far.
    pub(crate) fn statistics(&self) -> CacheStatistics {
        CacheStatistics {
            hits: self.shared.hits.load(Ordering::Relaxed),
            misses: self.shared.misses.load(Ordering::Relaxed),
            invalidations: self.shared.invalidations.load(Ordering::Relaxed),
        }
    }

    /// The tracking connection, opened (with `CLIENT TRACKING ON`) if
    /// there is none.
    async fn connection(&self) -> redis::RedisResult<MultiplexedConnection> {
        if let Some((_, connection)) = self.shared.current() {
            return Ok(connection);
        }
        let _opening = self.opening.lock().await;
        if let Some((_, connection)) = self.shared.current() {
            return Ok(connection);
        }
        let opened = self.open().await;
        if let Err(error) = &opened
            && refusal(error)
        {
            tracing::warn!(
                target: "mcp_redis",
                %error,
                "Redis refuses client-side caching (RESP3 and `CLIENT TRACKING`); task records are read without it"
            );
            self.refused.store(true, Ordering::Relaxed);
        }
        opened
    }

    /// Opens a tracking connection and makes it the one in use.
    async fn open(&self) -> redis::RedisResult<MultiplexedConnection> {
        let number = self.shared.next.fetch_add(1, Ordering::Relaxed);
        // Weak: the connection's task must not keep the cache alive.
        let shared: Weak<Shared> = Arc::downgrade(&self.shared);
        let timeout = Some(self.redis.timeout());
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(timeout)
            .set_response_timeout(timeout)
            .set_push_sender(move |push: PushInfo| {
                // Handled on the connection's own task, before the replies
                // that follow the message are handed over.
                if let Some(shared) = shared.upgrade() {
                    shared.pushed(number, push);
                }
                Ok::<(), std::convert::Infallible>(())
            });
        let mut connection = self
            .client
            .get_multiplexed_async_connection_with_config(&config)
            .await?;
        redis::cmd("CLIENT")
            .arg("TRACKING")
            .arg("ON")
            .exec_async(&mut connection)
            .await?;
        self.shared.heard_now();
        *lock(&self.shared.tracking) = Some((number, connection.clone()));
        Ok(connection)
    }
}

/// Whether `error`, from opening a tracking connection, is Redis saying no
/// (no RESP3, `HELLO` or `CLIENT TRACKING` unknown or denied) rather than
/// a failure that may pass (`LOADING`, a lost connection).
fn refusal(error: &redis::RedisError) -> bool {
    matches!(
        error.kind(),
        ErrorKind::RESP3NotSupported
            | ErrorKind::Server(ServerErrorKind::ResponseError | ServerErrorKind::NoPerm)
    )
}
