//! Completions written with `#[completion]` register at link time for one
//! prompt argument or template variable, and send at most 100 values.

use mcp_server::testing::MemoryClient;
use mcp_server::{RequestContext, Server, completion, prompt, resource_template};
use serde_json::{Value, json};

/// Plans a trip.
#[prompt]
async fn trip(city: String, language: String) -> String {
    format!("Plan a trip to {city} in {language}")
}

#[completion(prompt = "trip", argument = "city")]
async fn cities(value: String) -> Vec<String> {
    ["Paris", "Prague", "Porto", "Oslo"]
        .into_iter()
        .filter(|c| c.starts_with(&value))
        .map(String::from)
        .collect()
}

#[completion(prompt = "trip", argument = "language")]
async fn languages(value: String, ctx: RequestContext) -> Vec<String> {
    let _ = ctx.method();
    ["French", "Czech"]
        .into_iter()
        .filter(|l| l.starts_with(&value))
        .map(String::from)
        .collect()
}

/// Numbered pages.
#[resource_template(uri_template = "book://page/{n}")]
async fn page(n: u32) -> String {
    format!("page {n}")
}

#[completion(resource_template = "book://page/{n}", variable = "n")]
async fn pages(value: String) -> Result<Vec<String>, String> {
    if value == "x" {
        return Err("pages are numbers".into());
    }
    Ok((1..=250)
        .map(|n| n.to_string())
        .filter(|n| n.starts_with(&value))
        .collect())
}

fn server() -> Server {
    Server::builder().named("completions", "1.0.0").build()
}

async fn complete(reference: Value, name: &str, value: &str) -> Result<Value, i64> {
    MemoryClient::new(&server())
        .request_raw(
            "completion/complete",
            json!({"ref": reference, "argument": {"name": name, "value": value}}),
        )
        .await
        .map(|result| result["completion"].clone())
        .map_err(|e| e.code.0)
}

#[tokio::test]
async fn each_prompt_argument_is_completed_by_its_own_function() {
    let trip = json!({"type": "ref/prompt", "name": "trip"});
    assert_eq!(
        complete(trip.clone(), "city", "P").await.unwrap(),
        json!({"values": ["Paris", "Prague", "Porto"], "total": 3, "hasMore": false})
    );
    assert_eq!(
        complete(trip.clone(), "language", "C").await.unwrap()["values"],
        json!(["Czech"])
    );
    assert_eq!(
        complete(trip, "date", "2").await.unwrap()["values"],
        json!([])
    );
}

#[tokio::test]
async fn at_most_one_hundred_values_are_sent_with_the_total() {
    let page = json!({"type": "ref/resource", "uri": "book://page/{n}"});
    let all = complete(page.clone(), "n", "").await.unwrap();
    assert_eq!(all["values"].as_array().unwrap().len(), 100);
    assert_eq!(all["values"][0], "1");
    assert_eq!(all["total"], 250);
    assert_eq!(all["hasMore"], true);
    let few = complete(page, "n", "24").await.unwrap();
    assert_eq!(
        few,
        json!({"values": ["24", "240", "241", "242", "243", "244", "245", "246", "247", "248", "249"], "total": 11, "hasMore": false})
    );
}

#[tokio::test]
async fn an_error_returned_by_the_completion_is_a_json_rpc_error() {
    let page = json!({"type": "ref/resource", "uri": "book://page/{n}"});
    assert_eq!(complete(page, "n", "x").await.unwrap_err(), -32603);
}

#[test]
fn each_completion_is_reported_with_what_it_completes() {
    let server = server();
    let names: Vec<&str> = server
        .report()
        .members
        .iter()
        .filter(|m| m.kind == "completion")
        .map(|m| m.name.as_str())
        .collect();
    assert!(
        names.contains(&"prompt `trip` argument `city`"),
        "{names:?}"
    );
    assert!(
        names.contains(&"resource template `book://page/{n}` variable `n`"),
        "{names:?}"
    );
}
