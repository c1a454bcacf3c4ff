//! `logging/setLevel`: the client sets the least severe level of log messages
//! it wants for the session (2025-11-25 only).
//!
//! ```
//! use mcp_core::legacy::logging::SetLevelRequest;
//! use mcp_core::logging::LoggingLevel;
//!
//! let request: SetLevelRequest = serde_json::from_value(serde_json::json!({
//!     "jsonrpc": "2.0", "id": 7, "method": "logging/setLevel", "params": {"level": "warning"}
//! })).unwrap();
//! assert_eq!(request.params.level, LoggingLevel::Warning);
//! ```

use serde::{Deserialize, Serialize};

use crate::logging::LoggingLevel;
use crate::meta::RequestMeta;
use crate::method::{TypedRequest, methods, params};
use crate::result::EmptyResult;
use crate::version::Era;

/// Params of `logging/setLevel` (`SetLevelRequestParams`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SetLevelRequestParams {
    /// Request metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Send `notifications/message` at this level and above.
    pub level: LoggingLevel,
}

impl SetLevelRequestParams {
    /// Params asking for messages at `level` and above.
    pub fn new(level: LoggingLevel) -> Self {
        Self { meta: None, level }
    }
}

params!(SetLevelRequestParams);

methods! {
    /// `logging/setLevel`: set the session's log level.
    SetLevel = "logging/setLevel" {
        params: SetLevelRequestParams,
        result: EmptyResult,
        eras: Era::LEGACY,
    }
}

/// A `logging/setLevel` request (`SetLevelRequest`).
pub type SetLevelRequest = TypedRequest<SetLevel>;
