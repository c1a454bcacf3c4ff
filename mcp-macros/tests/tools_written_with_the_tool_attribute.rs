//! Tools written with `#[tool]` register at link time and are called with
//! checked, typed arguments.

use mcp_server::core::content::ContentBlock;
use mcp_server::handler::tool::Structured;
use mcp_server::testing::MemoryClient;
use mcp_server::{RequestContext, Server, tool};
use serde_json::json;

/// Echoes the text back.
#[tool(read_only, idempotent)]
async fn echo(#[arg(description = "The text to echo")] text: String) -> String {
    text
}

/// Adds two integers.
#[tool(name = "math.add", title = "Add")]
async fn add(a: i64, b: i64, ctx: RequestContext) -> Structured<Sum> {
    let _ = ctx.method();
    Structured(Sum { sum: a + b })
}

/// The result of `math.add`.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum {
    /// The sum.
    sum: i64,
}

/// Where to look.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Lookup {
    /// A city name.
    city: String,
    /// How many days ahead.
    days: Option<u8>,
}

/// Forecasts the weather; fails for unknown cities.
#[tool]
async fn forecast(#[args] lookup: Lookup) -> Result<String, String> {
    match lookup.city.as_str() {
        "Paris" => Ok(format!("sunny for {} days", lookup.days.unwrap_or(1))),
        other => Err(format!("no forecast for {other}")),
    }
}

/// Uses a hand-written schema, kept verbatim.
#[tool(
    input_schema = r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"n":{"type":"integer"}},"properties":{"n":{"$ref":"#/$defs/n"}},"required":["n"],"additionalProperties":false}"##
)]
async fn raw(#[args] value: serde_json::Value) -> String {
    value["n"].to_string()
}

/// Carries metadata and icons.
#[tool(
    meta = r#"{"com.example/team": "search"}"#,
    icons = r#"[{"src": "https://example.com/find.png", "sizes": ["48x48"]}]"#
)]
async fn find() -> &'static str {
    "found"
}

fn server() -> Server {
    Server::builder().named("macros", "1.0.0").build()
}

#[tokio::test]
async fn every_tool_is_listed_with_its_generated_descriptor() {
    let tools = MemoryClient::new(&server()).list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["echo", "find", "forecast", "math.add", "raw"]);
    let echo = &tools[0];
    assert_eq!(echo.description.as_deref(), Some("Echoes the text back."));
    assert_eq!(echo.input_schema["type"], "object");
    assert_eq!(
        echo.input_schema["properties"]["text"]["description"],
        "The text to echo"
    );
    assert_eq!(echo.input_schema["required"], json!(["text"]));
    assert_eq!(
        echo.annotations.as_ref().unwrap().read_only_hint,
        Some(true)
    );
    assert_eq!(
        echo.annotations.as_ref().unwrap().idempotent_hint,
        Some(true)
    );
    let add = &tools[3];
    assert_eq!(add.title.as_deref(), Some("Add"));
    assert_eq!(
        add.output_schema.as_ref().unwrap()["properties"]["sum"]["type"],
        "integer"
    );
    let forecast = &tools[2];
    assert_eq!(
        forecast.input_schema["properties"]["city"]["description"],
        "A city name."
    );
}

#[tokio::test]
async fn a_hand_written_schema_is_sent_verbatim() {
    let tools = MemoryClient::new(&server()).list_tools().await.unwrap();
    let raw = tools.iter().find(|t| t.name == "raw").unwrap();
    assert_eq!(
        serde_json::to_string(&raw.input_schema).unwrap(),
        r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"n":{"type":"integer"}},"properties":{"n":{"$ref":"#/$defs/n"}},"required":["n"],"additionalProperties":false}"##
    );
    let client = MemoryClient::new(&server());
    assert_eq!(
        client
            .call_tool("raw", json!({"n": 4}))
            .await
            .unwrap()
            .content[0],
        ContentBlock::text("4")
    );
    let refused = client.call_tool("raw", json!({"n": "four"})).await.unwrap();
    assert_eq!(refused.is_error, Some(true));
}

#[tokio::test]
async fn arguments_are_decoded_and_passed() {
    let client = MemoryClient::new(&server());
    assert_eq!(
        client
            .call_tool("echo", json!({"text": "hi"}))
            .await
            .unwrap()
            .content[0],
        ContentBlock::text("hi")
    );
    let sum = client
        .call_tool("math.add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(sum.structured_content, Some(json!({"sum": 5})));
    assert_eq!(sum.content[0], ContentBlock::text(r#"{"sum":5}"#));
}

#[tokio::test]
async fn wrong_arguments_are_an_error_result_that_names_the_argument() {
    let client = MemoryClient::new(&server());
    let result = client
        .call_tool("math.add", json!({"a": 2, "b": "three"}))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    let ContentBlock::Text(text) = &result.content[0] else {
        panic!("text")
    };
    assert!(
        text.text.starts_with("Invalid arguments: `b`:"),
        "{}",
        text.text
    );
    let missing = client.call_tool("echo", json!({})).await.unwrap();
    assert_eq!(missing.is_error, Some(true));
}

#[tokio::test]
async fn an_error_returned_by_the_tool_is_an_error_result() {
    let client = MemoryClient::new(&server());
    let ok = client
        .call_tool("forecast", json!({"city": "Paris", "days": 3}))
        .await
        .unwrap();
    assert_eq!(ok.content[0], ContentBlock::text("sunny for 3 days"));
    let failed = client
        .call_tool("forecast", json!({"city": "Atlantis"}))
        .await
        .unwrap();
    assert_eq!(failed.is_error, Some(true));
    assert_eq!(
        failed.content[0],
        ContentBlock::text("no forecast for Atlantis")
    );
}

#[test]
fn each_tool_carries_the_origin_of_its_function() {
    let server = server();
    let echo = server
        .report()
        .members
        .iter()
        .find(|m| m.kind == "tool" && m.name == "echo")
        .unwrap();
    assert_eq!(echo.origin.crate_name, "mcp-macros");
    assert!(
        echo.origin
            .file
            .ends_with("tools_written_with_the_tool_attribute.rs")
    );
    assert!(echo.origin.line > 0);
}

#[tokio::test]
async fn meta_and_icons_given_in_the_attribute_are_listed() {
    let tools = MemoryClient::new(&server()).list_tools().await.unwrap();
    let find = tools.iter().find(|t| t.name == "find").unwrap();
    assert_eq!(find.meta.as_ref().unwrap()["com.example/team"], "search");
    let icons = find.icons.as_ref().unwrap();
    assert_eq!(icons[0].src, "https://example.com/find.png");
    assert_eq!(icons[0].sizes.as_deref(), Some(&["48x48".to_owned()][..]));
}
