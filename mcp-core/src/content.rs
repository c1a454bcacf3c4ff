//! Content blocks, annotations, icons and implementation identity.
//!
//! ```
//! use mcp_core::content::ContentBlock;
//!
//! let block = ContentBlock::text("hello");
//! assert_eq!(serde_json::to_value(&block).unwrap(), serde_json::json!({"type": "text", "text": "hello"}));
//! let back: ContentBlock = serde_json::from_value(serde_json::json!({"type": "text", "text": "hello"})).unwrap();
//! assert_eq!(back, block);
//! ```

use serde::{Deserialize, Serialize};

use crate::json::JsonObject;
use crate::meta::Meta;
use crate::resources::{ResourceContents, ResourceLink};
use crate::tag::wire_tag;

/// Who a message or a piece of content is for (`Role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Role {
    /// The user.
    User,
    /// The assistant.
    Assistant,
}

/// Hints on how a client should use an object (`Annotations`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Annotations {
    /// Who the object is meant for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// How important the object is, from 0 (least) to 1 (most).
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_unit_f64))]
    #[serde(serialize_with = "crate::json::opt_number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// When the object was last modified, as an ISO 8601 timestamp.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

/// A theme an icon is made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum IconTheme {
    /// For light backgrounds.
    Light,
    /// For dark backgrounds.
    Dark,
}

/// An icon a client may display (`Icon`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Icon {
    /// An `https:` or `data:` URI.
    pub src: String,
    /// The MIME type, when the URI does not say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Sizes such as `48x48`, or `any` for scalable formats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<String>>,
    /// The theme the icon suits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theme: Option<IconTheme>,
}

/// A set of icons (`Icons`), as several definitions carry.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Icons {
    /// The icons.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
}

/// A programmatic name and a display title (`BaseMetadata`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct BaseMetadata {
    /// The programmatic name.
    pub name: String,
    /// The human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// The name and version of an MCP implementation (`Implementation`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Implementation {
    /// The programmatic name.
    pub name: String,
    /// The human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The version.
    pub version: String,
    /// A human-readable description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The implementation's website.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub website_url: Option<String>,
    /// Icons for the implementation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
}

impl Implementation {
    /// An implementation named `name` at `version`.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            ..Self::default()
        }
    }
}

wire_tag!(
    /// `"type": "text"`.
    TextTag = "text"
);
wire_tag!(
    /// `"type": "image"`.
    ImageTag = "image"
);
wire_tag!(
    /// `"type": "audio"`.
    AudioTag = "audio"
);
wire_tag!(
    /// `"type": "resource"`.
    EmbeddedResourceTag = "resource"
);
wire_tag!(
    /// `"type": "tool_use"`.
    ToolUseTag = "tool_use"
);
wire_tag!(
    /// `"type": "tool_result"`.
    ToolResultTag = "tool_result"
);

/// Text (`TextContent`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TextContent {
    /// Always `text`.
    #[serde(rename = "type")]
    pub kind: TextTag,
    /// The text.
    pub text: String,
    /// Usage hints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl TextContent {
    /// Text content.
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            ..Self::default()
        }
    }
}

/// An image, base64-encoded (`ImageContent`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ImageContent {
    /// Always `image`.
    #[serde(rename = "type")]
    pub kind: ImageTag,
    /// The base64-encoded image.
    pub data: String,
    /// The image's MIME type.
    pub mime_type: String,
    /// Usage hints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Audio, base64-encoded (`AudioContent`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct AudioContent {
    /// Always `audio`.
    #[serde(rename = "type")]
    pub kind: AudioTag,
    /// The base64-encoded audio.
    pub data: String,
    /// The audio's MIME type.
    pub mime_type: String,
    /// Usage hints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A resource's contents embedded in a message (`EmbeddedResource`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct EmbeddedResource {
    /// Always `resource`.
    #[serde(rename = "type")]
    pub kind: EmbeddedResourceTag,
    /// The contents.
    pub resource: ResourceContents,
    /// Usage hints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// One piece of content in a prompt or a tool result (`ContentBlock`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum ContentBlock {
    /// Text.
    Text(TextContent),
    /// An image.
    Image(ImageContent),
    /// Audio.
    Audio(AudioContent),
    /// A link to a resource.
    ResourceLink(ResourceLink),
    /// An embedded resource.
    Resource(EmbeddedResource),
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(TextContent::new(text))
    }

    /// The text of a text block; `None` for the other kinds.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(t) => Some(&t.text),
            _ => None,
        }
    }
}

impl From<TextContent> for ContentBlock {
    fn from(c: TextContent) -> Self {
        Self::Text(c)
    }
}

/// A model's request to call a tool, inside a sampling message (`ToolUseContent`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ToolUseContent {
    /// Always `tool_use`.
    #[serde(rename = "type")]
    pub kind: ToolUseTag,
    /// The id that ties the result to this call.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::any_json_object))]
    pub input: JsonObject,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The result of a tool call, inside a sampling message (`ToolResultContent`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ToolResultContent {
    /// Always `tool_result`.
    #[serde(rename = "type")]
    pub kind: ToolResultTag,
    /// The id of the `tool_use` this answers.
    pub tool_use_id: String,
    /// The unstructured result.
    pub content: Vec<ContentBlock>,
    /// The structured result, any JSON value.
    #[serde(default, deserialize_with = "crate::json::present")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_any_json_value))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<crate::json::JsonValue>,
    /// Whether the call failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}
