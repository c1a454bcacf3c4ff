//! The `redis` configuration section: where the shared Redis is, and the
//! prefix of every key this crate writes there.
//!
//! Nothing is active until `redis.url` is set. Every key can come from the
//! builder, the command line or the environment (`MCP_REDIS__URL`,
//! `MCP_REDIS__PREFIX`, `MCP_REDIS__TIMEOUT_MS`, `MCP_REDIS__QUEUE`,
//! `MCP_REDIS__CLAIM_AFTER_MS`, `MCP_REDIS__WORKER_JOBS`,
//! `MCP_REDIS__EVENTS_PER_STREAM`, `MCP_REDIS__EVENTS_TTL_MS`,
//! `MCP_REDIS__CLIENT_CACHE`, `MCP_REDIS__CLIENT_CACHE_SIZE`).
//!
//! ```
//! use mcp_redis::config::RedisSection;
//!
//! let section: RedisSection = serde_json::from_value(serde_json::json!({
//!     "url": "redis://127.0.0.1:6379/0",
//! })).unwrap();
//! assert_eq!(section.prefix, "mcp");
//! assert_eq!(section.timeout_ms, 2_000);
//! assert!(!section.queue, "tasks run where they are created unless asked");
//! assert!(section.client_cache, "task records are cached unless asked not to");
//! ```

use mcp_server::config::Section;
use serde::Deserialize;

/// The `redis` section.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RedisSection {
    /// The Redis to share (`redis://host:port/db`, `rediss://` for TLS, a
    /// password as `redis://:secret@host`); unset, nothing of this crate is
    /// active.
    pub url: Option<String>,
    /// The prefix of every key and channel, so that several deployments
    /// can share one Redis: `mcp` writes `mcp:task:<id>`.
    pub prefix: String,
    /// How long one Redis operation may take, connecting included, before
    /// the request that needed it fails with a clear error.
    pub timeout_ms: u64,
    /// Hand tasks to worker processes through a Redis stream (the
    /// `RedisQueueExecutor`) instead of running them in the instance that
    /// created them; a worker is the same application run with
    /// [`Worker`](crate::Worker).
    pub queue: bool,
    /// How long a worker may go unheard (it renews its claim three times
    /// in this span while a job runs) before another worker takes its job
    /// over and runs it again.
    pub claim_after_ms: u64,
    /// How many jobs one worker runs at once.
    pub worker_jobs: usize,
    /// How many events of one legacy SSE stream are kept for resumption
    /// (the oldest go first).
    pub events_per_stream: usize,
    /// How long a legacy stream's events are kept after its last event.
    pub events_ttl_ms: u64,
    /// Keep the task records this instance reads, and answer a read of a
    /// record that did not change from that copy, without a round trip to
    /// Redis (on by default). Redis's client-side caching keeps the copies
    /// coherent: it remembers which records this instance read (`CLIENT
    /// TRACKING` on a RESP3 connection of their own) and tells it when one
    /// changes, whoever changed it, by a write, a script, an expiry or a
    /// deletion, and the copy is dropped. A read that starts before that
    /// message arrives still gets the copy (see `docs/scale-out.md`). Off,
    /// every read goes to Redis, as it did before. A Redis that refuses
    /// tracking (older than 6, or `CLIENT` denied) turns it off by itself,
    /// with a warning in the log.
    pub client_cache: bool,
    /// At most how many task records the client cache holds; past that, an
    /// arbitrary one makes room.
    pub client_cache_size: usize,
}

impl Default for RedisSection {
    fn default() -> Self {
        Self {
            url: None,
            prefix: "mcp".into(),
            timeout_ms: 2_000,
            queue: false,
            claim_after_ms: 30_000,
            worker_jobs: 16,
            events_per_stream: 1_000,
            events_ttl_ms: 60 * 60 * 1_000,
            client_cache: true,
            client_cache_size: 10_000,
        }
    }
}

impl Section for RedisSection {
    const KEY: &'static str = "redis";
}
