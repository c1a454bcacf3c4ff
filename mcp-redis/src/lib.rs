//! Scale-out for `mcp-server` on Redis: the state that lets many stateless
//! instances behind one load balancer answer as one server.
//!
//! Link the crate (`use mcp_redis as _;`) and set `redis.url`
//! (`MCP_REDIS__URL=redis://127.0.0.1:6379`); until the URL is set nothing
//! of it is active and the server keeps its in-process defaults. Once set,
//! it supplies:
//!
//! | seam | member | what instances share |
//! |---|---|---|
//! | `TaskStore` (of `mcp-tasks`) | [`RedisTaskStore`] | task records, their expiry, and their events: a `tasks/cancel` received by one instance reaches the handler running on another; a record read before and unchanged since is answered from the instance's client cache (`redis.client_cache`) |
//! | `UsedStateStore` | [`RedisUsedStates`] | one-time request states: a retry replayed on another instance is refused |
//! | `ChangeSink` | [`RedisChangeSink`] | changes: one published on one instance reaches the listen streams held by the others |
//! | `SessionStore` | [`RedisSessionStore`] | legacy (2025-11-25) sessions: a client sent to another instance keeps its session, version, capabilities, log level and subscriptions |
//! | `EventStore` | [`RedisEventStore`] | legacy SSE events: a broken stream resumes with `Last-Event-ID` on another instance |
//! | `ExecutionStrategy` (of `mcp-tasks`), with `redis.queue` on | [`RedisQueueExecutor`] | a job stream: tasks run on [`Worker`]s, and a dead worker's job is taken over |
//!
//! Every operation is bounded by `redis.timeout_ms`: while Redis cannot be
//! reached, a request that needs it fails with a JSON-RPC error saying so,
//! and the next one reconnects.
//!
//! ```
//! use mcp_server::{Server, tool};
//!
//! /// Echoes its text.
//! #[tool]
//! async fn echo(text: String) -> String {
//!     text
//! }
//!
//! // Without `redis.url`, linking changes nothing.
//! let server = Server::builder().build();
//! assert!(server.report().to_string().contains("MemoryUsedStates"));
//! ```
//!
//! The guide is [docs/scale-out.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/scale-out.md).

mod cache;
pub mod config;
mod connection;
mod events;
mod queue;
mod sessions;
mod sink;
mod tasks;
mod used;
mod worker;

use std::sync::{Arc, OnceLock};

use mcp_server::boot::Diagnostic;
use mcp_server::boot::{BootContext, BootError};
use mcp_server::core::ext::tasks::EXTENSION_ID as TASKS;
use mcp_server::seam::OneActive;
use mcp_server::seam::sink::ChangeSink;
use mcp_server::seam::store::{EventStore, SessionStore, UsedStateStore};
use mcp_server::seam::{Extension, Item, Registration, Requirement};
use mcp_server::{origin, register};
use mcp_tasks::executor::ExecutionStrategy;
use mcp_tasks::store::TaskStore;

pub use crate::cache::CacheStatistics;
use crate::config::RedisSection;
use crate::connection::Redis;
pub use crate::events::RedisEventStore;
pub use crate::queue::RedisQueueExecutor;
pub use crate::sessions::RedisSessionStore;
pub use crate::sink::RedisChangeSink;
pub use crate::tasks::{OpenError, RedisTaskStore};
pub use crate::used::RedisUsedStates;
pub use crate::worker::{Worker, WorkerError};
use mcp_server::seam::contributor::health::{HealthCheck, Probe};

const NOT_CONFIGURED: &str = "`redis.url` is not set";

/// The extension: Redis under the stores, sinks and strategies of one
/// server and of `mcp-tasks`, which it requires.
fn extension(_: &BootContext) -> Item {
    Item::extension(
        Extension::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .requires(Requirement::extension(TASKS)),
    )
}

fn section(_: &BootContext) -> Item {
    Item::section::<RedisSection>()
}

/// The one connection of a boot to the configured Redis, shared by the
/// members that need it: the URL is read once, one multiplexed connection
/// serves them all, and a URL that does not parse fails boot once.
#[derive(Default)]
pub(crate) struct Shared(pub(crate) OnceLock<Result<Option<Arc<Redis>>, String>>);

/// Supplies the member `make` builds on the configured Redis, or is
/// inactive saying why.
fn supply<S: OneActive + ?Sized>(boot: &BootContext, make: fn(Arc<Redis>) -> Arc<S>) -> Item {
    let shared = boot.shared::<Shared>();
    let redis = shared.0.get_or_init(|| {
        let redis = Redis::of(&boot.section::<RedisSection>()).map(|r| r.map(Arc::new));
        if let Err(error) = &redis {
            boot.fail(BootError::Extension(
                Diagnostic::new("mcp_redis::invalid_url", "`redis.url` is not a Redis URL")
                    .note(error.clone())
                    .help(
                        "write `redis://host:port/db`, `rediss://` for TLS, or unset `redis.url`",
                    ),
            ));
        }
        redis
    });
    match redis {
        Ok(Some(redis)) => Item::supply(make(redis.clone())),
        Ok(None) => Item::inactive(NOT_CONFIGURED),
        Err(_) => Item::inactive("`redis.url` is invalid"),
    }
}

/// Readiness: the configured Redis answers `PING` within a second. What
/// fails is logged, never served (the URL may carry a password).
fn health(boot: &BootContext) -> Item {
    // The supplies, made before this registration, opened the connection
    // (or found `redis.url` unset or invalid).
    let redis = boot.shared::<Shared>().0.get().cloned();
    let Some(Ok(Some(redis))) = redis else {
        return Item::inactive(NOT_CONFIGURED);
    };
    let check = HealthCheck::new("redis", Probe::Readiness, move || {
        let redis = redis.clone();
        async move {
            redis
                .run("PING", async |connection| {
                    redis::cmd("PING").query_async::<String>(connection).await
                })
                .await
                .map(drop)
                .map_err(|failed| failed.to_string())
        }
    })
    .timeout(std::time::Duration::from_secs(1));
    Item::health_check(check)
}

fn task_store(boot: &BootContext) -> Item {
    supply::<dyn TaskStore>(boot, |redis| Arc::new(RedisTaskStore::new(redis)))
}

fn used_states(boot: &BootContext) -> Item {
    supply::<dyn UsedStateStore>(boot, |redis| Arc::new(RedisUsedStates::new(redis)))
}

fn queue_executor(boot: &BootContext) -> Item {
    if !boot.section::<RedisSection>().queue {
        return Item::inactive("`redis.queue` is off: tasks run where they are created");
    }
    supply::<dyn ExecutionStrategy>(boot, |redis| Arc::new(RedisQueueExecutor::new(redis)))
}

fn session_store(boot: &BootContext) -> Item {
    supply::<dyn SessionStore>(boot, |redis| Arc::new(RedisSessionStore::new(redis)))
}

fn event_store(boot: &BootContext) -> Item {
    supply::<dyn EventStore>(boot, |redis| Arc::new(RedisEventStore::new(redis)))
}

fn change_sink(boot: &BootContext) -> Item {
    supply::<dyn ChangeSink>(boot, |redis| Arc::new(RedisChangeSink::new(redis)))
}

register!(Registration::extension(origin!(), "mcp-redis", extension));
register!(Registration::new(origin!(), "redis-section", 0, section));
register!(Registration::new(origin!(), "redis-health", 0, health));
register!(Registration::supply(
    origin!(),
    "RedisTaskStore",
    task_store
));
register!(Registration::supply(
    origin!(),
    "RedisUsedStates",
    used_states
));
register!(Registration::supply(
    origin!(),
    "RedisQueueExecutor",
    queue_executor
));
register!(Registration::supply(
    origin!(),
    "RedisChangeSink",
    change_sink
));
register!(Registration::supply(
    origin!(),
    "RedisSessionStore",
    session_store
));
register!(Registration::supply(
    origin!(),
    "RedisEventStore",
    event_store
));
