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
//! | `TaskStore` (of `mcp-tasks`) | [`RedisTaskStore`] | task records, their expiry, and their events: a `tasks/cancel` received by one instance reaches the handler running on another |
//! | `UsedStateStore` | [`RedisUsedStates`] | one-time request states: a retry replayed on another instance is refused |
//! | `ChangeSink` | [`RedisChangeSink`] | changes: one published on one instance reaches the listen streams held by the others |
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

pub mod config;
mod connection;
mod sink;
mod tasks;
mod used;

use std::sync::Arc;

use mcp_server::boot::Diagnostic;
use mcp_server::config::SectionDecl;
use mcp_server::seam::Supplied;
use mcp_server::sink::ChangeSink;
use mcp_server::store::UsedStateStore;
use mcp_server::{BootContext, BootError, Item, Registration, origin, register};
use mcp_tasks::store::TaskStore;

use crate::config::RedisSection;
use crate::connection::Redis;
pub use crate::sink::RedisChangeSink;
pub use crate::tasks::RedisTaskStore;
pub use crate::used::RedisUsedStates;

const NOT_CONFIGURED: &str = "`redis.url` is not set";

fn extension(_: &BootContext) -> Item {
    Item::Extension
}

fn section(_: &BootContext) -> Item {
    Item::Section(SectionDecl::of::<RedisSection>())
}

/// A connection to the configured Redis, or why there is none. A URL that
/// does not parse fails boot (once, from the task store's registration).
fn redis(boot: &BootContext, report: bool) -> Result<Redis, Item> {
    match Redis::of(&boot.section::<RedisSection>()) {
        Ok(Some(redis)) => Ok(redis),
        Ok(None) => Err(Item::Inactive(NOT_CONFIGURED)),
        Err(error) => {
            if report {
                boot.fail(BootError::Extension(
                    Diagnostic::new("mcp_redis::invalid_url", "`redis.url` is not a Redis URL")
                        .note(error)
                        .help("write `redis://host:port/db`, `rediss://` for TLS, or unset `redis.url`"),
                ));
            }
            Err(Item::Inactive("`redis.url` is invalid"))
        }
    }
}

fn task_store(boot: &BootContext) -> Item {
    match redis(boot, true) {
        Ok(redis) => {
            let store: Arc<dyn TaskStore> = Arc::new(RedisTaskStore::new(redis));
            Item::Supply(Supplied::new(store))
        }
        Err(item) => item,
    }
}

fn used_states(boot: &BootContext) -> Item {
    match redis(boot, false) {
        Ok(redis) => {
            let store: Arc<dyn UsedStateStore> = Arc::new(RedisUsedStates::new(redis));
            Item::Supply(Supplied::new(store))
        }
        Err(item) => item,
    }
}

fn change_sink(boot: &BootContext) -> Item {
    match redis(boot, false) {
        Ok(redis) => {
            let sink: Arc<dyn ChangeSink> = Arc::new(RedisChangeSink::new(redis));
            Item::Supply(Supplied::new(sink))
        }
        Err(item) => item,
    }
}

register!(Registration::new(origin!(), "mcp-redis", 0, extension));
register!(Registration::new(origin!(), "redis-section", 0, section));
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
    "RedisChangeSink",
    change_sink
));
