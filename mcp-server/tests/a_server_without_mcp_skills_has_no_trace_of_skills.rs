//! Linking activates: this test binary does not link `mcp-skills`, so the
//! server declares no skills extension, serves none of its methods, and
//! serves a `skill://` resource as any other, unchecked.

use mcp_server::Server;
use mcp_server::core::resources::Resource;
use mcp_server::handler::resource::read_handler;
use mcp_server::seam::Origin;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::testing::MemoryClient;
use serde_json::json;

#[tokio::test]
async fn without_the_extension_linked_nothing_of_skills_is_served_or_checked() {
    // With `mcp-skills` linked, this SKILL.md would be no skill: it has no
    // frontmatter. Here it is a resource like any other.
    let server = Server::builder()
        .named("test", "1.0.0")
        .contributor(
            Origin::FRAMEWORK,
            "app",
            contributor_fn(|into| {
                let resource = Resource {
                    uri: "skill://plain/SKILL.md".into(),
                    name: "SKILL.md".into(),
                    ..Resource::default()
                };
                into.resource(
                    resource,
                    read_handler(Some("text/markdown"), |_, _| async {
                        Ok(String::from("no frontmatter"))
                    }),
                );
            }),
        )
        .build();
    let client = MemoryClient::new(&server);
    let discovered = client
        .request_raw("server/discover", json!({}))
        .await
        .unwrap();
    assert!(
        discovered["capabilities"]
            .get("extensions")
            .is_none_or(|e| e.get("io.modelcontextprotocol/skills").is_none()),
        "{discovered}"
    );
    for method in ["skills/list", "skills/get", "resources/directory/read"] {
        let error = client
            .request_raw(method, json!({"uri": "skill://plain/SKILL.md"}))
            .await
            .unwrap_err();
        assert_eq!(error.code.0, -32601, "{method}");
    }
    let listed = client
        .request_raw("resources/list", json!({}))
        .await
        .unwrap();
    assert_eq!(listed["resources"][0]["uri"], "skill://plain/SKILL.md");
    assert!(listed["resources"][0].get("_meta").is_none());
    let report = server.report().to_string();
    assert!(!report.contains("skills"), "{report}");
}
