//! Workers: processes of the same application that run the tasks the
//! [`RedisQueueExecutor`](crate::RedisQueueExecutor) queued.
//!
//! A worker reads the job stream in the `workers` consumer group, runs each
//! job's task through the whole pipeline with
//! [`run_handoff`](mcp_tasks::handoff::run_handoff) (guards and
//! interceptors decide again, as the task's caller), and acknowledges the
//! job once the outcome is in the store. While a job runs, the worker
//! renews its claim; a job whose worker died (no renewal for
//! `redis.claim_after_ms`) is taken over by another worker and runs again.
//!
//! Delivery is at least once: a tool whose effects must not repeat should
//! key them by its task (a handler reads nothing new for that: the same
//! arguments come again, and the effect can be written with "only if
//! absent" semantics keyed by a value the arguments carry), and a task that
//! already ended is never run again.

use std::sync::Arc;
use std::time::Duration;

use mcp_server::Server;
use mcp_tasks::handoff::{Handoff, HandoffError, run_handoff};
use redis::AsyncCommands;
use redis::streams::{
    StreamAutoClaimOptions, StreamAutoClaimReply, StreamClaimOptions, StreamId, StreamReadOptions,
    StreamReadReply,
};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use crate::Shared;
use crate::connection::{Failed, Redis};
use crate::queue::{GROUP, JOB, stream};

/// How long one read waits for a new job.
const BLOCK: Duration = Duration::from_secs(1);

/// Why a worker cannot run.
#[derive(Debug)]
#[non_exhaustive]
pub enum WorkerError {
    /// The server has no Redis: `redis.url` is not set (or `mcp-redis`
    /// did not boot with it).
    NotConfigured,
}

impl std::fmt::Display for WorkerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotConfigured => f.write_str("a worker needs `redis.url`"),
        }
    }
}

impl std::error::Error for WorkerError {}

/// Runs queued tasks on a server booted from the application that queued
/// them, sharing its Redis.
///
/// ```no_run
/// # async fn example(server: mcp_server::Server) -> Result<(), mcp_redis::WorkerError> {
/// let stop = tokio_util::sync::CancellationToken::new();
/// mcp_redis::Worker::of(&server)?.run(stop).await;
/// # Ok(())
/// # }
/// ```
pub struct Worker {
    server: Server,
    redis: Arc<Redis>,
    consumer: String,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("consumer", &self.consumer)
            .finish_non_exhaustive()
    }
}

impl Worker {
    /// The worker of `server`, named uniquely in the consumer group.
    ///
    /// # Errors
    ///
    /// [`WorkerError::NotConfigured`] when the server has no Redis.
    pub fn of(server: &Server) -> Result<Self, WorkerError> {
        let redis = server
            .shared::<Shared>()
            .and_then(|shared| shared.0.get().cloned())
            .and_then(Result::ok)
            .flatten()
            .ok_or(WorkerError::NotConfigured)?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        Ok(Self {
            server: server.clone(),
            redis,
            consumer: format!("worker-{}-{nanos:08x}", std::process::id()),
        })
    }

    /// Its name in the consumer group.
    pub fn consumer(&self) -> &str {
        &self.consumer
    }

    /// Takes and runs jobs until `stop` fires, then waits for the jobs it
    /// runs to end. Keeps trying while Redis cannot be reached.
    pub async fn run(self, stop: CancellationToken) {
        let section = self.redis.section();
        let jobs = section.worker_jobs.max(1);
        let claim_after = Duration::from_millis(section.claim_after_ms.max(100));
        let slots = Arc::new(Semaphore::new(jobs));
        let me = Arc::new(self);
        let mut reader = None;
        let mut failing = false;
        while !stop.is_cancelled() {
            let free = tokio::select! {
                () = stop.cancelled() => break,
                free = slots.clone().acquire_many_owned(1) => free,
            };
            drop(free);
            let free = slots.available_permits();
            let taken = match me.take(&mut reader, free, claim_after, &stop).await {
                Ok(taken) => {
                    if failing {
                        tracing::info!(target: "mcp_redis", "the job queue is reachable again");
                        failing = false;
                    }
                    taken
                }
                Err(failed) => {
                    if !failing {
                        tracing::warn!(target: "mcp_redis", error = %failed, "the job queue cannot be read; retrying");
                        failing = true;
                    }
                    reader = None;
                    tokio::select! {
                        () = stop.cancelled() => break,
                        () = tokio::time::sleep(Duration::from_millis(500)) => continue,
                    }
                }
            };
            for job in taken {
                let Ok(slot) = slots.clone().acquire_owned().await else {
                    break;
                };
                let me = me.clone();
                tokio::spawn(async move {
                    me.work(job, claim_after).await;
                    drop(slot);
                });
            }
        }
        // Close the reading connection first: a read Redis still blocks on
        // would take a job handed back meanwhile for this stopping worker.
        drop(reader);
        // Let the running jobs end: each holds a slot until it does.
        let _all = slots
            .acquire_many(u32::try_from(jobs).unwrap_or(u32::MAX))
            .await;
    }

    /// Up to `free` jobs: first those whose worker went silent, then new ones.
    async fn take(
        &self,
        reader: &mut Option<redis::aio::MultiplexedConnection>,
        free: usize,
        claim_after: Duration,
        stop: &CancellationToken,
    ) -> Result<Vec<StreamId>, Failed> {
        let stream = stream(&self.redis);
        let consumer = &self.consumer;
        self.redis
            .run("creating the workers' group", async |c| {
                let created: redis::RedisResult<()> =
                    c.xgroup_create_mkstream(&stream, GROUP, "0").await;
                match created {
                    Err(e) if e.code() == Some("BUSYGROUP") => Ok(()),
                    other => other,
                }
            })
            .await?;
        let idle = u64::try_from(claim_after.as_millis()).unwrap_or(u64::MAX);
        let reclaimed: StreamAutoClaimReply = self
            .redis
            .run("taking over silent workers' jobs", async |c| {
                c.xautoclaim_options(
                    &stream,
                    GROUP,
                    consumer,
                    idle,
                    "0-0",
                    StreamAutoClaimOptions::default().count(free),
                )
                .await
            })
            .await?;
        if !reclaimed.claimed.is_empty() {
            tracing::info!(target: "mcp_redis", jobs = reclaimed.claimed.len(), "took over jobs of a silent worker");
            return Ok(reclaimed.claimed);
        }
        if reader.is_none() {
            let config = redis::AsyncConnectionConfig::new()
                .set_connection_timeout(Some(self.redis.timeout()))
                .set_response_timeout(Some(BLOCK + self.redis.timeout()));
            let connection = self
                .redis
                .client()
                .get_multiplexed_async_connection_with_config(&config)
                .await
                .map_err(|e| Failed(format!("connecting a worker: {e}")))?;
            *reader = Some(connection);
        }
        let Some(connection) = reader.as_mut() else {
            return Ok(Vec::new());
        };
        let options = StreamReadOptions::default()
            .group(GROUP, consumer)
            .count(free)
            .block(usize::try_from(BLOCK.as_millis()).unwrap_or(1000));
        let (keys, ids) = ([stream.as_str()], [">"]);
        let read = tokio::select! {
            () = stop.cancelled() => return Ok(Vec::new()),
            read = connection.xread_options::<_, _, Option<StreamReadReply>>(&keys, &ids, &options) => read,
        };
        let read = read.map_err(|e| Failed(format!("reading the job queue: {e}")))?;
        Ok(read
            .map(|reply| reply.keys.into_iter().flat_map(|key| key.ids).collect())
            .unwrap_or_default())
    }

    /// Runs one job, renewing its claim while it runs, and acknowledges it
    /// once its outcome is recorded.
    async fn work(&self, job: StreamId, claim_after: Duration) {
        let handoff = job
            .get::<String>(JOB)
            .ok_or_else(|| "no job member".to_owned())
            .and_then(|text| serde_json::from_str::<Handoff>(&text).map_err(|e| e.to_string()));
        let handoff = match handoff {
            Ok(handoff) => handoff,
            Err(error) => {
                tracing::error!(target: "mcp_redis", id = %job.id, %error, "an unreadable job is dropped");
                self.acknowledge(&job.id).await;
                return;
            }
        };
        let renewing = CancellationToken::new();
        let renewal = tokio::spawn(self.renew(job.id.clone(), claim_after / 3, renewing.clone()));
        // The server's drain deadline (after SIGTERM) hands the job back.
        let deadline = self.server.shutdown().expired_token();
        let ran = tokio::select! {
            ran = run_handoff(&self.server, &handoff) => Some(ran),
            () = deadline.cancelled() => None,
        };
        renewing.cancel();
        let _ = renewal.await;
        let Some(ran) = ran else {
            self.hand_back(&job).await;
            return;
        };
        match ran {
            Ok(()) => {}
            Err(HandoffError::Refused(error)) => {
                tracing::info!(target: "mcp_redis", task = %handoff.task_id, error = %error.message, "a queued task was refused");
            }
            Err(HandoffError::Store(error)) => {
                // Not acknowledged: another worker takes it over.
                tracing::warn!(target: "mcp_redis", task = %handoff.task_id, %error, "a queued task's outcome was not recorded");
                return;
            }
        }
        self.acknowledge(&job.id).await;
    }

    /// Claims job `id` again every `every` until `done` fires, so no other
    /// worker takes it over while it runs here.
    fn renew(
        &self,
        id: String,
        every: Duration,
        done: CancellationToken,
    ) -> impl std::future::Future<Output = ()> + Send + 'static {
        let (redis, consumer) = (self.redis.clone(), self.consumer.clone());
        async move {
            let stream = stream(&redis);
            loop {
                tokio::select! {
                    () = done.cancelled() => return,
                    () = tokio::time::sleep(every) => {}
                }
                let renewed = redis
                    .run("renewing a job's claim", async |c| {
                        c.xclaim_options::<_, _, _, _, _, redis::Value>(
                            &stream,
                            GROUP,
                            &consumer,
                            0,
                            &[&id],
                            StreamClaimOptions::default().with_justid(),
                        )
                        .await
                    })
                    .await;
                if let Err(failed) = renewed {
                    tracing::warn!(target: "mcp_redis", job = %id, error = %failed, "a job's claim was not renewed");
                }
            }
        }
    }

    /// Puts `job` back on the stream as a new entry, for another worker to
    /// take at once, and acknowledges the one this worker held: a worker
    /// that stops does not make its jobs wait for `redis.claim_after_ms`.
    async fn hand_back(&self, job: &StreamId) {
        let Some(text) = job.get::<String>(JOB) else {
            return;
        };
        let stream = stream(&self.redis);
        let requeued = self
            .redis
            .run("handing a job back", async |c| {
                redis::pipe()
                    .atomic()
                    .cmd("XADD")
                    .arg(&stream)
                    .arg("*")
                    .arg(JOB)
                    .arg(&text)
                    .xack(&stream, GROUP, &[&job.id])
                    .xdel(&stream, &[&job.id])
                    .query_async::<()>(c)
                    .await
            })
            .await;
        match requeued {
            Ok(()) => {
                tracing::info!(target: "mcp_redis", job = %job.id, "a job cut by shutdown was handed back")
            }
            Err(failed) => {
                tracing::warn!(target: "mcp_redis", job = %job.id, error = %failed, "a job was not handed back; another worker takes it over after redis.claim_after_ms");
            }
        }
    }

    /// Acknowledges and deletes job `id`.
    async fn acknowledge(&self, id: &str) {
        let stream = stream(&self.redis);
        let done = self
            .redis
            .run("acknowledging a job", async |c| {
                redis::pipe()
                    .xack(&stream, GROUP, &[id])
                    .xdel(&stream, &[id])
                    .query_async::<()>(c)
                    .await
            })
            .await;
        if let Err(failed) = done {
            tracing::warn!(target: "mcp_redis", job = %id, error = %failed, "a job was not acknowledged; it may run again");
        }
    }
}
