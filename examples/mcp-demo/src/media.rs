//! The media the contract sends, base64-encoded as on the wire: the
//! reference server's 1x1 red PNG and its minimal WAV, and the content
//! blocks built from them.

use mcp_server::core::content::{ContentBlock, EmbeddedResource, ImageContent};
use mcp_server::core::resources::{ResourceContents, TextResourceContents};

/// A 1x1 red PNG, base64-encoded.
pub const PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// The MIME type of [`PNG_BASE64`].
pub const PNG_MIME_TYPE: &str = "image/png";

/// A minimal WAV file (one silent sample), base64-encoded.
pub const WAV_BASE64: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// The MIME type of [`WAV_BASE64`]; the suite checks it is exactly this.
pub const WAV_MIME_TYPE: &str = "audio/wav";

/// The 1x1 PNG as image content.
pub fn png() -> ContentBlock {
    ContentBlock::Image(ImageContent {
        data: PNG_BASE64.into(),
        mime_type: PNG_MIME_TYPE.into(),
        ..ImageContent::default()
    })
}

/// A text resource embedded in a result or a prompt message.
pub fn embedded_text(uri: &str, mime_type: &str, text: &str) -> ContentBlock {
    ContentBlock::Resource(EmbeddedResource {
        kind: Default::default(),
        resource: ResourceContents::Text(TextResourceContents {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: text.into(),
            ..TextResourceContents::default()
        }),
        annotations: None,
        meta: None,
    })
}
