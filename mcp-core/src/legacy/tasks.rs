//! Core tasks as 2025-11-25 defines them (SEP-1686): task-augmented requests,
//! the nested `CreateTaskResult`, `tasks/get`, `tasks/result`, `tasks/list`,
//! `tasks/cancel`, `notifications/tasks/status` and the `tasks` capabilities.
//!
//! ```
//! use mcp_core::legacy::tasks::{CreateTaskResult, GetTaskResult, TaskStatus};
//!
//! let created: CreateTaskResult = serde_json::from_value(serde_json::json!({"task": {
//!     "taskId": "786512e2", "status": "working",
//!     "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:40:00Z",
//!     "ttl": null, "pollInterval": 5000
//! }})).unwrap();
//! assert_eq!(created.task.status, TaskStatus::Working);
//! // `ttl: null` (unlimited) is kept, not dropped.
//! assert_eq!(created.task.ttl, None);
//! assert_eq!(serde_json::to_value(&created).unwrap()["task"]["ttl"], serde_json::Value::Null);
//!
//! // `tasks/get` answers with the task's members at the top level.
//! let polled = GetTaskResult::from(created.task);
//! assert_eq!(serde_json::to_value(&polled).unwrap()["taskId"], "786512e2");
//! // `ttl` is required, even though it may be `null`.
//! assert!(serde_json::from_value::<GetTaskResult>(serde_json::json!({
//!     "taskId": "t", "status": "working", "createdAt": "", "lastUpdatedAt": ""
//! })).is_err());
//! ```

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};

use crate::json::{JsonObject, JsonValue};
use crate::meta::{self, Meta, NotificationMeta, RequestMeta};
use crate::method::{TypedNotification, TypedRequest, methods, notifications, params};
use crate::pagination::{Cursor, PaginatedRequestParams};
use crate::version::Era;

/// Asks the receiver to run a request as a task (`TaskMetadata`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TaskMetadata {
    /// How long to keep the task after creation, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<u64>,
}

/// Where a task stands (`TaskStatus`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum TaskStatus {
    /// The request is being processed.
    #[default]
    Working,
    /// The task waits for input (an elicitation or a sampling request).
    InputRequired,
    /// The request completed; its result is available from `tasks/result`.
    Completed,
    /// The request failed (for a tool call, also a result with `isError: true`).
    Failed,
    /// The request was cancelled before it completed.
    Cancelled,
}

impl TaskStatus {
    /// Whether the task has ended: `completed`, `failed` or `cancelled`.
    pub fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

/// The state of a task (`Task`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Task {
    /// The task identifier.
    pub task_id: String,
    /// Where the task stands.
    pub status: TaskStatus,
    /// A human-readable description of the current state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// When the task was created (ISO 8601).
    pub created_at: String,
    /// When the task last changed (ISO 8601).
    pub last_updated_at: String,
    /// How long the task is kept after creation, in milliseconds; `None`
    /// (`null` on the wire, never absent) for unlimited.
    #[serde(deserialize_with = "required_nullable")]
    pub ttl: Option<u64>,
    /// The suggested polling interval, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub poll_interval: Option<u64>,
}

/// Reads a member that must be present but may be `null`.
fn required_nullable<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Option::<u64>::deserialize(d)
}

/// Ties a message to a task (`RelatedTaskMetadata`), under the `_meta` key
/// `io.modelcontextprotocol/related-task`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct RelatedTaskMetadata {
    /// The task the message belongs to.
    pub task_id: String,
}

impl RelatedTaskMetadata {
    /// The `_meta` key this metadata travels under.
    pub const KEY: &'static str = meta::RELATED_TASK;

    /// Metadata for task `task_id`.
    pub fn new(task_id: impl Into<String>) -> Self {
        Self {
            task_id: task_id.into(),
        }
    }

    /// Reads the metadata from a `_meta` object, if it is there and well formed.
    pub fn from_meta(meta: &JsonObject) -> Option<Self> {
        serde_json::from_value(meta.get(Self::KEY)?.clone()).ok()
    }

    /// Writes the metadata into a `_meta` object, replacing any earlier value.
    pub fn insert_into(&self, meta: &mut JsonObject) {
        let mut value = JsonObject::new();
        value.insert("taskId".into(), self.task_id.clone().into());
        meta.insert(Self::KEY.into(), value.into());
    }
}

/// The params every task-augmented request shares (`TaskAugmentedRequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TaskAugmentedRequestParams {
    /// Request metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Run the request as a task.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskMetadata>,
}

/// The answer to a task-augmented request: the task it created (`CreateTaskResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CreateTaskResult {
    /// Result metadata; may carry `io.modelcontextprotocol/model-immediate-response`.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// The task.
    pub task: Task,
}

impl CreateTaskResult {
    /// The `_meta` key of text the model may read while the task runs.
    pub const MODEL_IMMEDIATE_RESPONSE: &'static str = meta::MODEL_IMMEDIATE_RESPONSE;

    /// The result for a newly created `task`.
    pub fn new(task: Task) -> Self {
        Self { meta: None, task }
    }

    /// Adds text for the model to read while the task runs.
    #[must_use]
    pub fn with_model_immediate_response(mut self, text: impl Into<String>) -> Self {
        let meta = self.meta.get_or_insert_with(Meta::new);
        meta.insert(
            Self::MODEL_IMMEDIATE_RESPONSE.into(),
            JsonValue::String(text.into()),
        );
        self
    }
}

/// Params of `tasks/get`, `tasks/result` and `tasks/cancel`: the task's id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TaskIdRequestParams {
    /// Request metadata (the schema does not name it, but any request may carry it).
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = None))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// The task.
    pub task_id: String,
}

impl TaskIdRequestParams {
    /// Params naming task `task_id`.
    pub fn new(task_id: impl Into<String>) -> Self {
        Self {
            meta: None,
            task_id: task_id.into(),
        }
    }
}

/// The answer to `tasks/get` (`GetTaskResult`): the task's members, at the top level.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct GetTaskResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// The task.
    #[serde(flatten)]
    pub task: Task,
}

impl From<Task> for GetTaskResult {
    fn from(task: Task) -> Self {
        Self { meta: None, task }
    }
}

/// The answer to `tasks/cancel` (`CancelTaskResult`): the task, now cancelled.
pub type CancelTaskResult = GetTaskResult;

/// The answer to `tasks/result` (`GetTaskPayloadResult`): the result the
/// original request would have had, member for member.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct GetTaskPayloadResult {
    /// Result metadata; carries `io.modelcontextprotocol/related-task`.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// The members of the original request's result.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::any_json_object))]
    pub payload: JsonObject,
}

impl GetTaskPayloadResult {
    /// The payload of `result`, tagged with the task it belongs to.
    ///
    /// # Errors
    ///
    /// Fails when `result` does not serialize to a JSON object.
    pub fn new<T: Serialize>(
        task_id: impl Into<String>,
        result: &T,
    ) -> Result<Self, serde_json::Error> {
        let mut payload = match serde_json::to_value(result)? {
            JsonValue::Object(object) => object,
            _ => {
                return Err(serde::ser::Error::custom(
                    "a task's result must be a JSON object",
                ));
            }
        };
        let mut meta = match payload.remove("_meta") {
            Some(JsonValue::Object(object)) => Meta(object),
            _ => Meta::new(),
        };
        RelatedTaskMetadata::new(task_id).insert_into(&mut meta);
        Ok(Self {
            meta: Some(meta),
            payload,
        })
    }

    /// The task this payload belongs to, from `_meta`.
    pub fn related_task(&self) -> Option<RelatedTaskMetadata> {
        RelatedTaskMetadata::from_meta(self.meta.as_ref()?)
    }

    /// Reads the payload as the original request's result type (`_meta` included).
    ///
    /// # Errors
    ///
    /// Fails when the payload does not fit `T`.
    pub fn into_result<T: DeserializeOwned>(self) -> Result<T, serde_json::Error> {
        serde_json::from_value(serde_json::to_value(self)?)
    }
}

/// The answer to `tasks/list` (`ListTasksResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ListTasksResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// The tasks on this page.
    pub tasks: Vec<Task>,
    /// Where the next page starts; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<Cursor>,
}

/// Params of `notifications/tasks/status` (`TaskStatusNotificationParams`): the task, at the top level.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TaskStatusNotificationParams {
    /// Notification metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// The task.
    #[serde(flatten)]
    pub task: Task,
}

impl From<Task> for TaskStatusNotificationParams {
    fn from(task: Task) -> Self {
        Self { meta: None, task }
    }
}

/// The client's `tasks` capability (`ClientCapabilities.tasks`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ClientTasksCapability {
    /// The client answers `tasks/list`.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list: Option<JsonObject>,
    /// The client answers `tasks/cancel`.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancel: Option<JsonObject>,
    /// The server requests the client runs as tasks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requests: Option<ClientTaskRequests>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

impl ClientTasksCapability {
    /// Whether the client runs `sampling/createMessage` as a task.
    pub fn supports_create_message(&self) -> bool {
        let sampling = self.requests.as_ref().and_then(|r| r.sampling.as_ref());
        sampling.is_some_and(|s| s.create_message.is_some())
    }

    /// Whether the client runs `elicitation/create` as a task.
    pub fn supports_elicit(&self) -> bool {
        let elicitation = self.requests.as_ref().and_then(|r| r.elicitation.as_ref());
        elicitation.is_some_and(|e| e.create.is_some())
    }
}

/// The requests a client runs as tasks (`ClientCapabilities.tasks.requests`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ClientTaskRequests {
    /// Sampling requests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampling: Option<SamplingTaskRequests>,
    /// Elicitation requests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationTaskRequests>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

/// The sampling requests a client runs as tasks (`ClientCapabilities.tasks.requests.sampling`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SamplingTaskRequests {
    /// `sampling/createMessage`.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_message: Option<JsonObject>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

/// The elicitation requests a client runs as tasks (`ClientCapabilities.tasks.requests.elicitation`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ElicitationTaskRequests {
    /// `elicitation/create`.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create: Option<JsonObject>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

/// The server's `tasks` capability (`ServerCapabilities.tasks`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ServerTasksCapability {
    /// The server answers `tasks/list`.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list: Option<JsonObject>,
    /// The server answers `tasks/cancel`.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancel: Option<JsonObject>,
    /// The client requests the server runs as tasks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requests: Option<ServerTaskRequests>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

impl ServerTasksCapability {
    /// The capability of a server that lists, cancels and runs tool calls as tasks.
    pub fn tools() -> Self {
        let call = ToolsTaskRequests {
            call: Some(JsonObject::new()),
            extra: JsonObject::new(),
        };
        Self {
            list: Some(JsonObject::new()),
            cancel: Some(JsonObject::new()),
            requests: Some(ServerTaskRequests {
                tools: Some(call),
                extra: JsonObject::new(),
            }),
            extra: JsonObject::new(),
        }
    }

    /// Whether the server runs `tools/call` as a task.
    pub fn supports_tool_call(&self) -> bool {
        let tools = self.requests.as_ref().and_then(|r| r.tools.as_ref());
        tools.is_some_and(|t| t.call.is_some())
    }
}

/// The requests a server runs as tasks (`ServerCapabilities.tasks.requests`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ServerTaskRequests {
    /// Tool requests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<ToolsTaskRequests>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

/// The tool requests a server runs as tasks (`ServerCapabilities.tasks.requests.tools`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ToolsTaskRequests {
    /// `tools/call`.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call: Option<JsonObject>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

params!(
    TaskAugmentedRequestParams,
    TaskIdRequestParams,
    TaskStatusNotificationParams
);

methods! {
    /// `tasks/get`: the state of a task.
    GetTask = "tasks/get" {
        params: TaskIdRequestParams,
        result: GetTaskResult,
        eras: Era::LEGACY,
        target: "taskId",
    }
    /// `tasks/result`: wait for a task to end, then take its result.
    GetTaskPayload = "tasks/result" {
        params: TaskIdRequestParams,
        result: GetTaskPayloadResult,
        eras: Era::LEGACY,
        target: "taskId",
    }
    /// `tasks/list`: the requestor's tasks, paginated.
    ListTasks = "tasks/list" {
        params: Option<PaginatedRequestParams>,
        result: ListTasksResult,
        eras: Era::LEGACY,
    }
    /// `tasks/cancel`: cancel a task.
    CancelTask = "tasks/cancel" {
        params: TaskIdRequestParams,
        result: CancelTaskResult,
        eras: Era::LEGACY,
        target: "taskId",
    }
}

notifications! {
    /// `notifications/tasks/status`: a task's status changed.
    TaskStatusChanged = "notifications/tasks/status" {
        params: TaskStatusNotificationParams,
        eras: Era::LEGACY,
    }
}

/// A `tasks/get` request (`GetTaskRequest`).
pub type GetTaskRequest = TypedRequest<GetTask>;
/// A `tasks/result` request (`GetTaskPayloadRequest`).
pub type GetTaskPayloadRequest = TypedRequest<GetTaskPayload>;
/// A `tasks/list` request (`ListTasksRequest`).
pub type ListTasksRequest = TypedRequest<ListTasks>;
/// A `tasks/cancel` request (`CancelTaskRequest`).
pub type CancelTaskRequest = TypedRequest<CancelTask>;
/// A `notifications/tasks/status` notification (`TaskStatusNotification`).
pub type TaskStatusNotification = TypedNotification<TaskStatusChanged>;
