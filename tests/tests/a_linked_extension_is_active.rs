//! Linking an extension crate activates it: its registrations are collected
//! at boot with no other line of code.

use mcp_server::Server;
use mcp_server::boot::BootError;
use mcp_server::testing::MemoryClient;
use weather_ext as _;

#[tokio::test]
async fn the_linked_extension_contributes_its_tools() {
    let server = Server::builder().expect_extension("weather-ext").build();
    let names: Vec<String> = MemoryClient::new(&server)
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, ["echo", "forecast"]);
    let result = MemoryClient::new(&server)
        .call_tool("forecast", serde_json::json!({}))
        .await
        .unwrap();
    assert_eq!(
        result.content[0],
        mcp_server::core::content::ContentBlock::text("weather-ext forecast")
    );
}

#[test]
fn the_boot_report_names_the_extension_and_its_contributions() {
    let server = Server::builder().build();
    let report = server.report();
    let tool = report
        .members
        .iter()
        .find(|m| m.kind == "tool" && m.name == "forecast")
        .unwrap();
    assert_eq!(
        (tool.origin.crate_name, tool.origin.crate_version),
        ("weather-ext", "0.3.1")
    );
    assert_eq!(tool.origin.module, "weather_ext");
    assert!(
        tool.origin.file.ends_with("weather-ext/src/lib.rs"),
        "{}",
        tool.origin.file
    );
    assert!(
        report
            .members
            .iter()
            .any(|m| m.seam == mcp_server::seam::SeamWord::Extension
                && m.origin.crate_name == "weather-ext")
    );
}

#[test]
fn an_expected_extension_that_is_not_linked_fails_boot_with_the_use_to_add() {
    // shell-ext is a dependency of this test crate, but nothing names it.
    let errors = Server::builder()
        .expect_extension("shell-ext")
        .try_build()
        .unwrap_err();
    assert_eq!(
        errors.errors(),
        [BootError::MissingExtension {
            name: "shell-ext".into()
        }]
    );
    assert!(
        errors
            .to_string()
            .contains("= help: add `use shell_ext as _;` to the crate root")
    );
}
