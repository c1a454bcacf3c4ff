//! The server-facing types of MCP Apps (`io.modelcontextprotocol/ui`): the `_meta.ui` objects that tie a tool to an HTML view and configure that view's sandbox, and the client's capability settings.
//!
//! ```
//! use mcp_core::ext::apps::{self, McpUiToolMeta, McpUiToolVisibility};
//! use mcp_core::meta::Meta;
//!
//! let ui = McpUiToolMeta {
//!     resource_uri: Some("ui://weather/view.html".into()),
//!     visibility: Some(vec![McpUiToolVisibility::App]),
//! };
//! let mut meta = Meta::new();
//! ui.insert_into(&mut meta);
//! assert_eq!(meta[apps::UI]["visibility"][0], "app");
//! assert!(!ui.is_visible_to_model());
//!
//! // The deprecated flat key is still read.
//! let legacy = Meta::new().with(apps::UI_RESOURCE_URI, "ui://weather/view.html");
//! let read = McpUiToolMeta::from_meta(&legacy).unwrap().unwrap();
//! assert_eq!(read.resource_uri.as_deref(), Some("ui://weather/view.html"));
//! assert!(read.is_visible_to_model());
//! ```

use serde::{Deserialize, Serialize};

use crate::capabilities::ClientCapabilities;
use crate::json::JsonValue;
use crate::meta::Meta;

pub use crate::meta::{UI, UI_RESOURCE_URI};

/// The extension identifier, the key under `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";

/// The MIME type of an MCP App view (`text/html;profile=mcp-app`).
pub const RESOURCE_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The URI scheme every UI resource uses (`ui://`).
pub const URI_SCHEME_PREFIX: &str = "ui://";

/// Who may call a tool (`McpUiToolVisibility`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum McpUiToolVisibility {
    /// The model sees and calls the tool.
    Model,
    /// The app (view) from this server calls the tool.
    App,
}

/// UI metadata on a tool, under `Tool._meta.ui` (`McpUiToolMeta`).
///
/// The schema forbids `csp` and `permissions` here (they belong on the
/// resource); hosts ignore them, and so does decoding.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct McpUiToolMeta {
    /// The `ui://` resource to display for this tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_uri: Option<String>,
    /// Who may call the tool; absent means `["model", "app"]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<Vec<McpUiToolVisibility>>,
}

impl McpUiToolMeta {
    /// Reads `_meta.ui` from a tool's `_meta`, falling back to the deprecated
    /// flat `_meta["ui/resourceUri"]` for the resource URI; `None` when neither is present.
    ///
    /// # Errors
    ///
    /// When `_meta.ui` is present but not a tool UI object.
    pub fn from_meta(meta: &Meta) -> Result<Option<Self>, serde_json::Error> {
        let mut ui = meta.get(UI).map(Self::deserialize).transpose()?;
        if let Some(JsonValue::String(uri)) = meta.get(UI_RESOURCE_URI) {
            let ui = ui.get_or_insert_with(Self::default);
            if ui.resource_uri.is_none() {
                ui.resource_uri = Some(uri.clone());
            }
        }
        Ok(ui)
    }

    /// Writes this object to `meta` under `ui`, replacing what was there.
    pub fn insert_into(&self, meta: &mut Meta) {
        meta.insert(UI.to_owned(), to_json(self));
    }

    /// Whether the model may see and call the tool.
    pub fn is_visible_to_model(&self) -> bool {
        self.allows(McpUiToolVisibility::Model)
    }

    /// Whether the app (view) may call the tool.
    pub fn is_callable_by_app(&self) -> bool {
        self.allows(McpUiToolVisibility::App)
    }

    fn allows(&self, who: McpUiToolVisibility) -> bool {
        self.visibility.as_ref().is_none_or(|v| v.contains(&who))
    }
}

/// The origins a view may reach, mapped to its Content Security Policy (`McpUiResourceCsp`).
///
/// An absent or empty list allows nothing beyond the host's restrictive default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct McpUiResourceCsp {
    /// Origins for fetch, XHR and WebSocket (`connect-src`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connect_domains: Option<Vec<String>>,
    /// Origins for images, scripts, stylesheets, fonts and media (`img-src`, `script-src`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_domains: Option<Vec<String>>,
    /// Origins for nested iframes (`frame-src`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_domains: Option<Vec<String>>,
    /// Allowed base URIs of the document (`base-uri`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_uri_domains: Option<Vec<String>>,
}

/// A browser permission a view asks for: always the empty object `{}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct PermissionRequest {}

/// The sandbox permissions a view asks for (`McpUiResourcePermissions`); the
/// host may grant them through the iframe's `allow` attribute.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct McpUiResourcePermissions {
    /// The `camera` permission policy feature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub camera: Option<PermissionRequest>,
    /// The `microphone` permission policy feature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub microphone: Option<PermissionRequest>,
    /// The `geolocation` permission policy feature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub geolocation: Option<PermissionRequest>,
    /// The `clipboard-write` permission policy feature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clipboard_write: Option<PermissionRequest>,
}

/// UI metadata on a UI resource or its contents, under `_meta.ui`
/// (`McpUiResourceMeta`); the one on the contents wins.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct McpUiResourceMeta {
    /// The origins the view may reach.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub csp: Option<McpUiResourceCsp>,
    /// The browser permissions the view asks for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permissions: Option<McpUiResourcePermissions>,
    /// A dedicated sandbox origin, in a format each host defines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// Whether the view wants a visible border and background; absent lets the host decide.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefers_border: Option<bool>,
}

impl McpUiResourceMeta {
    /// Reads `_meta.ui` from a resource's or a contents item's `_meta`.
    ///
    /// # Errors
    ///
    /// When `_meta.ui` is present but not a resource UI object.
    pub fn from_meta(meta: &Meta) -> Result<Option<Self>, serde_json::Error> {
        meta.get(UI).map(Self::deserialize).transpose()
    }

    /// Writes this object to `meta` under `ui`, replacing what was there.
    pub fn insert_into(&self, meta: &mut Meta) {
        meta.insert(UI.to_owned(), to_json(self));
    }
}

/// The settings a client declares for this extension (`McpUiClientCapabilities`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct McpUiClientCapabilities {
    /// The UI resource MIME types the client renders; MCP Apps need [`RESOURCE_MIME_TYPE`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_types: Option<Vec<String>>,
}

impl McpUiClientCapabilities {
    /// The settings `capabilities` declares under [`EXTENSION_ID`]; `None` when
    /// the client does not declare the extension.
    ///
    /// # Errors
    ///
    /// When the settings are not an MCP Apps settings object.
    pub fn from_capabilities(
        capabilities: &ClientCapabilities,
    ) -> Result<Option<Self>, serde_json::Error> {
        capabilities
            .extensions
            .as_ref()
            .and_then(|extensions| extensions.get(EXTENSION_ID))
            .map(|settings| serde_json::from_value(JsonValue::Object(settings.clone())))
            .transpose()
    }

    /// Whether the client renders MCP App views ([`RESOURCE_MIME_TYPE`]).
    pub fn supports_mcp_apps(&self) -> bool {
        self.mime_types
            .as_ref()
            .is_some_and(|types| types.iter().any(|t| t == RESOURCE_MIME_TYPE))
    }
}

/// Serializes a `_meta.ui` object; these types always serialize to an object.
fn to_json<T: Serialize>(value: &T) -> JsonValue {
    serde_json::to_value(value).unwrap_or_else(|_| JsonValue::Object(Default::default()))
}
