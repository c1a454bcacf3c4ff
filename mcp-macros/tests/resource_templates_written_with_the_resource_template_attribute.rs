//! Resource templates written with `#[resource_template]` register at link
//! time and read their parameters from the URI's template variables.

use mcp_server::testing::MemoryClient;
use mcp_server::{RequestContext, Server, resource_template};
use serde_json::json;

/// The forecast for a city, some days ahead.
#[resource_template(
    uri_template = "weather://{city}/forecast/{days}",
    name = "forecast",
    mime_type = "text/plain"
)]
async fn forecast(city: String, days: u8, ctx: RequestContext) -> String {
    let _ = ctx.method();
    format!("{city}: sunny for {days} days")
}

/// Any file, as bytes.
#[resource_template(uri_template = "file:///{+path}", title = "Files")]
async fn file(path: String) -> Result<Vec<u8>, String> {
    if path.starts_with("secret/") {
        return Err(format!("`{path}` is secret"));
    }
    Ok(path.into_bytes())
}

fn server() -> Server {
    Server::builder().named("templates", "1.0.0").build()
}

#[tokio::test]
async fn every_template_is_listed_with_its_descriptor() {
    let client = MemoryClient::new(&server());
    let listed = client
        .request_raw("resources/templates/list", json!({}))
        .await
        .unwrap();
    let templates = listed["resourceTemplates"].as_array().unwrap();
    assert_eq!(templates.len(), 2);
    let forecast = templates.iter().find(|t| t["name"] == "forecast").unwrap();
    assert_eq!(forecast["uriTemplate"], "weather://{city}/forecast/{days}");
    assert_eq!(forecast["mimeType"], "text/plain");
    assert_eq!(
        forecast["description"],
        "The forecast for a city, some days ahead."
    );
    let file = templates.iter().find(|t| t["name"] == "file").unwrap();
    assert_eq!(file["title"], "Files");
}

#[tokio::test]
async fn variables_are_parsed_into_the_parameters() {
    let client = MemoryClient::new(&server());
    let read = client
        .request_raw(
            "resources/read",
            json!({"uri": "weather://paris/forecast/3"}),
        )
        .await
        .unwrap();
    assert_eq!(
        read["contents"],
        json!([{"uri": "weather://paris/forecast/3", "mimeType": "text/plain", "text": "paris: sunny for 3 days"}])
    );
    let file = client
        .request_raw("resources/read", json!({"uri": "file:///src/lib.rs"}))
        .await
        .unwrap();
    assert_eq!(
        file["contents"],
        json!([{"uri": "file:///src/lib.rs", "blob": "c3JjL2xpYi5ycw=="}])
    );
}

#[tokio::test]
async fn a_variable_that_does_not_parse_is_invalid_params_naming_it() {
    let client = MemoryClient::new(&server());
    let error = client
        .request_raw(
            "resources/read",
            json!({"uri": "weather://paris/forecast/many"}),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32602);
    assert!(error.message.contains("`days`"), "{}", error.message);
}

#[tokio::test]
async fn an_error_returned_by_the_template_is_a_json_rpc_error() {
    let client = MemoryClient::new(&server());
    let error = client
        .request_raw("resources/read", json!({"uri": "file:///secret/key"}))
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32603);
    assert_eq!(error.message, "`secret/key` is secret");
}
