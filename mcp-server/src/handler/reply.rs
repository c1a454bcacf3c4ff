//! What a handler answers: a complete result, a request for client input
//! (MRTR), or an alternate result an extension substitutes (a task).
//!
//! ```
//! use mcp_server::handler::Reply;
//! use mcp_server::core::tools::CallToolResult;
//!
//! let reply: Reply<CallToolResult> = CallToolResult::text("done").into();
//! assert!(reply.is_complete());
//! ```

use mcp_core::json::JsonObject;
use mcp_core::mrtr::InputRequiredResult;
use mcp_core::result::ResultType;
use serde::Serialize;
use serde_json::value::RawValue;

/// The answer to a request, before it is encoded.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply<T> {
    /// The request is done.
    Complete(T),
    /// The client must fulfil input requests and retry (2026-07-28 MRTR).
    InputRequired(InputRequiredResult),
    /// A result of another kind, substituted by an extension.
    Alternate(AlternateResult),
}

impl<T> Reply<T> {
    /// Whether this is the complete result.
    pub fn is_complete(&self) -> bool {
        matches!(self, Reply::Complete(_))
    }

    /// The complete result, if it is one.
    pub fn complete(&self) -> Option<&T> {
        match self {
            Reply::Complete(t) => Some(t),
            _ => None,
        }
    }

    /// The complete result, mutably.
    pub fn complete_mut(&mut self) -> Option<&mut T> {
        match self {
            Reply::Complete(t) => Some(t),
            _ => None,
        }
    }

    /// Converts the complete result, keeping the other kinds.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Reply<U> {
        match self {
            Reply::Complete(t) => Reply::Complete(f(t)),
            Reply::InputRequired(i) => Reply::InputRequired(i),
            Reply::Alternate(a) => Reply::Alternate(a),
        }
    }

    /// Converts the complete result with a fallible function.
    ///
    /// # Errors
    ///
    /// The function's error.
    pub fn try_map<U, E>(self, f: impl FnOnce(T) -> Result<U, E>) -> Result<Reply<U>, E> {
        Ok(match self {
            Reply::Complete(t) => Reply::Complete(f(t)?),
            Reply::InputRequired(i) => Reply::InputRequired(i),
            Reply::Alternate(a) => Reply::Alternate(a),
        })
    }

    /// The `resultType` this reply goes out with.
    pub fn result_type(&self) -> ResultType {
        match self {
            Reply::Complete(_) => ResultType::COMPLETE,
            Reply::InputRequired(_) => ResultType::INPUT_REQUIRED,
            Reply::Alternate(a) => a.result_type.clone(),
        }
    }
}

impl<T: Serialize> Reply<T> {
    /// Encodes the reply as the `result` of a response.
    ///
    /// # Errors
    ///
    /// Fails when the result cannot be serialized.
    pub fn encode(&self) -> Result<Box<RawValue>, serde_json::Error> {
        match self {
            Reply::Complete(t) => serde_json::value::to_raw_value(t),
            Reply::InputRequired(i) => serde_json::value::to_raw_value(i),
            Reply::Alternate(a) => serde_json::value::to_raw_value(a),
        }
    }
}

impl<T> From<T> for Reply<T> {
    fn from(t: T) -> Self {
        Reply::Complete(t)
    }
}

/// A result of a kind the method does not define itself, such as a task.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlternateResult {
    /// The kind, as the extension that produces it defines it (`task`).
    #[serde(rename = "resultType")]
    pub result_type: ResultType,
    /// The other members of the result.
    #[serde(flatten)]
    pub body: JsonObject,
}
