//! Prompts written with `#[prompt]` register at link time, take their
//! arguments by name and answer `prompts/get`.

use mcp_server::core::content::{ContentBlock, Role};
use mcp_server::core::prompts::{GetPromptResult, PromptMessage};
use mcp_server::testing::MemoryClient;
use mcp_server::{RequestContext, Server, prompt};
use serde_json::json;

/// Asks for a code review.
#[prompt(title = "Code review")]
async fn review(
    #[arg(description = "The code to review")] code: String,
    #[arg(description = "What to focus on")] focus: Option<String>,
) -> String {
    match focus {
        Some(focus) => format!("Review this code, focusing on {focus}:\n{code}"),
        None => format!("Review this code:\n{code}"),
    }
}

/// Greets, in two messages.
#[prompt(name = "greet.twice", description = "Says hello twice")]
async fn greet(name: String, ctx: RequestContext) -> Vec<PromptMessage> {
    let _ = ctx.method();
    vec![
        PromptMessage {
            role: Role::User,
            content: ContentBlock::text(format!("Hello, {name}")),
        },
        PromptMessage {
            role: Role::Assistant,
            content: ContentBlock::text(format!("Hello again, {name}")),
        },
    ]
}

/// Translates, refusing unknown languages.
#[prompt]
async fn translate(language: String) -> Result<GetPromptResult, String> {
    if language != "French" {
        return Err(format!("no translations into {language}"));
    }
    Ok(GetPromptResult {
        description: Some("Translate into French".into()),
        messages: vec![PromptMessage {
            role: Role::User,
            content: ContentBlock::text("Translate into French"),
        }],
        ..Default::default()
    })
}

/// Takes no arguments.
#[prompt]
async fn hello() -> String {
    "Hello".into()
}

fn server() -> Server {
    Server::builder().named("prompts", "1.0.0").build()
}

#[tokio::test]
async fn every_prompt_is_listed_with_its_arguments_from_the_parameters() {
    let client = MemoryClient::new(&server());
    let listed = client.request_raw("prompts/list", json!({})).await.unwrap();
    let prompts = listed["prompts"].as_array().unwrap();
    let names: Vec<&str> = prompts
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["greet.twice", "hello", "review", "translate"]);
    let review = &prompts[2];
    assert_eq!(review["title"], "Code review");
    assert_eq!(review["description"], "Asks for a code review.");
    assert_eq!(
        review["arguments"],
        json!([
            {"name": "code", "description": "The code to review", "required": true},
            {"name": "focus", "description": "What to focus on", "required": false},
        ])
    );
    assert_eq!(prompts[0]["description"], "Says hello twice");
    assert_eq!(
        prompts[0]["arguments"],
        json!([{"name": "name", "required": true}])
    );
    assert!(prompts[1].get("arguments").is_none());
}

#[tokio::test]
async fn a_string_is_one_user_text_message() {
    let client = MemoryClient::new(&server());
    let result = client
        .request_raw(
            "prompts/get",
            json!({"name": "review", "arguments": {"code": "fn main() {}", "focus": "naming"}}),
        )
        .await
        .unwrap();
    assert_eq!(
        result["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "Review this code, focusing on naming:\nfn main() {}"}}])
    );
    let without_focus = client
        .request_raw(
            "prompts/get",
            json!({"name": "review", "arguments": {"code": "x"}}),
        )
        .await
        .unwrap();
    assert_eq!(
        without_focus["messages"][0]["content"]["text"],
        "Review this code:\nx"
    );
    let hello = client
        .request_raw("prompts/get", json!({"name": "hello"}))
        .await
        .unwrap();
    assert_eq!(hello["messages"][0]["content"]["text"], "Hello");
}

#[tokio::test]
async fn messages_and_whole_results_are_sent_as_they_are() {
    let client = MemoryClient::new(&server());
    let greeted = client
        .request_raw(
            "prompts/get",
            json!({"name": "greet.twice", "arguments": {"name": "Ada"}}),
        )
        .await
        .unwrap();
    assert_eq!(greeted["messages"][1]["role"], "assistant");
    assert_eq!(
        greeted["messages"][1]["content"]["text"],
        "Hello again, Ada"
    );
    let translated = client
        .request_raw(
            "prompts/get",
            json!({"name": "translate", "arguments": {"language": "French"}}),
        )
        .await
        .unwrap();
    assert_eq!(translated["description"], "Translate into French");
}

#[tokio::test]
async fn a_missing_required_argument_is_invalid_params_naming_it() {
    let client = MemoryClient::new(&server());
    let error = client
        .request_raw(
            "prompts/get",
            json!({"name": "review", "arguments": {"focus": "naming"}}),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32602);
    assert!(error.message.contains("`code`"), "{}", error.message);
}

#[tokio::test]
async fn an_error_returned_by_the_prompt_is_invalid_params_with_its_text() {
    let client = MemoryClient::new(&server());
    let error = client
        .request_raw(
            "prompts/get",
            json!({"name": "translate", "arguments": {"language": "Klingon"}}),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32602);
    assert_eq!(error.message, "no translations into Klingon");
}
