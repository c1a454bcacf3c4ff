//! The tasks extension (`io.modelcontextprotocol/tasks`): a server may answer `tools/call` with a task handle that the client polls with `tasks/get`, feeds with `tasks/update` and stops with `tasks/cancel`.
//!
//! ```
//! use mcp_core::ext::tasks::{CreateTaskResult, DetailedTask, GetTaskResult, TaskStatus};
//!
//! let created: CreateTaskResult = serde_json::from_value(serde_json::json!({
//!     "resultType": "task", "taskId": "t-1", "status": "working",
//!     "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:30:00Z",
//!     "ttlMs": null, "pollIntervalMs": 5000
//! })).unwrap();
//! assert_eq!(created.task.ttl_ms, None);
//! // `ttlMs` is required even when unlimited: it is written as `null`.
//! assert_eq!(serde_json::to_value(&created).unwrap()["ttlMs"], serde_json::Value::Null);
//!
//! let polled: GetTaskResult = serde_json::from_value(serde_json::json!({
//!     "resultType": "complete", "taskId": "t-1", "status": "completed",
//!     "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:50:00Z",
//!     "ttlMs": 60000, "result": {"content": [{"type": "text", "text": "done"}], "isError": false}
//! })).unwrap();
//! assert_eq!(polled.task.status(), TaskStatus::Completed);
//! let DetailedTask::Completed(completed) = &polled.task else { unreachable!() };
//! assert_eq!(completed.result["isError"], false);
//! // A completed task must carry its result.
//! assert!(serde_json::from_value::<DetailedTask>(serde_json::json!({
//!     "taskId": "t-1", "status": "completed", "createdAt": "", "lastUpdatedAt": "", "ttlMs": 1
//! })).is_err());
//! ```

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};

use crate::error::ErrorObject;
use crate::json::{JsonObject, JsonValue};
use crate::jsonrpc::ResultResponse;
use crate::meta::{NotificationMeta, RequestMeta, ResultMeta};
use crate::method::{TypedNotification, TypedRequest, methods, notifications, params};
use crate::mrtr::{InputRequests, InputRequiredResult, InputResponses};
use crate::result::{Outcome, ResultType};
use crate::subscriptions::SubscriptionFilter;
use crate::tag::wire_tag;
use crate::version::Era;

/// The extension identifier, the key under `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/tasks";

/// `"resultType": "task"`, the result type this extension adds.
pub const TASK: ResultType = ResultType::from_static("task");

/// `taskIds`, the member this extension adds to a `subscriptions/listen` filter.
pub const TASK_IDS: &str = "taskIds";

wire_tag!(
    /// `"resultType": "task"` (`CreateTaskResult`).
    TaskResultTypeTag = "task"
);
wire_tag!(
    /// `"resultType": "complete"` (`GetTaskResult`, `UpdateTaskResult`, `CancelTaskResult`).
    CompleteResultTypeTag = "complete"
);
wire_tag!(
    /// `"status": "working"`.
    WorkingStatusTag = "working"
);
wire_tag!(
    /// `"status": "input_required"`.
    InputRequiredStatusTag = "input_required"
);
wire_tag!(
    /// `"status": "completed"`.
    CompletedStatusTag = "completed"
);
wire_tag!(
    /// `"status": "failed"`.
    FailedStatusTag = "failed"
);
wire_tag!(
    /// `"status": "cancelled"`.
    CancelledStatusTag = "cancelled"
);

/// The status of a task (`TaskStatus`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum TaskStatus {
    /// The request is being processed.
    #[default]
    Working,
    /// The task waits for the client to answer its input requests.
    InputRequired,
    /// The request completed and its result is available (tool errors included).
    Completed,
    /// The request failed with a JSON-RPC error.
    Failed,
    /// The request was cancelled before completion.
    Cancelled,
}

impl TaskStatus {
    /// Whether the status is final: `completed`, `failed` or `cancelled`.
    pub fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

/// The largest integer the schema allows (`Number.MAX_SAFE_INTEGER`).
#[cfg(feature = "arbitrary")]
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A millisecond count within the schema's safe-integer range.
#[cfg(feature = "arbitrary")]
fn safe_ms(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<u64> {
    u.int_in_range(0..=MAX_SAFE_INTEGER)
}

/// Optional [`safe_ms`].
#[cfg(feature = "arbitrary")]
fn opt_safe_ms(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<Option<u64>> {
    if u.arbitrary()? {
        safe_ms(u).map(Some)
    } else {
        Ok(None)
    }
}

/// Reads a member that must be present but may be `null` (`ttlMs`).
fn required_nullable<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Option::<u64>::deserialize(d)
}

/// The state of a task, without its status-specific members (`Task`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Task {
    /// The task identifier, generated by the server and unguessable.
    pub task_id: String,
    /// The current status.
    pub status: TaskStatus,
    /// A human-readable description of the current state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// When the task was created, as an ISO 8601 timestamp.
    pub created_at: String,
    /// When the task was last updated, as an ISO 8601 timestamp.
    pub last_updated_at: String,
    /// How long the task lives after creation, in milliseconds; `None` (`null`) for unlimited.
    #[serde(deserialize_with = "required_nullable")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = opt_safe_ms))]
    pub ttl_ms: Option<u64>,
    /// How often the client should poll, in milliseconds.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = opt_safe_ms))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
}

/// A task still being processed (`WorkingTask`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct WorkingTask {
    /// The task identifier.
    pub task_id: String,
    /// Always `working`.
    pub status: WorkingStatusTag,
    /// A human-readable description of the progress.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// When the task was created, as an ISO 8601 timestamp.
    pub created_at: String,
    /// When the task was last updated, as an ISO 8601 timestamp.
    pub last_updated_at: String,
    /// How long the task lives after creation, in milliseconds; `None` (`null`) for unlimited.
    #[serde(deserialize_with = "required_nullable")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = opt_safe_ms))]
    pub ttl_ms: Option<u64>,
    /// How often the client should poll, in milliseconds.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = opt_safe_ms))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
}

/// A task waiting for the client to fulfil its input requests (`InputRequiredTask`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct InputRequiredTask {
    /// The task identifier.
    pub task_id: String,
    /// Always `input_required`.
    pub status: InputRequiredStatusTag,
    /// A human-readable description of what the task waits for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// When the task was created, as an ISO 8601 timestamp.
    pub created_at: String,
    /// When the task was last updated, as an ISO 8601 timestamp.
    pub last_updated_at: String,
    /// How long the task lives after creation, in milliseconds; `None` (`null`) for unlimited.
    #[serde(deserialize_with = "required_nullable")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = opt_safe_ms))]
    pub ttl_ms: Option<u64>,
    /// How often the client should poll, in milliseconds.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = opt_safe_ms))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
    /// Every outstanding input request, by a key never reused over the task's life;
    /// the client answers them with `tasks/update`.
    pub input_requests: InputRequests,
}

/// A task whose request completed (`CompletedTask`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CompletedTask {
    /// The task identifier.
    pub task_id: String,
    /// Always `completed`.
    pub status: CompletedStatusTag,
    /// A human-readable summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// When the task was created, as an ISO 8601 timestamp.
    pub created_at: String,
    /// When the task was last updated, as an ISO 8601 timestamp.
    pub last_updated_at: String,
    /// How long the task lives after creation, in milliseconds; `None` (`null`) for unlimited.
    #[serde(deserialize_with = "required_nullable")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = opt_safe_ms))]
    pub ttl_ms: Option<u64>,
    /// How often the client should poll, in milliseconds.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = opt_safe_ms))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
    /// The result of the original request (for `tools/call`, a `CallToolResult`,
    /// including one with `isError: true`).
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::any_json_object))]
    pub result: JsonObject,
}

/// A task whose request failed with a JSON-RPC error (`FailedTask`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct FailedTask {
    /// The task identifier.
    pub task_id: String,
    /// Always `failed`.
    pub status: FailedStatusTag,
    /// A human-readable diagnosis; should be present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// When the task was created, as an ISO 8601 timestamp.
    pub created_at: String,
    /// When the task was last updated, as an ISO 8601 timestamp.
    pub last_updated_at: String,
    /// How long the task lives after creation, in milliseconds; `None` (`null`) for unlimited.
    #[serde(deserialize_with = "required_nullable")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = opt_safe_ms))]
    pub ttl_ms: Option<u64>,
    /// How often the client should poll, in milliseconds.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = opt_safe_ms))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
    /// The JSON-RPC error the request ended with.
    pub error: ErrorObject,
}

/// A task that was cancelled (`CancelledTask`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CancelledTask {
    /// The task identifier.
    pub task_id: String,
    /// Always `cancelled`.
    pub status: CancelledStatusTag,
    /// A human-readable reason for the cancellation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// When the task was created, as an ISO 8601 timestamp.
    pub created_at: String,
    /// When the task was last updated, as an ISO 8601 timestamp.
    pub last_updated_at: String,
    /// How long the task lives after creation, in milliseconds; `None` (`null`) for unlimited.
    #[serde(deserialize_with = "required_nullable")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = opt_safe_ms))]
    pub ttl_ms: Option<u64>,
    /// How often the client should poll, in milliseconds.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = opt_safe_ms))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
}

/// A task with the members its status adds (`DetailedTask`), as `tasks/get`
/// and `notifications/tasks` carry it.
///
/// Decoding dispatches on `status`, so a malformed task is reported against
/// the variant its status names (such as a `completed` task without `result`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum DetailedTask {
    /// `working`.
    Working(WorkingTask),
    /// `input_required`, with the outstanding input requests.
    InputRequired(InputRequiredTask),
    /// `completed`, with the result.
    Completed(CompletedTask),
    /// `failed`, with the error.
    Failed(FailedTask),
    /// `cancelled`.
    Cancelled(CancelledTask),
}

impl<'de> Deserialize<'de> for DetailedTask {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let object = JsonObject::deserialize(deserializer)?;
        let status = object
            .get("status")
            .ok_or_else(|| D::Error::missing_field("status"))?;
        let status = TaskStatus::deserialize(status).map_err(D::Error::custom)?;
        let value = JsonValue::Object(object);
        match status {
            TaskStatus::Working => serde_json::from_value(value).map(Self::Working),
            TaskStatus::InputRequired => serde_json::from_value(value).map(Self::InputRequired),
            TaskStatus::Completed => serde_json::from_value(value).map(Self::Completed),
            TaskStatus::Failed => serde_json::from_value(value).map(Self::Failed),
            TaskStatus::Cancelled => serde_json::from_value(value).map(Self::Cancelled),
        }
        .map_err(D::Error::custom)
    }
}

/// Evaluates `$body` with `$task` bound to the variant's struct, whichever it is.
macro_rules! each_variant {
    ($value:expr, $task:ident => $body:expr) => {
        match $value {
            DetailedTask::Working($task) => $body,
            DetailedTask::InputRequired($task) => $body,
            DetailedTask::Completed($task) => $body,
            DetailedTask::Failed($task) => $body,
            DetailedTask::Cancelled($task) => $body,
        }
    };
}

impl DetailedTask {
    /// The task identifier.
    pub fn task_id(&self) -> &str {
        each_variant!(self, task => &task.task_id)
    }

    /// The status.
    pub fn status(&self) -> TaskStatus {
        match self {
            Self::Working(_) => TaskStatus::Working,
            Self::InputRequired(_) => TaskStatus::InputRequired,
            Self::Completed(_) => TaskStatus::Completed,
            Self::Failed(_) => TaskStatus::Failed,
            Self::Cancelled(_) => TaskStatus::Cancelled,
        }
    }

    /// The task without its status-specific members, as a `CreateTaskResult` carries it.
    pub fn summary(&self) -> Task {
        let status = self.status();
        each_variant!(self, task => Task {
            task_id: task.task_id.clone(),
            status,
            status_message: task.status_message.clone(),
            created_at: task.created_at.clone(),
            last_updated_at: task.last_updated_at.clone(),
            ttl_ms: task.ttl_ms,
            poll_interval_ms: task.poll_interval_ms,
        })
    }
}

impl From<WorkingTask> for DetailedTask {
    fn from(task: WorkingTask) -> Self {
        Self::Working(task)
    }
}

impl From<InputRequiredTask> for DetailedTask {
    fn from(task: InputRequiredTask) -> Self {
        Self::InputRequired(task)
    }
}

impl From<CompletedTask> for DetailedTask {
    fn from(task: CompletedTask) -> Self {
        Self::Completed(task)
    }
}

impl From<FailedTask> for DetailedTask {
    fn from(task: FailedTask) -> Self {
        Self::Failed(task)
    }
}

impl From<CancelledTask> for DetailedTask {
    fn from(task: CancelledTask) -> Self {
        Self::Cancelled(task)
    }
}

/// The task handle a server returns instead of the request's own result (`CreateTaskResult`).
///
/// Flat on the wire: the result members and the [`Task`] members side by side.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CreateTaskResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// Always `task`.
    pub result_type: TaskResultTypeTag,
    /// The task, which must already resolve through `tasks/get`.
    #[serde(flatten)]
    pub task: Task,
}

impl CreateTaskResult {
    /// The handle of `task`.
    pub fn new(task: Task) -> Self {
        Self {
            meta: None,
            result_type: TaskResultTypeTag,
            task,
        }
    }
}

/// The answer to a request the server may run as a task (`tools/call`): its
/// own result, an MRTR input request, or a task handle.
///
/// On the wire this is `T | InputRequiredResult | CreateTaskResult`, told apart by `resultType`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum TaskOutcome<T> {
    /// The request runs as a task.
    Task(CreateTaskResult),
    /// The client must answer input requests and retry.
    InputRequired(InputRequiredResult),
    /// The request is done.
    Complete(T),
}

impl<T> From<Outcome<T>> for TaskOutcome<T> {
    fn from(outcome: Outcome<T>) -> Self {
        match outcome {
            Outcome::InputRequired(result) => Self::InputRequired(result),
            Outcome::Complete(result) => Self::Complete(result),
        }
    }
}

/// Params of `tasks/get` (`GetTaskRequest.params`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct GetTaskRequestParams {
    /// Request metadata: the extension schema leaves it out, core 2026-07-28 requires it.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// The task to query.
    pub task_id: String,
}

/// The answer to `tasks/get` (`GetTaskResult`): the task with the members its status adds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct GetTaskResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// Always `complete` (some examples of the extension text show `task`; the schema says `complete`).
    pub result_type: CompleteResultTypeTag,
    /// The task.
    #[serde(flatten)]
    pub task: DetailedTask,
}

impl GetTaskResult {
    /// The answer that reports `task`.
    pub fn new(task: impl Into<DetailedTask>) -> Self {
        Self {
            meta: None,
            result_type: CompleteResultTypeTag,
            task: task.into(),
        }
    }
}

/// Params of `tasks/update` (`UpdateTaskRequest.params`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct UpdateTaskRequestParams {
    /// Request metadata: the extension schema leaves it out, core 2026-07-28 requires it.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// The task to update.
    pub task_id: String,
    /// Answers, by the keys of the task's outstanding input requests.
    pub input_responses: InputResponses,
}

/// The acknowledgement of `tasks/update` (`UpdateTaskResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct UpdateTaskResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// Always `complete`.
    pub result_type: CompleteResultTypeTag,
}

/// Params of `tasks/cancel` (`CancelTaskRequest.params`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CancelTaskRequestParams {
    /// Request metadata: the extension schema leaves it out, core 2026-07-28 requires it.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// The task to cancel.
    pub task_id: String,
}

/// The acknowledgement of `tasks/cancel` (`CancelTaskResult`); cancellation is
/// cooperative, so the task may still end otherwise.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CancelTaskResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// Always `complete`.
    pub result_type: CompleteResultTypeTag,
}

/// Params of `notifications/tasks` (`TaskStatusNotificationParams`): the full
/// task, as `tasks/get` would return it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TaskStatusNotificationParams {
    /// Notification metadata; carries the subscription id on a listen stream.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// The task.
    #[serde(flatten)]
    pub task: DetailedTask,
}

impl TaskStatusNotificationParams {
    /// The params that report `task`.
    pub fn new(task: impl Into<DetailedTask>) -> Self {
        Self {
            meta: None,
            task: task.into(),
        }
    }
}

/// The members this extension adds to a `subscriptions/listen` filter
/// (`TaskSubscriptionNotifications`).
///
/// Core keeps them in [`SubscriptionFilter::extra`]; [`from_filter`](Self::from_filter)
/// and [`apply_to`](Self::apply_to) read and write them there.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TaskSubscriptionNotifications {
    /// Send `notifications/tasks` for these tasks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_ids: Option<Vec<String>>,
}

/// The members this extension adds to the filter of
/// `notifications/subscriptions/acknowledged` (`TaskSubscriptionAcknowledgedNotifications`):
/// `taskIds` holds the tasks the server agreed to report on.
pub type TaskSubscriptionAcknowledgedNotifications = TaskSubscriptionNotifications;

impl TaskSubscriptionNotifications {
    /// The tasks members of `filter`.
    ///
    /// # Errors
    ///
    /// When `taskIds` is present but not an array of strings.
    pub fn from_filter(filter: &SubscriptionFilter) -> Result<Self, serde_json::Error> {
        let task_ids = filter
            .extra
            .get(TASK_IDS)
            .map(Vec::<String>::deserialize)
            .transpose()?;
        Ok(Self { task_ids })
    }

    /// Writes these members into `filter`, removing `taskIds` when it is `None`.
    pub fn apply_to(&self, filter: &mut SubscriptionFilter) {
        match &self.task_ids {
            Some(ids) => {
                let ids = ids.iter().cloned().map(JsonValue::String).collect();
                filter
                    .extra
                    .insert(TASK_IDS.to_owned(), JsonValue::Array(ids));
            }
            None => {
                filter.extra.remove(TASK_IDS);
            }
        }
    }
}

/// The settings of the tasks extension (`TasksExtensionCapability`): none,
/// so it is always `{}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TasksExtensionCapability {}

params!(
    GetTaskRequestParams,
    UpdateTaskRequestParams,
    CancelTaskRequestParams,
    TaskStatusNotificationParams,
);

methods! {
    /// `tasks/get`: poll a task.
    GetTask = "tasks/get" {
        params: GetTaskRequestParams,
        result: GetTaskResult,
        eras: Era::MODERN,
        target: "taskId",
    }
    /// `tasks/update`: answer a task's input requests.
    UpdateTask = "tasks/update" {
        params: UpdateTaskRequestParams,
        result: UpdateTaskResult,
        eras: Era::MODERN,
        target: "taskId",
    }
    /// `tasks/cancel`: ask the server to cancel a task.
    CancelTask = "tasks/cancel" {
        params: CancelTaskRequestParams,
        result: CancelTaskResult,
        eras: Era::MODERN,
        target: "taskId",
    }
}

notifications! {
    /// `notifications/tasks`: a task's status changed (sent on a listen stream that asked for its id).
    TaskStatusChanged = "notifications/tasks" {
        params: TaskStatusNotificationParams,
        eras: Era::MODERN,
    }
}

/// A `tasks/get` request (`GetTaskRequest`).
pub type GetTaskRequest = TypedRequest<GetTask>;
/// A `tasks/update` request (`UpdateTaskRequest`).
pub type UpdateTaskRequest = TypedRequest<UpdateTask>;
/// A `tasks/cancel` request (`CancelTaskRequest`).
pub type CancelTaskRequest = TypedRequest<CancelTask>;
/// The response to `tasks/get`.
pub type GetTaskResultResponse = ResultResponse<GetTaskResult>;
/// The response to `tasks/update`.
pub type UpdateTaskResultResponse = ResultResponse<UpdateTaskResult>;
/// The response to `tasks/cancel`.
pub type CancelTaskResultResponse = ResultResponse<CancelTaskResult>;
/// A `notifications/tasks` notification (`TaskStatusNotification`).
pub type TaskStatusNotification = TypedNotification<TaskStatusChanged>;
