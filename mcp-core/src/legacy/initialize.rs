//! The `initialize` handshake that opens a 2025-11-25 session, and the
//! `notifications/initialized` that ends it.
//!
//! ```
//! use mcp_core::capabilities::ServerCapabilities;
//! use mcp_core::content::Implementation;
//! use mcp_core::legacy::initialize::{InitializeRequest, InitializeResult};
//!
//! let request: InitializeRequest = serde_json::from_value(serde_json::json!({
//!     "jsonrpc": "2.0", "id": 1, "method": "initialize",
//!     "params": {
//!         "protocolVersion": "2025-11-25",
//!         "capabilities": {"roots": {"listChanged": true}, "tasks": {"requests": {"elicitation": {"create": {}}}}},
//!         "clientInfo": {"name": "ExampleClient", "version": "1.0.0"}
//!     }
//! })).unwrap();
//! assert_eq!(request.params.client_info.name, "ExampleClient");
//! assert!(request.params.capabilities.tasks.unwrap().supports_elicit());
//!
//! let result = InitializeResult::new("2025-11-25", ServerCapabilities::default(), Implementation::new("srv", "1.0"));
//! // Legacy results carry no `resultType`.
//! assert_eq!(serde_json::to_value(&result).unwrap(), serde_json::json!({
//!     "protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "srv", "version": "1.0"}
//! }));
//! ```

use serde::{Deserialize, Serialize};

use crate::capabilities::{ClientCapabilities, ServerCapabilities};
use crate::content::Implementation;
use crate::meta::{Meta, RequestMeta};
use crate::method::{TypedNotification, TypedRequest, methods, notifications, params};
use crate::pagination::NotificationParams;
use crate::version::Era;

/// Params of `initialize` (`InitializeRequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct InitializeRequestParams {
    /// Request metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// The newest protocol version the client supports.
    pub protocol_version: String,
    /// What the client supports, for the whole session.
    pub capabilities: ClientCapabilities,
    /// Who the client is.
    pub client_info: Implementation,
}

impl InitializeRequestParams {
    /// Params asking for `protocol_version`, with the client's capabilities and identity.
    pub fn new(
        protocol_version: impl Into<String>,
        capabilities: ClientCapabilities,
        client_info: Implementation,
    ) -> Self {
        Self {
            meta: None,
            protocol_version: protocol_version.into(),
            capabilities,
            client_info,
        }
    }
}

/// The server's answer to `initialize` (`InitializeResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct InitializeResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// The protocol version the server chose; the client disconnects if it cannot speak it.
    pub protocol_version: String,
    /// What the server offers, for the whole session.
    pub capabilities: ServerCapabilities,
    /// Who the server is.
    pub server_info: Implementation,
    /// How to use the server, as a hint for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
}

impl InitializeResult {
    /// A result choosing `protocol_version`, with the server's capabilities and identity.
    pub fn new(
        protocol_version: impl Into<String>,
        capabilities: ServerCapabilities,
        server_info: Implementation,
    ) -> Self {
        Self {
            meta: None,
            protocol_version: protocol_version.into(),
            capabilities,
            server_info,
            instructions: None,
        }
    }

    /// Adds instructions for the model.
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }
}

params!(InitializeRequestParams);

methods! {
    /// `initialize`: open a session and negotiate version and capabilities.
    Initialize = "initialize" {
        params: InitializeRequestParams,
        result: InitializeResult,
        eras: Era::LEGACY,
    }
}

notifications! {
    /// `notifications/initialized`: the client has finished initializing.
    Initialized = "notifications/initialized" {
        params: Option<NotificationParams>,
        eras: Era::LEGACY,
    }
}

/// An `initialize` request (`InitializeRequest`).
pub type InitializeRequest = TypedRequest<Initialize>;
/// A `notifications/initialized` notification (`InitializedNotification`).
pub type InitializedNotification = TypedNotification<Initialized>;
