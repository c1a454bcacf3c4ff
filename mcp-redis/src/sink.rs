//! Change delivery across instances on Redis pub/sub: what one instance
//! publishes, the listeners held by every other hear.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use mcp_server::seam::sink::{Change, ChangeSink, Inbound};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::connection::{Redis, subscribe};

/// How many changes may wait to be sent before new ones are dropped (and
/// a warning logged): a Redis that does not answer must not grow memory.
const QUEUE: usize = 4_096;

/// What the `changes` channel carries: the change and the instance that
/// published it, whose own listeners were told already.
#[derive(Serialize, Deserialize)]
struct Published {
    from: String,
    change: Change,
}

/// Publishes this instance's changes on the channel `changes` and delivers
/// the other instances' to this one's listeners.
///
/// Changes are sent in the order they were published, by one task; Redis
/// delivers a channel's messages to each subscriber in order, so every
/// listener hears one instance's changes in the order they happened. What
/// each listener may hear is decided where it is held, by its own
/// instance's guards, as for a change published there.
pub struct RedisChangeSink {
    redis: Arc<Redis>,
    /// This instance and where changes from others go; the subscriber
    /// holds it weakly, so it stops when the sink is dropped.
    arrived: Arc<Arrived>,
    outbox: OnceLock<mpsc::Sender<String>>,
}

impl RedisChangeSink {
    pub(crate) fn new(redis: Arc<Redis>) -> Self {
        Self {
            redis,
            arrived: Arc::new(Arrived {
                instance: instance_id(),
                inbound: OnceLock::new(),
            }),
            outbox: OnceLock::new(),
        }
    }

    /// The sender of the task that publishes, started on first use (on the
    /// runtime that serves requests).
    fn outbox(&self) -> Option<&mpsc::Sender<String>> {
        if let Some(outbox) = self.outbox.get() {
            return Some(outbox);
        }
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        Some(self.outbox.get_or_init(|| {
            let (sender, mut receiver) = mpsc::channel::<String>(QUEUE);
            let redis = self.redis.clone();
            let channel = redis.key(&["changes"]);
            runtime.spawn(async move {
                while let Some(message) = receiver.recv().await {
                    let sent = redis
                        .run("publishing a change", async |c| {
                            redis::cmd("PUBLISH")
                                .arg(&channel)
                                .arg(&message)
                                .query_async::<i64>(c)
                                .await
                        })
                        .await;
                    if let Err(failed) = sent {
                        tracing::warn!(target: "mcp_redis", %failed, "a change was not sent to the other instances");
                    }
                }
            });
            sender
        }))
    }
}

/// An id for this instance: its process id and the time it was made (two
/// instances in one process, as in tests, are made at different times).
fn instance_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}-{nanos:x}", std::process::id())
}

/// Hands a message of the `changes` channel to this instance's listeners,
/// unless this instance sent it.
fn deliver(sink: &Arrived, payload: &[u8]) {
    let Ok(published) = serde_json::from_slice::<Published>(payload) else {
        return;
    };
    if published.from == sink.instance {
        return;
    }
    if let Some(inbound) = sink.inbound.get() {
        inbound.deliver(published.change);
    }
}

/// What the subscriber thread needs of the sink.
struct Arrived {
    /// This instance, to leave its own changes out when they come back.
    instance: String,
    inbound: OnceLock<Inbound>,
}

impl ChangeSink for RedisChangeSink {
    fn publish(&self, change: Change) {
        let message = serde_json::to_string(&Published {
            from: self.arrived.instance.clone(),
            change,
        })
        .expect("a change always serializes");
        match self.outbox() {
            Some(outbox) => {
                if outbox.try_send(message).is_err() {
                    tracing::warn!(target: "mcp_redis", "the change queue is full; a change was not sent to the other instances");
                }
            }
            None => {
                tracing::warn!(target: "mcp_redis", "a change published outside a tokio runtime was not sent to the other instances")
            }
        }
    }

    fn attach(&self, inbound: Inbound) {
        if self.arrived.inbound.set(inbound).is_err() {
            return;
        }
        subscribe(
            self.redis.client().clone(),
            self.redis.key(&["changes"]),
            &self.arrived,
            Duration::from_secs(2),
            deliver,
        );
    }
}

impl std::fmt::Debug for RedisChangeSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisChangeSink")
            .field("redis", &self.redis.shown())
            .finish_non_exhaustive()
    }
}
