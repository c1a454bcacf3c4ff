//! JSON-RPC error objects and every error code MCP uses, with its era.
//!
//! ```
//! use mcp_core::error::{ErrorCode, ErrorObject};
//! use mcp_core::version::Era;
//!
//! let error = ErrorObject::unsupported_protocol_version(&["2026-07-28"], "1900-01-01");
//! assert_eq!(error.code, ErrorCode::UNSUPPORTED_PROTOCOL_VERSION);
//! assert_eq!(error.code.eras(), Era::MODERN);
//! assert_eq!(ErrorCode::RESOURCE_NOT_FOUND.eras(), Era::LEGACY);
//! ```

use serde::{Deserialize, Serialize};

use crate::capabilities::ClientCapabilities;
use crate::json::JsonValue;
use crate::version::Era;

/// A JSON-RPC error code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ErrorCode(pub i64);

impl ErrorCode {
    /// `-32700`: the message is not valid JSON.
    pub const PARSE_ERROR: Self = Self(-32700);
    /// `-32600`: the JSON is not a valid JSON-RPC request.
    pub const INVALID_REQUEST: Self = Self(-32600);
    /// `-32601`: unknown method, or one behind a capability the server does not offer.
    pub const METHOD_NOT_FOUND: Self = Self(-32601);
    /// `-32602`: the params do not fit the method (also: unknown tool, prompt or resource).
    pub const INVALID_PARAMS: Self = Self(-32602);
    /// `-32603`: an unexpected failure in the server.
    pub const INTERNAL_ERROR: Self = Self(-32603);
    /// `-32020` (2026-07-28): HTTP headers missing, malformed or not matching the body.
    pub const HEADER_MISMATCH: Self = Self(-32020);
    /// `-32021` (2026-07-28): the request needs a client capability it did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: Self = Self(-32021);
    /// `-32022` (2026-07-28): the requested protocol version is not supported.
    pub const UNSUPPORTED_PROTOCOL_VERSION: Self = Self(-32022);
    /// `-32002` (2025-11-25 and earlier): resource not found; modern servers use `-32602`.
    pub const RESOURCE_NOT_FOUND: Self = Self(-32002);
    /// `-32042` (2025-11-25 only): the request needs a URL-mode elicitation first.
    pub const URL_ELICITATION_REQUIRED: Self = Self(-32042);

    /// Every code MCP defines, in the order above.
    pub const ALL: &'static [ErrorCode] = &[
        Self::PARSE_ERROR,
        Self::INVALID_REQUEST,
        Self::METHOD_NOT_FOUND,
        Self::INVALID_PARAMS,
        Self::INTERNAL_ERROR,
        Self::HEADER_MISMATCH,
        Self::MISSING_REQUIRED_CLIENT_CAPABILITY,
        Self::UNSUPPORTED_PROTOCOL_VERSION,
        Self::RESOURCE_NOT_FOUND,
        Self::URL_ELICITATION_REQUIRED,
    ];

    /// The eras in which a server may send this code; empty for codes MCP does not define.
    pub fn eras(self) -> &'static [Era] {
        match self {
            Self::PARSE_ERROR
            | Self::INVALID_REQUEST
            | Self::METHOD_NOT_FOUND
            | Self::INVALID_PARAMS
            | Self::INTERNAL_ERROR => Era::ALL,
            Self::HEADER_MISMATCH
            | Self::MISSING_REQUIRED_CLIENT_CAPABILITY
            | Self::UNSUPPORTED_PROTOCOL_VERSION => Era::MODERN,
            Self::RESOURCE_NOT_FOUND | Self::URL_ELICITATION_REQUIRED => Era::LEGACY,
            _ => &[],
        }
    }

    /// The code's name as the specification spells it, if MCP defines it.
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            Self::PARSE_ERROR => "Parse error",
            Self::INVALID_REQUEST => "Invalid Request",
            Self::METHOD_NOT_FOUND => "Method not found",
            Self::INVALID_PARAMS => "Invalid params",
            Self::INTERNAL_ERROR => "Internal error",
            Self::HEADER_MISMATCH => "Header mismatch",
            Self::MISSING_REQUIRED_CLIENT_CAPABILITY => "Missing required client capability",
            Self::UNSUPPORTED_PROTOCOL_VERSION => "Unsupported protocol version",
            Self::RESOURCE_NOT_FOUND => "Resource not found",
            Self::URL_ELICITATION_REQUIRED => "URL elicitation required",
            _ => return None,
        })
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// The `error` member of a JSON-RPC error response (`Error`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("{message} ({code})")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ErrorObject {
    /// The error code.
    pub code: ErrorCode,
    /// A short description of the error.
    pub message: String,
    /// Further information, shaped by the code; an explicit `null` is kept.
    #[serde(default, deserialize_with = "crate::json::present")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_any_json_value))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<JsonValue>,
}

impl ErrorObject {
    /// An error with a code and a message and no data.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// Attaches `data`.
    #[must_use]
    pub fn with_data(mut self, data: impl Into<JsonValue>) -> Self {
        self.data = Some(data.into());
        self
    }

    /// `-32700`.
    pub fn parse_error(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::PARSE_ERROR, message)
    }

    /// `-32600`.
    pub fn invalid_request(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::INVALID_REQUEST, message)
    }

    /// `-32601`, naming the method.
    pub fn method_not_found(method: &str) -> Self {
        Self::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("Method not found: {method}"),
        )
    }

    /// `-32602`.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::INVALID_PARAMS, message)
    }

    /// `-32603`.
    pub fn internal_error(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::INTERNAL_ERROR, message)
    }

    /// `-32020`.
    pub fn header_mismatch(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::HEADER_MISMATCH, message)
    }

    /// `-32021`, with the capabilities the request needs.
    pub fn missing_required_client_capability(
        message: impl Into<String>,
        required: ClientCapabilities,
    ) -> Self {
        let data = MissingRequiredClientCapabilityData {
            required_capabilities: required,
        };
        Self::new(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, message).with_typed_data(&data)
    }

    /// `-32022`, with the supported versions and the requested one.
    pub fn unsupported_protocol_version(supported: &[&str], requested: &str) -> Self {
        let data = UnsupportedProtocolVersionData {
            supported: supported.iter().map(|v| (*v).to_owned()).collect(),
            requested: requested.to_owned(),
        };
        Self::from(data)
    }

    /// Attaches `data` after serializing it.
    #[must_use]
    pub fn with_typed_data<T: Serialize>(mut self, data: &T) -> Self {
        self.data = serde_json::to_value(data).ok();
        self
    }
}

impl From<UnsupportedProtocolVersionData> for ErrorObject {
    fn from(data: UnsupportedProtocolVersionData) -> Self {
        Self::new(
            ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
        )
        .with_typed_data(&data)
    }
}

/// The `data` of an `UnsupportedProtocolVersion` (`-32022`) error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct UnsupportedProtocolVersionData {
    /// The versions the server speaks.
    pub supported: Vec<String>,
    /// The version the client asked for.
    pub requested: String,
}

/// The `data` of a `MissingRequiredClientCapability` (`-32021`) error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct MissingRequiredClientCapabilityData {
    /// The capabilities the request needs.
    pub required_capabilities: ClientCapabilities,
}
