//! Task records in their wire shapes: the extension's (2026-07-28) and the
//! core tasks' (2025-11-25).

use mcp_server::core::error::ErrorObject;
use mcp_server::core::ext::tasks::{
    CancelledTask, CompletedTask, DetailedTask, FailedTask, InputRequiredTask, Task, TaskStatus,
    WorkingTask,
};
use mcp_server::core::json::JsonValue;
use mcp_server::core::legacy::tasks as legacy;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::record::TaskRecord;

/// `ms` since the epoch as an ISO 8601 (RFC 3339) timestamp, in UTC.
pub(crate) fn iso(ms: u64) -> String {
    let nanos = i128::from(ms) * 1_000_000;
    OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default()
}

/// The task without its status-specific members (`CreateTaskResult`).
pub(crate) fn summary(record: &TaskRecord) -> Task {
    Task {
        task_id: record.id.clone(),
        status: record.status,
        status_message: record.status_message.clone(),
        created_at: iso(record.created_at_ms),
        last_updated_at: iso(record.updated_at_ms),
        ttl_ms: record.ttl_ms,
        poll_interval_ms: record.poll_interval_ms,
    }
}

/// The task with what its status adds (`tasks/get`, `notifications/tasks`);
/// takes the record, whose result it moves rather than copies.
pub(crate) fn detailed(mut record: TaskRecord) -> DetailedTask {
    let Task {
        task_id,
        status,
        status_message,
        created_at,
        last_updated_at,
        ttl_ms,
        poll_interval_ms,
    } = summary(&record);
    macro_rules! task {
        ($kind:ident { $($extra:tt)* }) => {
            $kind {
                task_id,
                status: Default::default(),
                status_message,
                created_at,
                last_updated_at,
                ttl_ms,
                poll_interval_ms,
                $($extra)*
            }
            .into()
        };
    }
    match status {
        TaskStatus::Working => task!(WorkingTask {}),
        TaskStatus::InputRequired => {
            let requests = serde_json::from_value(JsonValue::Object(std::mem::take(
                &mut record.input_requests,
            )))
            .unwrap_or_default();
            task!(InputRequiredTask {
                input_requests: requests
            })
        }
        TaskStatus::Completed => task!(CompletedTask {
            result: record.result.take().unwrap_or_default()
        }),
        TaskStatus::Failed => {
            let error = record.error.take().unwrap_or_else(|| {
                ErrorObject::internal_error(
                    record
                        .status_message
                        .take()
                        .unwrap_or_else(|| "The task failed".into()),
                )
            });
            task!(FailedTask { error })
        }
        TaskStatus::Cancelled => task!(CancelledTask {}),
    }
}

/// The task as 2025-11-25 core tasks show it.
pub(crate) fn legacy_task(record: &TaskRecord) -> legacy::Task {
    let status = match record.status {
        TaskStatus::Working => legacy::TaskStatus::Working,
        TaskStatus::InputRequired => legacy::TaskStatus::InputRequired,
        TaskStatus::Completed => legacy::TaskStatus::Completed,
        TaskStatus::Failed => legacy::TaskStatus::Failed,
        TaskStatus::Cancelled => legacy::TaskStatus::Cancelled,
    };
    legacy::Task {
        task_id: record.id.clone(),
        status,
        status_message: record.status_message.clone(),
        created_at: iso(record.created_at_ms),
        last_updated_at: iso(record.updated_at_ms),
        ttl: record.ttl_ms,
        poll_interval: record.poll_interval_ms,
    }
}
