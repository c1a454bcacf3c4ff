//! Which tools run as tasks: the opt-in an application writes next to a
//! `#[tool]`, and the table the extension reads per call.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use mcp_server::core::json::{JsonObject, JsonValue};
use mcp_server::core::tools::{TaskSupport, Tool, ToolExecution};
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};

/// How a tool runs as a task: a customizer of one tool, attached with
/// [`task!`](crate::task) or `Item::customizer_for::<Tool>(name, ..)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunsAsTask {
    required: bool,
    inputs_first: bool,
}

impl RunsAsTask {
    /// The tool runs as a task when the client supports tasks, and as an
    /// ordinary call otherwise.
    pub const fn optional() -> Self {
        Self {
            required: false,
            inputs_first: false,
        }
    }

    /// The tool runs only as a task: a client that does not support tasks
    /// gets `-32021` (2026-07-28) or `-32601` (2025-11-25).
    pub const fn required() -> Self {
        Self {
            required: true,
            inputs_first: false,
        }
    }

    /// The handler starts inside the request and asks its first questions
    /// there (2026-07-28 multi round-trip input requests): the task is
    /// created when the handler calls `ctx.release_request()`, and a
    /// handler that finishes before that answers the call itself. Such a
    /// tool always runs in this process, whatever the executor.
    #[must_use]
    pub const fn inputs_first(mut self) -> Self {
        self.inputs_first = true;
        self
    }

    /// Whether a client without task support is refused.
    pub fn is_required(&self) -> bool {
        self.required
    }

    /// Whether the handler asks its first questions before the task exists.
    pub fn asks_first(&self) -> bool {
        self.inputs_first
    }
}

/// The tools that run as tasks, by name, with the validator of their
/// arguments: filled at boot, read per call.
#[derive(Default)]
pub struct TaskTools(RwLock<HashMap<String, TaskTool>>);

/// One tool that runs as a task: how, and the validator of its arguments.
type TaskTool = (RunsAsTask, Option<Arc<jsonschema::Validator>>);

impl TaskTools {
    /// How tool `name` runs as a task, if it does.
    pub fn get(&self, name: &str) -> Option<RunsAsTask> {
        self.0
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(name)
            .map(|(runs, _)| *runs)
    }

    /// What is wrong with `arguments` for tool `name`, if anything: checked
    /// before a task is created, so that a call with invalid arguments
    /// creates none.
    pub fn invalid_arguments(&self, name: &str, arguments: &JsonValue) -> Option<String> {
        let tools = self
            .0
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let validator = tools.get(name)?.1.as_ref()?;
        let problems: Vec<String> = validator
            .iter_errors(arguments)
            .map(|e| e.to_string())
            .collect();
        (!problems.is_empty())
            .then(|| format!("Invalid arguments for tool {name}: {}", problems.join("; ")))
    }

    fn set(&self, name: &str, runs: RunsAsTask, schema: &JsonObject) {
        let validator = jsonschema::validator_for(&JsonValue::Object(schema.clone()))
            .ok()
            .map(Arc::new);
        self.0
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(name.to_owned(), (runs, validator));
    }
}

impl HandlerCustomizer<Tool> for RunsAsTask {
    fn customize(&self, config: &mut HandlerConfig<'_, Tool>) {
        let tools: Arc<TaskTools> = config.boot().shared::<TaskTools>();
        let tool = config.descriptor();
        tools.set(&tool.name, *self, &tool.input_schema);
        let support = if self.required {
            TaskSupport::Required
        } else {
            TaskSupport::Optional
        };
        config.descriptor_mut().execution = Some(ToolExecution {
            task_support: Some(support),
        });
    }
}

/// Runs a `#[tool]` function as a task, written next to it:
/// `mcp_tasks::task!(my_tool);` (task when the client supports it),
/// `mcp_tasks::task!(my_tool, required);`, and `, inputs_first` after
/// either for a handler that asks its first questions before its task
/// exists (see [`RunsAsTask::inputs_first`]).
#[macro_export]
macro_rules! task {
    ($tool:path) => {
        ::mcp_server::customize_tool!($tool, $crate::RunsAsTask::optional());
    };
    ($tool:path, optional) => {
        ::mcp_server::customize_tool!($tool, $crate::RunsAsTask::optional());
    };
    ($tool:path, required) => {
        ::mcp_server::customize_tool!($tool, $crate::RunsAsTask::required());
    };
    ($tool:path, optional, inputs_first) => {
        ::mcp_server::customize_tool!($tool, $crate::RunsAsTask::optional().inputs_first());
    };
    ($tool:path, required, inputs_first) => {
        ::mcp_server::customize_tool!($tool, $crate::RunsAsTask::required().inputs_first());
    };
}

impl std::fmt::Debug for TaskTools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskTools").finish_non_exhaustive()
    }
}
