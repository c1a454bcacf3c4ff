//! The demo carries one skill, `skill://sales-report`, embedded at compile
//! time: it is listed and fetched, and it names a tool and a View the demo
//! really serves.

use mcp_server::testing::MemoryClient;
use serde_json::json;

const SKILL: &str = "skill://sales-report/SKILL.md";

#[tokio::test]
async fn the_sales_report_skill_is_listed_fetched_and_names_what_the_demo_serves() {
    let client = MemoryClient::new(&mcp_demo::server());
    let listed = client.request_raw("skills/list", json!({})).await.unwrap();
    let uris: Vec<&str> = listed["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris, [SKILL]);
    let got = client
        .request_raw("skills/get", json!({"uri": SKILL}))
        .await
        .unwrap();
    assert_eq!(got["skill"]["frontmatter"]["name"], "sales-report");
    assert_eq!(got["skill"]["resources"].as_array().unwrap().len(), 3);

    let read = client
        .request_raw("resources/read", json!({"uri": SKILL}))
        .await
        .unwrap();
    let text = read["contents"][0]["text"].as_str().unwrap();
    let tools = client.list_tools().await.unwrap();
    assert!(
        text.contains("`sales_by_region`") && tools.iter().any(|t| t.name == "sales_by_region")
    );
    let view = client
        .request_raw(
            "resources/read",
            json!({"uri": "ui://mcp-demo/sales-chart"}),
        )
        .await
        .unwrap();
    assert!(
        text.contains("`ui://mcp-demo/sales-chart`") && view["contents"][0]["text"].is_string()
    );
    for file in ["references/regions.md", "templates/summary.md"] {
        assert!(text.contains(&format!("`{file}`")), "SKILL.md names {file}");
        client
            .request_raw(
                "resources/read",
                json!({"uri": format!("skill://sales-report/{file}")}),
            )
            .await
            .unwrap();
    }
}
