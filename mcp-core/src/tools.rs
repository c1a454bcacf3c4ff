//! Tools: `tools/list`, `tools/call` and `notifications/tools/list_changed`.
//!
//! ```
//! use mcp_core::tools::{CallToolResult, Tool};
//!
//! let tool: Tool = serde_json::from_value(serde_json::json!({
//!     "name": "get_weather",
//!     "inputSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
//!                     "$defs": {"city": {"type": "string"}},
//!                     "properties": {"location": {"$ref": "#/$defs/city"}}}
//! })).unwrap();
//! // The schema is kept verbatim.
//! assert_eq!(tool.input_schema["properties"]["location"]["$ref"], "#/$defs/city");
//!
//! let result = CallToolResult::text("72°F");
//! assert_eq!(result.is_error, None);
//! ```

use serde::{Deserialize, Serialize};

use crate::content::{ContentBlock, Icon};
use crate::json::{JsonObject, JsonValue};
use crate::jsonrpc::ResultResponse;
use crate::meta::{Meta, RequestMeta, ResultMeta};
use crate::method::{TypedNotification, TypedRequest, methods, notifications, params};
use crate::mrtr::InputResponses;
use crate::pagination::{Cursor, NotificationParams, PaginatedRequestParams};
use crate::result::{CacheScope, Outcome, ResultType};
use crate::version::Era;

/// Hints about what a tool does (`ToolAnnotations`); untrusted unless the server is.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ToolAnnotations {
    /// A human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not modify its environment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling it again with the same arguments has no further effect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool interacts with an open world of external entities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

/// How a tool may run as a task, in the legacy (2025-11-25) core tasks.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ToolExecution {
    /// `forbidden` (default), `optional` or `required`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_support: Option<TaskSupport>,
}

/// Whether a tool may be, or must be, called as a task (2025-11-25).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum TaskSupport {
    /// Never as a task.
    #[default]
    Forbidden,
    /// As a task or not.
    Optional,
    /// Only as a task.
    Required,
}

/// A tool the client can call (`Tool`).
///
/// `input_schema` and `output_schema` are JSON Schema 2020-12 documents kept
/// verbatim: `$schema`, `$defs`, `$ref` and every other keyword survive.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Tool {
    /// The programmatic name.
    pub name: String,
    /// The human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Icons for the tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// What the tool does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of the arguments; its `type` is `object`.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::object_schema))]
    pub input_schema: JsonObject,
    /// The JSON Schema of `structuredContent`.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_object_schema))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<JsonObject>,
    /// Behaviour hints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Legacy (2025-11-25): task support.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution: Option<ToolExecution>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The result of `tools/list` (`ListToolsResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ListToolsResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// The kind of result.
    #[serde(default)]
    pub result_type: ResultType,
    /// The tools on this page.
    pub tools: Vec<Tool>,
    /// Where the next page starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<Cursor>,
    /// How long the list stays fresh, in milliseconds: required in 2026-07-28, absent in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may share the cached list: required in 2026-07-28, absent in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
}

/// Params of `tools/call` (`CallToolRequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CallToolRequestParams {
    /// Request metadata: required in 2026-07-28, optional in 2025-11-25.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// The tool to call.
    pub name: String,
    /// The arguments.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_any_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<JsonObject>,
    /// MRTR: answers to the input requests of an earlier attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// MRTR: the state echoed from an earlier attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// Legacy (2025-11-25): run the call as a task.
    #[cfg_attr(feature = "arbitrary", arbitrary(value = None))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<crate::legacy::tasks::TaskMetadata>,
}

/// The result of `tools/call` (`CallToolResult`).
///
/// A failure of the tool itself is a result with `isError: true`, not a
/// JSON-RPC error, so the model can see it and correct course.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CallToolResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// The kind of result.
    #[serde(default)]
    pub result_type: ResultType,
    /// The unstructured result.
    pub content: Vec<ContentBlock>,
    /// The structured result: any JSON value, conforming to the tool's output schema.
    #[serde(default, deserialize_with = "crate::json::present")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_any_json_value))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<JsonValue>,
    /// Whether the tool failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
}

impl CallToolResult {
    /// A result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            content: vec![ContentBlock::text(text)],
            ..Self::default()
        }
    }

    /// A failed call, with the error as text for the model to read.
    pub fn error(text: impl Into<String>) -> Self {
        Self {
            is_error: Some(true),
            ..Self::text(text)
        }
    }
}

params!(CallToolRequestParams);

methods! {
    /// `tools/list`: the tools a client may call, paginated.
    ListTools = "tools/list" {
        params: PaginatedRequestParams,
        result: ListToolsResult,
        eras: Era::ALL,
    }
    /// `tools/call`: call a tool.
    CallTool = "tools/call" {
        params: CallToolRequestParams,
        result: CallToolResult,
        eras: Era::ALL,
        target: "name",
    }
}

notifications! {
    /// `notifications/tools/list_changed`: the tool list changed.
    ToolListChanged = "notifications/tools/list_changed" {
        params: Option<NotificationParams>,
        eras: Era::ALL,
    }
}

/// A `tools/list` request (`ListToolsRequest`).
pub type ListToolsRequest = TypedRequest<ListTools>;
/// A `tools/call` request (`CallToolRequest`).
pub type CallToolRequest = TypedRequest<CallTool>;
/// The response to `tools/list` (`ListToolsResultResponse`).
pub type ListToolsResultResponse = ResultResponse<ListToolsResult>;
/// The response to `tools/call`: a result or an input request (`CallToolResultResponse`).
pub type CallToolResultResponse = ResultResponse<Outcome<CallToolResult>>;
/// A `notifications/tools/list_changed` notification (`ToolListChangedNotification`).
pub type ToolListChangedNotification = TypedNotification<ToolListChanged>;
