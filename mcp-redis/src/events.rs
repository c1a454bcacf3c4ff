//! The events of legacy (2025-11-25) SSE streams on Redis: a client whose
//! stream broke resumes it with `Last-Event-ID` on any instance.
//!
//! Keys (under the configured prefix):
//!
//! - `events:<session>:<stream>`: a list of the stream's events, each its
//!   sequence number (8 bytes, big-endian) then its message; at most
//!   `redis.events_per_stream` (the oldest go first);
//! - `events:<session>`: the set of the session's stream numbers, for
//!   [`forget`](EventStore::forget).
//!
//! Both expire `redis.events_ttl_ms` after the stream's last event.

use std::sync::Arc;

use mcp_server::BoxFuture;
use mcp_server::seam::store::{EventId, EventStore, Replay, Unavailable};

use crate::connection::Redis;

/// Keeps each stream's events in a bounded Redis list: an append is one
/// pipelined round trip, a replay one `LRANGE` of a single stream.
pub struct RedisEventStore {
    redis: Arc<Redis>,
    per_stream: isize,
    ttl_ms: u64,
}

impl RedisEventStore {
    pub(crate) fn new(redis: Arc<Redis>) -> Self {
        let section = redis.section();
        let per_stream = isize::try_from(section.events_per_stream.max(1)).unwrap_or(isize::MAX);
        let ttl_ms = section.events_ttl_ms.max(1);
        Self {
            redis,
            per_stream,
            ttl_ms,
        }
    }

    fn stream_key(&self, session: &str, stream: u64) -> String {
        self.redis.key(&["events", session, &stream.to_string()])
    }
}

/// An event as the list keeps it.
fn entry(sequence: u64, message: &[u8]) -> Vec<u8> {
    let mut entry = Vec::with_capacity(8 + message.len());
    entry.extend_from_slice(&sequence.to_be_bytes());
    entry.extend_from_slice(message);
    entry
}

/// The sequence and message of a kept event; `None` for one this crate
/// did not write.
fn parse(entry: &[u8]) -> Option<(u64, &[u8])> {
    let (sequence, message) = entry.split_at_checked(8)?;
    Some((u64::from_be_bytes(sequence.try_into().ok()?), message))
}

impl EventStore for RedisEventStore {
    fn append<'a>(
        &'a self,
        session: &'a str,
        id: EventId,
        message: Vec<u8>,
    ) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(async move {
            let list = self.stream_key(session, id.stream);
            let streams = self.redis.key(&["events", session]);
            let entry = entry(id.sequence, &message);
            self.redis
                .run("keeping an event", async |c| {
                    redis::pipe()
                        .rpush(&list, &entry)
                        .ignore()
                        .ltrim(&list, -self.per_stream, -1)
                        .ignore()
                        .cmd("PEXPIRE")
                        .arg(&list)
                        .arg(self.ttl_ms)
                        .ignore()
                        .sadd(&streams, id.stream)
                        .ignore()
                        .cmd("PEXPIRE")
                        .arg(&streams)
                        .arg(self.ttl_ms)
                        .ignore()
                        .query_async::<()>(c)
                        .await
                })
                .await
                .map_err(|failed| Unavailable(failed.0))
        })
    }

    fn replay_after<'a>(
        &'a self,
        session: &'a str,
        last_event_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<Replay>, Unavailable>> {
        Box::pin(async move {
            let Some(after) = EventId::parse(last_event_id) else {
                return Ok(None);
            };
            let list = self.stream_key(session, after.stream);
            let kept: Vec<Vec<u8>> = self
                .redis
                .run("replaying events", async |c| {
                    redis::cmd("LRANGE")
                        .arg(&list)
                        .arg(0)
                        .arg(-1)
                        .query_async(c)
                        .await
                })
                .await
                .map_err(|failed| Unavailable(failed.0))?;
            let kept: Vec<_> = kept.iter().filter_map(|entry| parse(entry)).collect();
            // An id past the last kept event was never given on this stream.
            match kept.last() {
                Some((last, _)) if after.sequence <= *last => {}
                _ => return Ok(None),
            }
            let events = kept
                .into_iter()
                .filter(|(sequence, _)| *sequence > after.sequence)
                .map(|(sequence, message)| {
                    let id = EventId {
                        stream: after.stream,
                        sequence,
                    };
                    (id.to_string(), message.to_vec())
                })
                .collect();
            Ok(Some(Replay {
                stream: after.stream,
                events,
            }))
        })
    }

    fn forget<'a>(&'a self, session: &'a str) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(async move {
            let streams = self.redis.key(&["events", session]);
            let numbers: Vec<u64> = self
                .redis
                .run("listing a session's streams", async |c| {
                    redis::cmd("SMEMBERS").arg(&streams).query_async(c).await
                })
                .await
                .map_err(|failed| Unavailable(failed.0))?;
            let mut keys: Vec<String> = numbers
                .into_iter()
                .map(|stream| self.stream_key(session, stream))
                .collect();
            keys.push(streams);
            self.redis
                .run("forgetting a session's events", async |c| {
                    redis::cmd("DEL").arg(&keys).query_async::<()>(c).await
                })
                .await
                .map_err(|failed| Unavailable(failed.0))
        })
    }
}

impl std::fmt::Debug for RedisEventStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisEventStore")
            .field("redis", &self.redis.shown())
            .field("per_stream", &self.per_stream)
            .field("ttl_ms", &self.ttl_ms)
            .finish()
    }
}
