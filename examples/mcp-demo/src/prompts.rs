//! The prompts: plain text, with arguments, with an embedded resource, and
//! with an image.

use mcp_server::core::content::{ContentBlock, Role};
use mcp_server::core::prompts::PromptMessage;
use mcp_server::prompt;

use crate::media::{embedded_text, png};

/// A simple prompt without arguments.
#[prompt(title = "Simple Test Prompt")]
pub async fn test_simple_prompt() -> String {
    "This is a simple prompt for testing.".into()
}

/// A prompt with required arguments.
#[prompt(title = "Prompt With Arguments")]
pub async fn test_prompt_with_arguments(
    #[arg(description = "First test argument")] arg1: String,
    #[arg(description = "Second test argument")] arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// A prompt that includes an embedded resource.
#[prompt(title = "Prompt With Embedded Resource")]
pub async fn test_prompt_with_embedded_resource(
    #[arg(name = "resourceUri", description = "URI of the resource to embed")] resource_uri: String,
) -> Vec<PromptMessage> {
    vec![
        user(embedded_text(
            &resource_uri,
            "text/plain",
            "Embedded resource content for testing.",
        )),
        user(ContentBlock::text(
            "Please process the embedded resource above.",
        )),
    ]
}

/// A prompt that includes image content.
#[prompt(title = "Prompt With Image")]
pub async fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        user(png()),
        user(ContentBlock::text("Please analyze the image above.")),
    ]
}

/// A message from the user.
fn user(content: ContentBlock) -> PromptMessage {
    PromptMessage {
        role: Role::User,
        content,
    }
}
