//! Used request states on Redis: a state claimed on one instance is
//! refused on every other, until it expires.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use mcp_server::BoxFuture;
use mcp_server::seam::store::{Unavailable, UsedStateStore};

use crate::connection::Redis;

/// Claims request states with `SET used:<id> 1 NX PXAT <expiry>`: one
/// round trip, atomic, and Redis forgets the record when the state could
/// no longer be opened anyway.
pub struct RedisUsedStates {
    redis: Arc<Redis>,
}

impl RedisUsedStates {
    pub(crate) fn new(redis: Arc<Redis>) -> Self {
        Self { redis }
    }
}

impl UsedStateStore for RedisUsedStates {
    fn claim<'a>(
        &'a self,
        id: &'a str,
        expires: SystemTime,
    ) -> BoxFuture<'a, Result<bool, Unavailable>> {
        Box::pin(async move {
            let key = self.redis.key(&["used", id]);
            // A state expiring now or before is already refused when it is
            // opened; keep the record a moment in any case.
            let at = expires
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis())
                .max(
                    SystemTime::now()
                        .duration_since(UNIX_EPOCH)
                        .map_or(0, |d| d.as_millis())
                        + 1_000,
                );
            let set: Option<String> = self
                .redis
                .run("claiming a request state", async |c| {
                    redis::cmd("SET")
                        .arg(&key)
                        .arg(1)
                        .arg("NX")
                        .arg("PXAT")
                        .arg(u64::try_from(at).unwrap_or(u64::MAX))
                        .query_async(c)
                        .await
                })
                .await
                .map_err(|failed| Unavailable(failed.0))?;
            Ok(set.is_some())
        })
    }
}

impl std::fmt::Debug for RedisUsedStates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisUsedStates")
            .field("redis", &self.redis.shown())
            .finish()
    }
}
