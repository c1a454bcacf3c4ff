//! The boot report's JSON is the text's data in the text's order: members
//! grouped by seam word in the taxonomy's order, methods sorted by name.

mod support;

use mcp_server::core::tools::Tool;
use mcp_server::seam::Item;
use mcp_server::seam::SeamWord;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use serde_json::Value;
use support::{origin, with_tools};

struct Describer;
impl HandlerCustomizer<Tool> for Describer {
    fn customize(&self, config: &mut HandlerConfig<Tool>) {
        config.descriptor_mut().description = Some("described".into());
    }
}

fn report() -> mcp_server::server::BootReport {
    // The customizer's crate sorts before the contributor's, so the
    // registration order is not the taxonomy's.
    with_tools(&["echo", "add"])
        .register(
            origin("aaa-docs", 2),
            "Describer",
            0,
            Item::customizer::<Tool>(Describer),
        )
        .build()
        .report()
        .clone()
}

#[test]
fn the_json_parses_and_names_the_server_its_tools_and_their_chains() {
    let json: Value = serde_json::from_str(&report().to_json()).unwrap();
    assert_eq!(json["server"]["name"], "test");
    let call = json["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["method"] == "tools/call")
        .unwrap();
    let targets: Vec<&str> = call["handlers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["target"].as_str().unwrap())
        .collect();
    assert!(targets.contains(&"tool `echo`"), "{targets:?}");
    assert!(targets.contains(&"tool `add`"), "{targets:?}");
}

#[test]
fn members_are_grouped_by_seam_word_as_the_text_lists_them() {
    let report = report();
    let seams: Vec<SeamWord> = report.members.iter().map(|m| m.seam).collect();
    assert!(seams.is_sorted(), "{seams:?}");
    assert!(seams.contains(&SeamWord::Contributor) && seams.contains(&SeamWord::Customizer));

    let text = report.to_string();
    let mut at = 0;
    for member in &report.members {
        let line = format!("  {} `{}`", member.kind, member.name);
        let found = text[at..]
            .find(&line)
            .unwrap_or_else(|| panic!("`{line}` is not listed after byte {at}:\n{text}"));
        at += found + line.len();
    }
}

#[test]
fn methods_are_sorted_by_name_in_both() {
    let report = report();
    let names: Vec<&str> = report.methods.iter().map(|m| m.method.as_str()).collect();
    assert!(names.is_sorted(), "{names:?}");
    let json: Value = serde_json::from_str(&report.to_json()).unwrap();
    let in_json: Vec<&str> = json["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["method"].as_str().unwrap())
        .collect();
    assert_eq!(in_json, names);
}
