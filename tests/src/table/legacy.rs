//! The 2025-11-25 definitions the 2026-07-28 schema no longer has.

use mcp_core::jsonrpc::ErrorResponse;
use mcp_core::legacy::elicitation::ElicitationCompleteNotification;
use mcp_core::legacy::initialize::{
    InitializeRequest, InitializeRequestParams, InitializeResult, InitializedNotification,
};
use mcp_core::legacy::logging::{SetLevelRequest, SetLevelRequestParams};
use mcp_core::legacy::messages::ServerRequest;
use mcp_core::legacy::ping::PingRequest;
use mcp_core::legacy::roots::RootsListChangedNotification;
use mcp_core::legacy::subscribe::{
    SubscribeRequest, SubscribeRequestParams, UnsubscribeRequest, UnsubscribeRequestParams,
};
use mcp_core::legacy::tasks::{
    CancelTaskRequest, CancelTaskResult, CreateTaskResult, GetTaskPayloadRequest,
    GetTaskPayloadResult, GetTaskRequest, GetTaskResult, ListTasksRequest, ListTasksResult,
    RelatedTaskMetadata, Task, TaskAugmentedRequestParams, TaskMetadata, TaskStatus,
    TaskStatusNotification, TaskStatusNotificationParams,
};
use mcp_core::tools::ToolExecution;

use super::definitions;
use crate::generators::url_elicitation_required_error;
use crate::schema::Schema;

definitions!(
    /// The 2025-11-25 definitions the 2026-07-28 schema does not have,
    /// validated against `2025-11-25/schema.json`.
    LEGACY for Schema::Legacy => {
        "CancelTaskRequest" => CancelTaskRequest;
        "CancelTaskResult" => CancelTaskResult;
        "CreateTaskResult" => CreateTaskResult;
        "ElicitationCompleteNotification" => ElicitationCompleteNotification;
        "GetTaskPayloadRequest" => GetTaskPayloadRequest;
        "GetTaskPayloadResult" => GetTaskPayloadResult;
        "GetTaskRequest" => GetTaskRequest;
        "GetTaskResult" => GetTaskResult;
        "InitializeRequest" => InitializeRequest;
        "InitializeRequestParams" => InitializeRequestParams;
        "InitializeResult" => InitializeResult;
        "InitializedNotification" => InitializedNotification;
        "ListTasksRequest" => ListTasksRequest;
        "ListTasksResult" => ListTasksResult;
        "PingRequest" => PingRequest;
        "RelatedTaskMetadata" => RelatedTaskMetadata;
        "RootsListChangedNotification" => RootsListChangedNotification;
        "ServerRequest" => ServerRequest;
        "SetLevelRequest" => SetLevelRequest;
        "SetLevelRequestParams" => SetLevelRequestParams;
        "SubscribeRequest" => SubscribeRequest;
        "SubscribeRequestParams" => SubscribeRequestParams;
        "Task" => Task;
        "TaskAugmentedRequestParams" => TaskAugmentedRequestParams;
        "TaskMetadata" => TaskMetadata;
        "TaskStatus" => TaskStatus;
        "TaskStatusNotification" => TaskStatusNotification;
        "TaskStatusNotificationParams" => TaskStatusNotificationParams;
        "ToolExecution" => ToolExecution;
        "URLElicitationRequiredError" => ErrorResponse, gen = url_elicitation_required_error;
        "UnsubscribeRequest" => UnsubscribeRequest;
        "UnsubscribeRequestParams" => UnsubscribeRequestParams;
    }
);
