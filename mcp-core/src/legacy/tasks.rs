//! Core tasks as 2025-11-25 defines them (SEP-1686): task-augmented requests,
//! the nested `CreateTaskResult`, `tasks/get`, `tasks/result`, `tasks/list`,
//! `tasks/cancel` and `notifications/tasks/status`.

use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// Asks the receiver to run a request as a task (`TaskMetadata`).
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TaskMetadata {
    /// How long to keep the task after creation, in milliseconds.
    pub ttl: Option<u64>,
}
