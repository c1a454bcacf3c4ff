//! What a client and a server each declare they can do.
//!
//! Capability objects keep members they do not know, so a capability from a
//! newer peer survives a round trip.
//!
//! ```
//! use mcp_core::capabilities::ServerCapabilities;
//!
//! let caps: ServerCapabilities = serde_json::from_value(serde_json::json!({
//!     "tools": {"listChanged": true},
//!     "extensions": {"io.modelcontextprotocol/tasks": {}},
//!     "com.example/future": {"x": 1}
//! })).unwrap();
//! assert!(caps.has_extension("io.modelcontextprotocol/tasks"));
//! assert_eq!(caps.extra["com.example/future"]["x"], 1);
//! ```

use std::collections::BTreeMap;

use serde::Serialize;

use crate::json::JsonObject;

/// A map from capability or extension identifier to its settings object.
pub type CapabilityMap = BTreeMap<String, JsonObject>;

/// What a client supports (`ClientCapabilities`); in 2026-07-28 it travels
/// with every request, in 2025-11-25 once with `initialize`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ClientCapabilities {
    /// Non-standard capabilities.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_object_map))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub experimental: Option<CapabilityMap>,
    /// The client lists roots (deprecated feature).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roots: Option<RootsCapability>,
    /// The client samples from a model (deprecated feature).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampling: Option<SamplingCapability>,
    /// The client answers elicitation; `{}` means form mode only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationCapability>,
    /// Extensions the client supports, by identifier (2026-07-28).
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_object_map))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extensions: Option<CapabilityMap>,
    /// Legacy (2025-11-25) task support: which requests the client runs as tasks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tasks: Option<Box<crate::legacy::tasks::ClientTasksCapability>>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

impl ClientCapabilities {
    /// Whether the client declared extension `id`.
    pub fn has_extension(&self, id: &str) -> bool {
        self.extensions.as_ref().is_some_and(|e| e.contains_key(id))
    }
}

/// The client's `roots` capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct RootsCapability {
    /// Legacy (2025-11-25): the client notifies when its roots change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

/// The client's `sampling` capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SamplingCapability {
    /// The client honours `includeContext` (soft-deprecated).
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<JsonObject>,
    /// The client accepts `tools` and `toolChoice` in sampling requests.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<JsonObject>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

/// The client's `elicitation` capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ElicitationCapability {
    /// Form mode.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form: Option<JsonObject>,
    /// URL mode.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<JsonObject>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

impl ElicitationCapability {
    /// Whether form mode is supported (an empty object means form mode).
    pub fn supports_form(&self) -> bool {
        self.form.is_some() || self.url.is_none()
    }

    /// Whether URL mode is supported.
    pub fn supports_url(&self) -> bool {
        self.url.is_some()
    }
}

/// What a server offers (`ServerCapabilities`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ServerCapabilities {
    /// Non-standard capabilities.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_object_map))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub experimental: Option<CapabilityMap>,
    /// The server sends log messages (deprecated feature).
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logging: Option<JsonObject>,
    /// The server completes arguments.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completions: Option<JsonObject>,
    /// The server offers prompts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompts: Option<ListChangedCapability>,
    /// The server offers resources.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourcesCapability>,
    /// The server offers tools.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<ListChangedCapability>,
    /// Extensions the server supports, by identifier (2026-07-28).
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_object_map))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extensions: Option<CapabilityMap>,
    /// Legacy (2025-11-25) task support: which requests the server runs as tasks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tasks: Option<Box<crate::legacy::tasks::ServerTasksCapability>>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

impl ServerCapabilities {
    /// Whether the server declares extension `id`.
    pub fn has_extension(&self, id: &str) -> bool {
        self.extensions.as_ref().is_some_and(|e| e.contains_key(id))
    }
}

/// A capability whose only setting is `listChanged` (prompts, tools).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ListChangedCapability {
    /// The server notifies when the list changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

/// The server's `resources` capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ResourcesCapability {
    /// The server accepts subscriptions to resource updates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subscribe: Option<bool>,
    /// The server notifies when the resource list changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

crate::open::deserialize_open!(ClientCapabilities {
    experimental: "experimental",
    roots: "roots",
    sampling: "sampling",
    elicitation: "elicitation",
    extensions: "extensions",
    tasks: "tasks"
});

crate::open::deserialize_open!(RootsCapability {
    list_changed: "listChanged"
});

crate::open::deserialize_open!(SamplingCapability {
    context: "context",
    tools: "tools"
});

crate::open::deserialize_open!(ElicitationCapability {
    form: "form",
    url: "url"
});

crate::open::deserialize_open!(ServerCapabilities {
    experimental: "experimental",
    logging: "logging",
    completions: "completions",
    prompts: "prompts",
    resources: "resources",
    tools: "tools",
    extensions: "extensions",
    tasks: "tasks"
});

crate::open::deserialize_open!(ListChangedCapability {
    list_changed: "listChanged"
});

crate::open::deserialize_open!(ResourcesCapability {
    subscribe: "subscribe",
    list_changed: "listChanged"
});
