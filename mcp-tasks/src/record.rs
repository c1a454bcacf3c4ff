//! The task record: what a store keeps of one task, and the one function
//! that changes it, shared by every store so that each applies the
//! transitions of the specification the same way.

use mcp_server::core::error::ErrorObject;
use mcp_server::core::ext::tasks::TaskStatus;
use mcp_server::core::json::JsonObject;
use serde::{Deserialize, Serialize};

/// Which wire created a task: the tasks extension of 2026-07-28 or the
/// core tasks of 2025-11-25. The era decides the shapes the task is read
/// with, and whether a tool result with `isError: true` ends it `failed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wire {
    /// `io.modelcontextprotocol/tasks`, on 2026-07-28 requests.
    Extension,
    /// Core tasks, on 2025-11-25 sessions.
    Legacy,
}

/// One task, as a store keeps it: plain data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    /// The task id: 128 random bits, in hex.
    pub id: String,
    /// Who may see it: the subject of the principal that created it
    /// (`""` for an anonymous caller).
    pub owner: String,
    /// Which wire created it.
    pub wire: Wire,
    /// The tool it runs.
    pub tool: String,
    /// Where it stands.
    pub status: TaskStatus,
    /// A human-readable account of where it stands.
    pub status_message: Option<String>,
    /// Creation, in milliseconds since the Unix epoch.
    pub created_at_ms: u64,
    /// Last change, in milliseconds since the Unix epoch; never moves back.
    pub updated_at_ms: u64,
    /// How long it is kept after creation; `None` for as long as the store lives.
    pub ttl_ms: Option<u64>,
    /// How often clients should poll it.
    pub poll_interval_ms: Option<u64>,
    /// The input requests not answered yet, by key (`{method, params}`).
    pub input_requests: JsonObject,
    /// The answers that arrived, by key; a key is never asked twice.
    pub input_responses: JsonObject,
    /// The request's result, once it completed (or, on the legacy wire,
    /// failed with a tool error).
    pub result: Option<JsonObject>,
    /// The JSON-RPC error it failed with.
    pub error: Option<ErrorObject>,
}

impl TaskRecord {
    /// A `working` record, created now.
    pub fn new(
        id: impl Into<String>,
        owner: impl Into<String>,
        wire: Wire,
        tool: impl Into<String>,
        now_ms: u64,
    ) -> Self {
        Self {
            id: id.into(),
            owner: owner.into(),
            wire,
            tool: tool.into(),
            status: TaskStatus::Working,
            status_message: None,
            created_at_ms: now_ms,
            updated_at_ms: now_ms,
            ttl_ms: None,
            poll_interval_ms: None,
            input_requests: JsonObject::new(),
            input_responses: JsonObject::new(),
            result: None,
            error: None,
        }
    }

    /// When it may be purged, if ever.
    pub fn expires_at_ms(&self) -> Option<u64> {
        self.ttl_ms
            .map(|ttl| self.created_at_ms.saturating_add(ttl))
    }

    /// Whether its time to live has run out at `now_ms`.
    pub fn expired(&self, now_ms: u64) -> bool {
        self.expires_at_ms().is_some_and(|at| at <= now_ms)
    }
}

/// How a task ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// `completed`, `failed` or `cancelled`.
    pub status: TaskStatus,
    /// The account of how it ended.
    pub message: Option<String>,
    /// The result, for a completed task.
    pub result: Option<JsonObject>,
    /// The error, for a failed task.
    pub error: Option<ErrorObject>,
}

impl Outcome {
    /// Completed with `result` (a tool error included, on the extension's wire).
    pub fn completed(result: JsonObject) -> Self {
        Self {
            status: TaskStatus::Completed,
            message: None,
            result: Some(result),
            error: None,
        }
    }

    /// Failed with a JSON-RPC error.
    pub fn failed(error: ErrorObject) -> Self {
        Self {
            status: TaskStatus::Failed,
            message: Some(error.message.clone()),
            result: None,
            error: Some(error),
        }
    }

    /// Cancelled.
    pub fn cancelled(message: impl Into<String>) -> Self {
        Self {
            status: TaskStatus::Cancelled,
            message: Some(message.into()),
            result: None,
            error: None,
        }
    }
}

/// A change to a task, applied atomically by the store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Update {
    /// Ends the task, unless it already ended: a terminal status is final.
    Finish(Outcome),
    /// Adds input requests, by keys not used before; the task becomes
    /// `input_required`.
    Ask(JsonObject),
    /// Delivers answers: those under outstanding keys are kept and their
    /// requests closed (others are ignored); with none left outstanding,
    /// the task is `working` again.
    Respond(JsonObject),
}

/// What a store tells the watchers of a task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskEvent {
    /// The status is now this one (cancellation included).
    Status(TaskStatus),
    /// Answers arrived under these keys.
    Responded(Vec<String>),
}

/// What applying an update did.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The record after the update (unchanged when nothing applied).
    pub record: TaskRecord,
    /// The events it caused; empty when nothing changed.
    pub events: Vec<TaskEvent>,
}

impl Applied {
    /// Whether the update changed the record.
    pub fn changed(&self) -> bool {
        !self.events.is_empty()
    }
}

/// Applies `update` to `record` at `now_ms`, as every store must: a
/// terminal task changes no more, and `updated_at_ms` never moves back.
pub fn apply(mut record: TaskRecord, update: Update, now_ms: u64) -> Applied {
    let mut events = Vec::new();
    if record.status.is_terminal() {
        return Applied { record, events };
    }
    match update {
        Update::Finish(outcome) => {
            if outcome.status.is_terminal() {
                record.status = outcome.status;
                record.status_message = outcome.message;
                record.result = outcome.result;
                record.error = outcome.error;
                record.input_requests.clear();
                events.push(TaskEvent::Status(record.status));
            }
        }
        Update::Ask(requests) => {
            let mut added = false;
            for (key, request) in requests {
                if record.input_requests.contains_key(&key)
                    || record.input_responses.contains_key(&key)
                {
                    continue;
                }
                record.input_requests.insert(key, request);
                added = true;
            }
            if added {
                record.status = TaskStatus::InputRequired;
                record.status_message = Some("The task waits for input.".into());
                events.push(TaskEvent::Status(record.status));
            }
        }
        Update::Respond(responses) => {
            let mut keys = Vec::new();
            for (key, response) in responses {
                if record.input_requests.remove(&key).is_some() {
                    record.input_responses.insert(key.clone(), response);
                    keys.push(key);
                }
            }
            if !keys.is_empty() {
                events.push(TaskEvent::Responded(keys));
                if record.input_requests.is_empty() {
                    record.status = TaskStatus::Working;
                    record.status_message = None;
                    events.push(TaskEvent::Status(record.status));
                }
            }
        }
    }
    if !events.is_empty() {
        record.updated_at_ms = record.updated_at_ms.max(now_ms);
    }
    Applied { record, events }
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> u64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}
