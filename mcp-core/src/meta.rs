//! `_meta` objects and the keys the protocol reserves in them.
//!
//! Every `_meta` keeps keys it does not know: they survive decode → encode
//! unchanged. The typed objects ([`RequestMeta`], [`NotificationMeta`],
//! [`ResultMeta`]) name the reserved keys and keep the rest in `extra`.
//!
//! ```
//! use mcp_core::meta::{self, RequestMeta};
//!
//! let meta: RequestMeta = serde_json::from_value(serde_json::json!({
//!     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
//!     "io.modelcontextprotocol/clientCapabilities": {},
//!     "com.example/trace": "abc"
//! })).unwrap();
//! assert_eq!(meta.protocol_version.as_deref(), Some("2026-07-28"));
//! assert_eq!(meta.extra["com.example/trace"], "abc");
//! assert!(meta::is_reserved_key(meta::PROTOCOL_VERSION));
//! assert!(!meta::is_reserved_key("com.example.mcp/x"));
//! ```

use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Serialize};

use crate::capabilities::ClientCapabilities;
use crate::content::Implementation;
use crate::json::{JsonObject, JsonValue};
use crate::jsonrpc::{ProgressToken, RequestId};
use crate::logging::LoggingLevel;

/// `progressToken` (request `_meta`, all eras): opt in to progress notifications.
pub const PROGRESS_TOKEN: &str = "progressToken";
/// `io.modelcontextprotocol/protocolVersion` (request `_meta`, 2026-07-28, required).
pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `io.modelcontextprotocol/clientCapabilities` (request `_meta`, 2026-07-28, required).
pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `io.modelcontextprotocol/clientInfo` (request `_meta`, 2026-07-28).
pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `io.modelcontextprotocol/logLevel` (request `_meta`, 2026-07-28): opt in to log messages.
pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// `io.modelcontextprotocol/serverInfo` (result `_meta`, 2026-07-28).
pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// `io.modelcontextprotocol/subscriptionId` (notification and listen-result `_meta`, 2026-07-28).
pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// `traceparent` (any `_meta`, 2026-07-28): W3C Trace Context.
pub const TRACEPARENT: &str = "traceparent";
/// `tracestate` (any `_meta`, 2026-07-28): W3C Trace Context.
pub const TRACESTATE: &str = "tracestate";
/// `baggage` (any `_meta`, 2026-07-28): W3C Baggage.
pub const BAGGAGE: &str = "baggage";
/// `io.modelcontextprotocol/related-task` (2025-11-25 core tasks): ties a message to a task.
pub const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";
/// `io.modelcontextprotocol/model-immediate-response` (2025-11-25 `CreateTaskResult._meta`).
pub const MODEL_IMMEDIATE_RESPONSE: &str = "io.modelcontextprotocol/model-immediate-response";
/// `ui` (MCP Apps): UI metadata on tools, resources and resource contents.
pub const UI: &str = "ui";
/// `ui/resourceUri` (MCP Apps, deprecated flat form on tools).
pub const UI_RESOURCE_URI: &str = "ui/resourceUri";

/// Every key this model names, reserved by the protocol or defined by an official extension.
pub const KNOWN_KEYS: &[&str] = &[
    PROGRESS_TOKEN,
    PROTOCOL_VERSION,
    CLIENT_CAPABILITIES,
    CLIENT_INFO,
    LOG_LEVEL,
    SERVER_INFO,
    SUBSCRIPTION_ID,
    TRACEPARENT,
    TRACESTATE,
    BAGGAGE,
    RELATED_TASK,
    MODEL_IMMEDIATE_RESPONSE,
    UI,
    UI_RESOURCE_URI,
];

/// Whether `key`'s prefix is reserved for the protocol: its second label is
/// `modelcontextprotocol` or `mcp` (`io.modelcontextprotocol/`, `dev.mcp/`).
pub fn is_reserved_key(key: &str) -> bool {
    let Some((prefix, _)) = key.split_once('/') else {
        return false;
    };
    matches!(
        prefix.split('.').nth(1),
        Some("modelcontextprotocol" | "mcp")
    )
}

/// A `_meta` object with no reserved keys of its own (`MetaObject`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Meta(pub JsonObject);

impl Meta {
    /// An empty `_meta`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `key` with `value`, returning `self`.
    #[must_use]
    pub fn with(mut self, key: impl Into<String>, value: impl Into<JsonValue>) -> Self {
        self.0.insert(key.into(), value.into());
        self
    }
}

impl Deref for Meta {
    type Target = JsonObject;
    fn deref(&self) -> &JsonObject {
        &self.0
    }
}

impl DerefMut for Meta {
    fn deref_mut(&mut self) -> &mut JsonObject {
        &mut self.0
    }
}

impl From<JsonObject> for Meta {
    fn from(map: JsonObject) -> Self {
        Self(map)
    }
}

/// The `_meta` of a request (`RequestMetaObject`).
///
/// The 2026-07-28 schema requires the protocol version and client
/// capabilities; they are optional here because a 2025-11-25 request carries
/// neither. Whether a request has what its era needs is the server's check.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RequestMeta {
    /// Opt in to `notifications/progress` for this request.
    #[serde(rename = "progressToken")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress_token: Option<ProgressToken>,
    /// The protocol version of this request.
    #[serde(rename = "io.modelcontextprotocol/protocolVersion")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    /// Who the client says it is (boxed: most requests are decoded without looking).
    #[serde(rename = "io.modelcontextprotocol/clientInfo")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_info: Option<Box<Implementation>>,
    /// The client's capabilities for this request (boxed, for the same reason).
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_capabilities: Option<Box<ClientCapabilities>>,
    /// Opt in to `notifications/message` at this level or above.
    #[serde(rename = "io.modelcontextprotocol/logLevel")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_level: Option<LoggingLevel>,
    /// Every other key, kept as it came.
    #[serde(flatten)]
    pub extra: Meta,
}

impl RequestMeta {
    /// The `_meta` a 2026-07-28 request needs: a version and capabilities.
    pub fn modern(protocol_version: impl Into<String>, capabilities: ClientCapabilities) -> Self {
        Self {
            protocol_version: Some(protocol_version.into()),
            client_capabilities: Some(Box::new(capabilities)),
            ..Self::default()
        }
    }
}

/// The `_meta` of a notification (`NotificationMetaObject`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NotificationMeta {
    /// The id of the `subscriptions/listen` request this notification belongs to.
    #[serde(rename = "io.modelcontextprotocol/subscriptionId")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subscription_id: Option<RequestId>,
    /// Every other key, kept as it came.
    #[serde(flatten)]
    pub extra: Meta,
}

/// The `_meta` of a result (`ResultMetaObject`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ResultMeta {
    /// The server's identity.
    #[serde(rename = "io.modelcontextprotocol/serverInfo")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_info: Option<Implementation>,
    /// Every other key, kept as it came.
    #[serde(flatten)]
    pub extra: Meta,
}

#[cfg(feature = "arbitrary")]
mod arbitrary_impls {
    use arbitrary::{Arbitrary, Result, Unstructured};

    use super::{Meta, RequestMeta};
    use crate::version;

    impl<'a> Arbitrary<'a> for Meta {
        fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
            let mut meta = Meta::new();
            for _ in 0..u.int_in_range(0..=2u8)? {
                let key = format!("com.example/{}", crate::arb::key(u)?);
                meta.insert(key, crate::arb::any_json_value(u)?);
            }
            Ok(meta)
        }
    }

    /// Always carries what a 2026-07-28 request requires.
    impl<'a> Arbitrary<'a> for RequestMeta {
        fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
            Ok(RequestMeta {
                progress_token: u.arbitrary()?,
                protocol_version: Some(version::LATEST.to_owned()),
                client_info: u.arbitrary()?,
                client_capabilities: Some(Box::new(u.arbitrary()?)),
                log_level: u.arbitrary()?,
                extra: u.arbitrary()?,
            })
        }
    }
}

crate::open::deserialize_open!(RequestMeta {
    progress_token: "progressToken",
    protocol_version: "io.modelcontextprotocol/protocolVersion",
    client_info: "io.modelcontextprotocol/clientInfo",
    client_capabilities: "io.modelcontextprotocol/clientCapabilities",
    log_level: "io.modelcontextprotocol/logLevel"
});

crate::open::deserialize_open!(NotificationMeta {
    subscription_id: "io.modelcontextprotocol/subscriptionId"
});

crate::open::deserialize_open!(ResultMeta {
    server_info: "io.modelcontextprotocol/serverInfo"
});
