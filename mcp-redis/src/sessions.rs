//! Legacy (2025-11-25) HTTP sessions on Redis: a client sent to another
//! instance keeps its session, with what it settled.

use std::sync::Arc;
use std::time::Duration;

use mcp_server::BoxFuture;
use mcp_server::seam::store::{SessionRecord, SessionStore, Unavailable};

use crate::connection::Redis;

/// Keeps each session as JSON at `session:<id>`, expiring after its idle
/// time: `SET … PX` to save, `PEXPIRE` to touch, `GET` to load, `DEL` to
/// remove; one round trip each.
pub struct RedisSessionStore {
    redis: Arc<Redis>,
}

impl RedisSessionStore {
    pub(crate) fn new(redis: Arc<Redis>) -> Self {
        Self { redis }
    }

    fn key(&self, id: &str) -> String {
        self.redis.key(&["session", id])
    }
}

/// Milliseconds for `PX`, never 0 (which Redis refuses).
fn millis(idle: Duration) -> u64 {
    u64::try_from(idle.as_millis()).unwrap_or(u64::MAX).max(1)
}

impl SessionStore for RedisSessionStore {
    fn save<'a>(
        &'a self,
        record: &'a SessionRecord,
        idle: Duration,
    ) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(async move {
            let key = self.key(&record.id);
            let json = serde_json::to_vec(record).map_err(|e| Unavailable(e.to_string()))?;
            self.redis
                .run("saving a session", async |c| {
                    redis::cmd("SET")
                        .arg(&key)
                        .arg(&json)
                        .arg("PX")
                        .arg(millis(idle))
                        .query_async::<()>(c)
                        .await
                })
                .await
                .map_err(|failed| Unavailable(failed.0))
        })
    }

    fn load<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<SessionRecord>, Unavailable>> {
        Box::pin(async move {
            let key = self.key(id);
            let json: Option<Vec<u8>> = self
                .redis
                .run("loading a session", async |c| {
                    redis::cmd("GET").arg(&key).query_async(c).await
                })
                .await
                .map_err(|failed| Unavailable(failed.0))?;
            let Some(json) = json else { return Ok(None) };
            match serde_json::from_slice(&json) {
                Ok(record) => Ok(Some(record)),
                Err(error) => {
                    // Not a session this crate wrote: unknown, as if expired.
                    tracing::warn!(target: "mcp_redis", %key, %error, "an unreadable session record is ignored");
                    Ok(None)
                }
            }
        })
    }

    fn touch<'a>(&'a self, id: &'a str, idle: Duration) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(async move {
            let key = self.key(id);
            self.redis
                .run("extending a session", async |c| {
                    redis::cmd("PEXPIRE")
                        .arg(&key)
                        .arg(millis(idle))
                        .query_async::<()>(c)
                        .await
                })
                .await
                .map_err(|failed| Unavailable(failed.0))
        })
    }

    fn remove<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(async move {
            let key = self.key(id);
            self.redis
                .run("removing a session", async |c| {
                    redis::cmd("DEL").arg(&key).query_async::<()>(c).await
                })
                .await
                .map_err(|failed| Unavailable(failed.0))
        })
    }
}

impl std::fmt::Debug for RedisSessionStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisSessionStore")
            .field("redis", &self.redis.shown())
            .finish()
    }
}
