//! The queue executor: tasks go to worker processes through a Redis stream
//! read by one consumer group, instead of running where they were created.
//!
//! [`start`](ExecutionStrategy::start) writes the task's [`Handoff`] to the
//! stream (`XADD`) and returns once Redis acknowledged it: the job is
//! durable from then on (as durable as the Redis is configured to be). A
//! [`Worker`](crate::Worker) claims it, runs it, records the outcome in the
//! task store and acknowledges it; a job whose worker went silent is taken
//! over by another worker after `redis.claim_after_ms`.

use std::sync::Arc;

use mcp_server::BoxFuture;
use mcp_tasks::executor::{Execution, ExecutionStrategy, StartError};
use mcp_tasks::handoff::Handoff;

use crate::connection::Redis;

/// The stream member that holds a job's handoff, as JSON.
pub(crate) const JOB: &str = "job";

/// The consumer group every worker reads the stream in.
pub(crate) const GROUP: &str = "workers";

/// The stream of jobs.
pub(crate) fn stream(redis: &Redis) -> String {
    redis.key(&["jobs"])
}

/// A [`ExecutionStrategy`] that queues each task on a Redis stream for the
/// workers; active when `redis.url` is set and `redis.queue` is on.
pub struct RedisQueueExecutor {
    redis: Arc<Redis>,
}

impl std::fmt::Debug for RedisQueueExecutor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisQueueExecutor")
            .field("stream", &stream(&self.redis))
            .finish_non_exhaustive()
    }
}

impl RedisQueueExecutor {
    pub(crate) fn new(redis: Arc<Redis>) -> Self {
        Self { redis }
    }
}

impl ExecutionStrategy for RedisQueueExecutor {
    fn start(&self, execution: Execution) -> BoxFuture<'static, Result<(), StartError>> {
        let redis = self.redis.clone();
        let job = serde_json::to_string(&Handoff::of(&execution));
        // The worker runs it: what this process holds for it goes now.
        execution.dispose();
        Box::pin(async move {
            let job = job.map_err(|e| StartError(format!("the task cannot be queued: {e}")))?;
            let stream = stream(&redis);
            redis
                .run("queueing a task", async |c| {
                    redis::cmd("XADD")
                        .arg(&stream)
                        .arg("*")
                        .arg(JOB)
                        .arg(&job)
                        .query_async::<String>(c)
                        .await
                })
                .await
                .map(drop)
                .map_err(|failed| StartError(failed.0))
        })
    }
}
