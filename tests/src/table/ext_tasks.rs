//! The definitions the tasks extension adds to the 2026-07-28 schema.

use mcp_core::ext::tasks::{
    CancelTaskRequest, CancelTaskResult, CancelledTask, CompletedTask, CreateTaskResult,
    DetailedTask, FailedTask, GetTaskRequest, GetTaskResult, InputRequiredTask, Task, TaskStatus,
    TaskStatusNotification, TaskStatusNotificationParams,
    TaskSubscriptionAcknowledgedNotifications, TaskSubscriptionNotifications,
    TasksExtensionCapability, UpdateTaskRequest, UpdateTaskResult, WorkingTask,
};

use super::definitions;
use crate::schema::Schema;

definitions!(
    /// The tasks extension's own definitions (those core 2026-07-28 does not
    /// have), validated against `ext-tasks/schema.json`.
    EXT_TASKS for Schema::ExtTasks => {
        "CancelTaskRequest" => CancelTaskRequest;
        "CancelTaskResult" => CancelTaskResult;
        "CancelledTask" => CancelledTask;
        "CompletedTask" => CompletedTask;
        "CreateTaskResult" => CreateTaskResult;
        "DetailedTask" => DetailedTask;
        "FailedTask" => FailedTask;
        "GetTaskRequest" => GetTaskRequest;
        "GetTaskResult" => GetTaskResult;
        "InputRequiredTask" => InputRequiredTask;
        "Task" => Task;
        "TaskStatus" => TaskStatus;
        "TaskStatusNotification" => TaskStatusNotification;
        "TaskStatusNotificationParams" => TaskStatusNotificationParams;
        "TaskSubscriptionAcknowledgedNotifications" => TaskSubscriptionAcknowledgedNotifications;
        "TaskSubscriptionNotifications" => TaskSubscriptionNotifications;
        "TasksExtensionCapability" => TasksExtensionCapability;
        "UpdateTaskRequest" => UpdateTaskRequest;
        "UpdateTaskResult" => UpdateTaskResult;
        "WorkingTask" => WorkingTask;
    }
);
