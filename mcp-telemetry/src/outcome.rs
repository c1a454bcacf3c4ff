//! How a request ended, as the conventions classify it: its error code,
//! whether it failed, and the tool or prompt it resolved to.

use mcp_server::core::error::{ErrorCode, ErrorObject};
use mcp_server::seam::interceptor::{RawAnswer, RawCall};
use serde::Deserialize;

use crate::names;
use crate::request::Request;
use crate::resolved::Resolved;

/// Codes that say the caller sent what the server could not serve: on the
/// server they are not errors of the operation.
const CALLER_CODES: [ErrorCode; 5] = [
    ErrorCode::PARSE_ERROR,
    ErrorCode::INVALID_REQUEST,
    ErrorCode::METHOD_NOT_FOUND,
    ErrorCode::INVALID_PARAMS,
    ErrorCode::RESOURCE_NOT_FOUND,
];

/// Why an operation failed (`error.type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The tool's result had `isError: true`.
    Tool,
    /// The answer was a JSON-RPC error with this code, one that is the server's.
    Code(i64),
}

impl Failure {
    /// The value of `error.type`.
    pub(crate) fn error_type(self) -> String {
        match self {
            Failure::Tool => names::TOOL_ERROR.to_owned(),
            Failure::Code(code) => code.to_string(),
        }
    }
}

/// How one request ended.
#[derive(Debug)]
pub(crate) struct Outcome<'a> {
    /// The tool or prompt it resolved to, the caller allowed.
    pub(crate) target: Option<Resolved>,
    /// The JSON-RPC error code of an error answer.
    pub(crate) code: Option<i64>,
    /// Why it failed, when it did; the span is then an error.
    pub(crate) failure: Option<Failure>,
    /// The error's message, for the span's status.
    pub(crate) message: Option<&'a str>,
}

impl<'a> Outcome<'a> {
    /// How `call`, described by `request`, ended with `answer`.
    pub(crate) fn of(
        call: &RawCall<'_>,
        request: &Request<'_>,
        answer: &'a Result<RawAnswer, ErrorObject>,
    ) -> Self {
        let target = Resolved::of(call.ctx());
        match answer {
            Ok(answer) => Self {
                target,
                code: None,
                failure: (request.is_tool_call() && is_tool_error(answer)).then_some(Failure::Tool),
                message: None,
            },
            Err(error) => {
                let server_error = !CALLER_CODES.contains(&error.code);
                Self {
                    target,
                    code: Some(error.code.0),
                    failure: server_error.then_some(Failure::Code(error.code.0)),
                    message: server_error.then_some(error.message.as_str()),
                }
            }
        }
    }
}

/// Whether a `tools/call` result says the tool failed (`isError: true`).
fn is_tool_error(answer: &RawAnswer) -> bool {
    #[derive(Deserialize)]
    struct ToolResult {
        #[serde(rename = "isError", default)]
        is_error: Option<bool>,
    }
    serde_json::from_str::<ToolResult>(answer.result().get())
        .ok()
        .and_then(|result| result.is_error)
        .unwrap_or(false)
}
