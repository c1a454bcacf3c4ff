//! Prompts, resources, the resource template and the completion.

use mcp_demo as _;
use mcp_demo::media::PNG_BASE64;
use mcp_server::core::error::ErrorCode;
use mcp_server::core::json::JsonValue;
use mcp_server::testing::MemoryClient;
use serde_json::json;

fn client() -> MemoryClient {
    MemoryClient::new(&mcp_demo::server())
}

async fn get_prompt(client: &MemoryClient, name: &str, arguments: JsonValue) -> JsonValue {
    client
        .request_raw("prompts/get", json!({"name": name, "arguments": arguments}))
        .await
        .unwrap()
}

async fn read(client: &MemoryClient, uri: &str) -> JsonValue {
    client
        .request_raw("resources/read", json!({"uri": uri}))
        .await
        .unwrap()
}

#[tokio::test]
async fn every_prompt_is_listed_with_a_description_and_its_arguments() {
    let listed = client()
        .request_raw("prompts/list", json!({}))
        .await
        .unwrap();
    let prompts = listed["prompts"].as_array().unwrap();
    let names: Vec<&str> = prompts
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "test_input_required_result_prompt",
            "test_prompt_with_arguments",
            "test_prompt_with_embedded_resource",
            "test_prompt_with_image",
            "test_simple_prompt"
        ]
    );
    for prompt in prompts {
        assert!(
            prompt["description"]
                .as_str()
                .is_some_and(|d| !d.is_empty()),
            "{prompt}"
        );
    }
    assert_eq!(
        prompts[1]["arguments"],
        json!([
            {"name": "arg1", "description": "First test argument", "required": true},
            {"name": "arg2", "description": "Second test argument", "required": true}
        ])
    );
    assert_eq!(
        prompts[2]["arguments"],
        json!([{"name": "resourceUri", "description": "URI of the resource to embed", "required": true}])
    );
}

#[tokio::test]
async fn the_simple_prompt_is_one_user_text_message() {
    let prompt = get_prompt(&client(), "test_simple_prompt", json!({})).await;
    assert_eq!(
        prompt["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "This is a simple prompt for testing."}}])
    );
}

#[tokio::test]
async fn the_prompt_with_arguments_quotes_both_values_and_requires_them() {
    let client = client();
    let prompt = get_prompt(
        &client,
        "test_prompt_with_arguments",
        json!({"arg1": "testValue1", "arg2": "testValue2"}),
    )
    .await;
    assert_eq!(
        prompt["messages"][0]["content"]["text"],
        "Prompt with arguments: arg1='testValue1', arg2='testValue2'"
    );
    let missing = client
        .request_raw(
            "prompts/get",
            json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "x"}}),
        )
        .await
        .unwrap_err();
    assert_eq!(missing.code, ErrorCode::INVALID_PARAMS);
    assert!(missing.message.contains("arg2"), "{}", missing.message);
}

#[tokio::test]
async fn the_embedded_resource_prompt_embeds_the_resource_uri_it_is_given() {
    let prompt = get_prompt(
        &client(),
        "test_prompt_with_embedded_resource",
        json!({"resourceUri": "test://example-resource"}),
    )
    .await;
    assert_eq!(
        prompt["messages"],
        json!([
            {"role": "user", "content": {"type": "resource", "resource": {
                "uri": "test://example-resource",
                "mimeType": "text/plain",
                "text": "Embedded resource content for testing."
            }}},
            {"role": "user", "content": {"type": "text", "text": "Please process the embedded resource above."}}
        ])
    );
}

#[tokio::test]
async fn the_image_prompt_shows_the_png_then_asks_about_it() {
    let prompt = get_prompt(&client(), "test_prompt_with_image", json!({})).await;
    assert_eq!(
        prompt["messages"],
        json!([
            {"role": "user", "content": {"type": "image", "data": PNG_BASE64, "mimeType": "image/png"}},
            {"role": "user", "content": {"type": "text", "text": "Please analyze the image above."}}
        ])
    );
}

#[tokio::test]
async fn the_resources_and_the_template_are_listed_with_uri_and_name() {
    let client = client();
    let listed = client
        .request_raw("resources/list", json!({}))
        .await
        .unwrap();
    let mut uris: Vec<(&str, &str)> = listed["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["uri"].as_str().unwrap(), r["name"].as_str().unwrap()))
        .collect();
    uris.sort_unstable();
    assert_eq!(
        uris,
        [
            ("skill://sales-report/SKILL.md", "sales-report"),
            ("test://static-binary", "static-binary"),
            ("test://static-text", "static-text"),
            ("test://watched-resource", "watched-resource"),
            ("ui://mcp-demo/sales-chart", "sales_chart")
        ]
    );
    let templates = client
        .request_raw("resources/templates/list", json!({}))
        .await
        .unwrap();
    assert_eq!(
        templates["resourceTemplates"][0]["uriTemplate"],
        "test://template/{id}/data"
    );
    assert_eq!(
        templates["resourceTemplates"][0]["mimeType"],
        "application/json"
    );
}

#[tokio::test]
async fn the_static_text_resource_reads_as_plain_text() {
    let read = read(&client(), "test://static-text").await;
    assert_eq!(
        read["contents"],
        json!([{
            "uri": "test://static-text",
            "mimeType": "text/plain",
            "text": "This is the content of the static text resource."
        }])
    );
}

#[tokio::test]
async fn the_static_binary_resource_reads_as_the_png_blob() {
    let read = read(&client(), "test://static-binary").await;
    assert_eq!(
        read["contents"],
        json!([{"uri": "test://static-binary", "mimeType": "image/png", "blob": PNG_BASE64}])
    );
}

#[tokio::test]
async fn the_watched_resource_reads_as_its_content() {
    let read = read(&client(), "test://watched-resource").await;
    assert_eq!(
        read["contents"],
        json!([{"uri": "test://watched-resource", "mimeType": "text/plain", "text": "Watched resource content"}])
    );
}

#[tokio::test]
async fn the_template_reads_as_json_naming_its_id() {
    let read = read(&client(), "test://template/123/data").await;
    assert_eq!(
        read["contents"],
        json!([{
            "uri": "test://template/123/data",
            "mimeType": "application/json",
            "text": "{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}"
        }])
    );
}

#[tokio::test]
async fn the_first_argument_of_the_prompt_with_arguments_completes() {
    let client = client();
    let complete = |value: &'static str| {
        client.request_raw(
            "completion/complete",
            json!({
                "ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
                "argument": {"name": "arg1", "value": value}
            }),
        )
    };
    let completed = complete("test").await.unwrap();
    assert_eq!(
        completed["completion"]["values"],
        json!(["testValue1", "test-alpha", "test-beta"])
    );
    let everything = complete("").await.unwrap();
    assert_eq!(
        everything["completion"]["values"].as_array().unwrap().len(),
        4
    );
    let nothing = complete("zzz").await.unwrap();
    assert_eq!(nothing["completion"]["values"], json!([]));
}
