//! The names the OpenTelemetry semantic conventions for MCP give to what
//! this crate emits: attribute keys, metric names and fixed values.
//!
//! ```
//! use mcp_telemetry::names;
//!
//! assert_eq!(names::OPERATION_DURATION, "mcp.server.operation.duration");
//! assert_eq!(names::TOOL_NAME, "gen_ai.tool.name");
//! ```

/// The request's or notification's method: `tools/call`.
pub const METHOD_NAME: &str = "mcp.method.name";
/// The protocol version of the request: `2026-07-28`.
pub const PROTOCOL_VERSION: &str = "mcp.protocol.version";
/// The `Mcp-Session-Id` of a 2025-11-25 session; never on 2026-07-28 traffic.
pub const SESSION_ID: &str = "mcp.session.id";
/// The URI of `resources/read`, `resources/subscribe` and `resources/unsubscribe`.
pub const RESOURCE_URI: &str = "mcp.resource.uri";
/// `execute_tool` on `tools/call`.
pub const OPERATION_NAME: &str = "gen_ai.operation.name";
/// The tool a `tools/call` resolved to.
pub const TOOL_NAME: &str = "gen_ai.tool.name";
/// The prompt a `prompts/get` resolved to.
pub const PROMPT_NAME: &str = "gen_ai.prompt.name";
/// `tcp` over HTTP, `pipe` over stdio.
pub const NETWORK_TRANSPORT: &str = "network.transport";
/// The JSON-RPC id of the request.
pub const REQUEST_ID: &str = "jsonrpc.request.id";
/// The JSON-RPC error code of an error answer, as a string.
pub const STATUS_CODE: &str = "rpc.response.status_code";
/// Why an operation failed: the error code as a string, or [`TOOL_ERROR`].
pub const ERROR_TYPE: &str = "error.type";

/// The value of [`OPERATION_NAME`] on `tools/call`.
pub const EXECUTE_TOOL: &str = "execute_tool";
/// The value of [`ERROR_TYPE`] when a tool's result has `isError: true`.
pub const TOOL_ERROR: &str = "tool_error";
/// The method name recorded for a notification of a method the protocol
/// does not define, and for a method the caller may not see.
pub const OTHER: &str = "_OTHER";

/// How long the server took to answer a request or accept a notification, in seconds.
pub const OPERATION_DURATION: &str = "mcp.server.operation.duration";
/// How long a 2025-11-25 session lived, in seconds.
pub const SESSION_DURATION: &str = "mcp.server.session.duration";

/// The bucket boundaries the conventions advise for both durations, in seconds.
pub const DURATION_BUCKETS: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];
