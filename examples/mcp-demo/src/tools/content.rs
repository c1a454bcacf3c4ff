//! Tools that each answer with one kind of content, and the tool that fails.

use mcp_server::core::content::{AudioContent, ContentBlock};
use mcp_server::tool;

use crate::media::{WAV_BASE64, WAV_MIME_TYPE, embedded_text, png};

/// The text `test_simple_text` answers with.
pub const SIMPLE_TEXT: &str = "This is a simple text response for testing.";

/// The text of the error `test_error_handling` returns.
pub const ERROR_TEXT: &str = "This tool intentionally returns an error for testing";

/// Tests simple text content response.
#[tool(read_only)]
pub async fn test_simple_text() -> &'static str {
    SIMPLE_TEXT
}

/// Tests image content response (a 1x1 PNG).
#[tool(read_only)]
pub async fn test_image_content() -> ContentBlock {
    png()
}

/// Tests audio content response (a minimal WAV, `audio/wav`).
#[tool(read_only)]
pub async fn test_audio_content() -> ContentBlock {
    ContentBlock::Audio(AudioContent {
        data: WAV_BASE64.into(),
        mime_type: WAV_MIME_TYPE.into(),
        ..AudioContent::default()
    })
}

/// Tests embedded resource content response.
#[tool(read_only)]
pub async fn test_embedded_resource() -> ContentBlock {
    embedded_text(
        "test://embedded-resource",
        "text/plain",
        "This is an embedded resource content.",
    )
}

/// Tests response with multiple content types (text, image, resource).
#[tool(read_only)]
pub async fn test_multiple_content_types() -> Vec<ContentBlock> {
    vec![
        ContentBlock::text("Multiple content types test:"),
        png(),
        embedded_text(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#,
        ),
    ]
}

/// Tests error response handling: always an `isError` result.
#[tool(read_only)]
pub async fn test_error_handling() -> Result<String, String> {
    Err(ERROR_TEXT.into())
}
