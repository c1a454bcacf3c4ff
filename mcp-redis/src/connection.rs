//! One connection to the shared Redis: opened on first use, reconnected
//! by itself, every operation bounded by the configured time; and
//! subscriptions kept on a thread of their own.

use std::sync::{Arc, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use tokio::sync::OnceCell;

use crate::config::RedisSection;

/// Why Redis could not be used: its text names the operation and the cause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failed(pub(crate) String);

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The shared Redis, as one store uses it.
pub(crate) struct Redis {
    client: redis::Client,
    manager: OnceCell<ConnectionManager>,
    timeout: Duration,
    prefix: String,
    /// What the boot report and errors call it (the URL without a password).
    shown: String,
    /// The section it was made from.
    section: RedisSection,
}

impl Redis {
    /// The Redis `section` names; `Ok(None)` when `redis.url` is unset.
    pub(crate) fn of(section: &RedisSection) -> Result<Option<Self>, String> {
        let Some(url) = section.url.as_deref() else {
            return Ok(None);
        };
        let client = redis::Client::open(url).map_err(|e| e.to_string())?;
        let info = client.get_connection_info();
        let shown = format!("redis at {}", info.addr());
        Ok(Some(Self {
            client,
            manager: OnceCell::new(),
            timeout: Duration::from_millis(section.timeout_ms.max(1)),
            prefix: section.prefix.clone(),
            shown,
            section: section.clone(),
        }))
    }

    /// `prefix:part:part…`.
    pub(crate) fn key(&self, parts: &[&str]) -> String {
        let mut key = self.prefix.clone();
        for part in parts {
            key.push(':');
            key.push_str(part);
        }
        key
    }

    /// What the boot report calls it.
    pub(crate) fn shown(&self) -> &str {
        &self.shown
    }

    /// The section it was made from.
    pub(crate) fn section(&self) -> &RedisSection {
        &self.section
    }

    /// The time limit of one operation.
    pub(crate) fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The client, for subscriptions.
    pub(crate) fn client(&self) -> &redis::Client {
        &self.client
    }

    /// Runs `op` on the connection within the time limit; a connection
    /// that cannot be made is retried by the next operation.
    pub(crate) async fn run<T, F>(&self, what: &str, op: F) -> Result<T, Failed>
    where
        F: AsyncFnOnce(&mut ConnectionManager) -> redis::RedisResult<T>,
    {
        let timeout = self.timeout;
        self.within(what, async {
            let manager = self
                .manager
                .get_or_try_init(|| async {
                    let config = ConnectionManagerConfig::new()
                        .set_connection_timeout(Some(timeout))
                        .set_response_timeout(Some(timeout))
                        .set_number_of_retries(1);
                    ConnectionManager::new_with_config(self.client.clone(), config).await
                })
                .await?;
            let mut connection = manager.clone();
            op(&mut connection).await
        })
        .await
    }

    /// Awaits `attempt` within the time limit; a failure names `what` was
    /// done, on which Redis, and why.
    pub(crate) async fn within<T>(
        &self,
        what: &str,
        attempt: impl Future<Output = redis::RedisResult<T>>,
    ) -> Result<T, Failed> {
        match tokio::time::timeout(self.timeout, attempt).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) => Err(Failed(format!("{what} on {}: {error}", self.shown))),
            Err(_) => Err(Failed(format!(
                "{what} on {}: no answer within {} ms",
                self.shown,
                self.timeout.as_millis()
            ))),
        }
    }
}

/// Subscribes to `channel` on a thread of its own, for as long as `owner`
/// lives, handing each message's payload to `deliver`; reconnects after a
/// lost connection (what was published meanwhile is not heard: Redis
/// pub/sub keeps nothing). Returns once the first subscription is in place,
/// or after `wait` when Redis cannot be reached now.
pub(crate) fn subscribe<T: Send + Sync + 'static>(
    client: redis::Client,
    channel: String,
    owner: &Arc<T>,
    wait: Duration,
    deliver: fn(&T, &[u8]),
) {
    let owner: Weak<T> = Arc::downgrade(owner);
    let (ready, subscribed) = std::sync::mpsc::channel::<()>();
    let spawned = std::thread::Builder::new()
        .name("mcp-redis-subscriber".into())
        .spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            runtime.block_on(listen(client, channel, owner, ready, deliver));
        });
    if spawned.is_ok() {
        let _ = subscribed.recv_timeout(wait);
    }
}

async fn listen<T>(
    client: redis::Client,
    channel: String,
    owner: Weak<T>,
    ready: std::sync::mpsc::Sender<()>,
    deliver: fn(&T, &[u8]),
) {
    let mut failures = 0u32;
    while owner.strong_count() > 0 {
        let subscribed = async {
            let mut pubsub = client.get_async_pubsub().await?;
            pubsub.subscribe(&channel).await?;
            redis::RedisResult::Ok(pubsub)
        };
        match tokio::time::timeout(Duration::from_secs(5), subscribed).await {
            Ok(Ok(pubsub)) => {
                if failures > 0 {
                    tracing::info!(target: "mcp_redis", %channel, "subscribed again");
                }
                failures = 0;
                let _ = ready.send(());
                let mut messages = pubsub.into_on_message();
                while let Some(message) = messages.next().await {
                    let Some(owner) = owner.upgrade() else {
                        return;
                    };
                    deliver(&owner, message.get_payload_bytes());
                }
            }
            Ok(Err(error)) => {
                if failures == 0 {
                    tracing::warn!(target: "mcp_redis", %channel, %error, "cannot subscribe; retrying");
                }
                failures += 1;
            }
            Err(_) => failures += 1,
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
