//! The skills of a directory on disk (`skills.dir`): read at boot, where a
//! problem fails boot, and reloaded through the runtime catalog when a
//! file changes: a new digest, a new skill, a removed one; a change that
//! breaks a skill is refused and the skills stay as they were.

use std::path::Path;
use std::time::{Duration, Instant};

use mcp_server::Server;
use mcp_server::core::json::JsonValue;
use mcp_server::testing::MemoryClient;
use serde_json::json;
// Linking the crate activates it: nothing else of it is named here.
use mcp_skills as _;

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n")
}

fn server(dir: &Path) -> Result<Server, String> {
    Server::builder()
        .named("test", "1.0.0")
        .setting("skills.dir", dir.to_string_lossy())
        .setting("skills.poll_ms", 20)
        .try_build()
        .map_err(|e| e.to_string())
}

async fn listed(client: &MemoryClient) -> Vec<JsonValue> {
    let page = client.request_raw("skills/list", json!({})).await.unwrap();
    page["skills"].as_array().unwrap().clone()
}

/// Waits until the skills `client` lists satisfy `done`; the watcher
/// polls every 20 ms, so a minute is far more than it needs.
async fn until(client: &MemoryClient, done: impl Fn(&[JsonValue]) -> bool) -> Vec<JsonValue> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let skills = listed(client).await;
        if done(&skills) {
            return skills;
        }
        assert!(
            Instant::now() < deadline,
            "the directory was not reloaded: {skills:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_changed_file_a_new_skill_and_a_removed_one_are_served_once_the_directory_changes() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "triage/SKILL.md",
        &skill_md("triage", "Sort incoming tickets"),
    );
    write(dir.path(), "triage/rules.md", "Urgent first.");
    let server = server(dir.path()).unwrap();
    let client = MemoryClient::new(&server);
    let before = listed(&client).await;
    assert_eq!(before.len(), 1);
    let rules = client
        .request_raw("resources/read", json!({"uri": "skill://triage/rules.md"}))
        .await
        .unwrap();
    assert_eq!(rules["contents"][0]["text"], "Urgent first.");

    write(dir.path(), "triage/rules.md", "Urgent first, then oldest.");
    write(
        dir.path(),
        "escalate/SKILL.md",
        &skill_md("escalate", "Hand a ticket to a human"),
    );
    let after = until(&client, |skills| skills.len() == 2).await;
    assert_ne!(
        after[1]["resources"], before[0]["resources"],
        "the digest of rules.md changed"
    );
    let rules = client
        .request_raw("resources/read", json!({"uri": "skill://triage/rules.md"}))
        .await
        .unwrap();
    assert_eq!(rules["contents"][0]["text"], "Urgent first, then oldest.");
    assert!(
        server.catalog().version() > 1,
        "boot's load, then the reloads"
    );

    std::fs::remove_dir_all(dir.path().join("escalate")).unwrap();
    until(&client, |skills| skills.len() == 1).await;
    let gone = client
        .request_raw(
            "resources/read",
            json!({"uri": "skill://escalate/SKILL.md"}),
        )
        .await
        .unwrap_err();
    assert_eq!(gone.code.0, -32602);
}

#[tokio::test]
async fn a_change_that_breaks_a_skill_is_refused_and_what_was_served_stays() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "triage/SKILL.md",
        &skill_md("triage", "Sort incoming tickets"),
    );
    let server = server(dir.path()).unwrap();
    let client = MemoryClient::new(&server);
    let before = listed(&client).await;
    let loaded = server.catalog().version();
    write(dir.path(), "triage/SKILL.md", "no frontmatter any more");
    // A later good change shows the watcher looked at the broken one first.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        listed(&client).await,
        before,
        "the broken SKILL.md is not served"
    );
    let read = client
        .request_raw("resources/read", json!({"uri": "skill://triage/SKILL.md"}))
        .await
        .unwrap();
    assert!(
        read["contents"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("---\nname: triage")
    );
    assert_eq!(server.catalog().version(), loaded, "nothing was applied");
    write(
        dir.path(),
        "triage/SKILL.md",
        &skill_md("triage", "Sort tickets by urgency"),
    );
    until(&client, |skills| {
        skills[0]["frontmatter"]["description"] == "Sort tickets by urgency"
    })
    .await;
}

#[test]
fn a_directory_with_broken_skills_fails_boot_naming_each() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "triage/SKILL.md",
        &skill_md("sorting", "Sort incoming tickets"),
    );
    write(
        dir.path(),
        "Escalate/SKILL.md",
        &skill_md("Escalate", "Hand a ticket to a human"),
    );
    let errors = server(dir.path()).unwrap_err();
    assert!(
        errors.contains("error[mcp_skills::bad_name]: skill `Escalate`"),
        "{errors}"
    );
    assert!(
        errors.contains("error[mcp_skills::name_mismatch]: skill `triage`: its name `sorting` differs from its directory `triage`"),
        "{errors}"
    );
    assert!(errors.contains("(skills.dir)"), "{errors}");
    assert!(
        errors.ends_with("error: boot failed because of 2 previous errors"),
        "{errors}"
    );
}

#[test]
fn a_directory_that_cannot_be_read_fails_boot() {
    let dir = tempfile::tempdir().unwrap();
    let errors = server(&dir.path().join("missing")).unwrap_err();
    assert!(
        errors.contains("error[mcp_skills::unreadable_dir]"),
        "{errors}"
    );
}

#[tokio::test]
async fn a_server_whose_only_skills_are_on_disk_declares_resources() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).unwrap();
    let capabilities = serde_json::to_value(server.capabilities()).unwrap();
    assert!(capabilities["resources"].is_object(), "{capabilities}");
    let client = MemoryClient::new(&server);
    assert!(listed(&client).await.is_empty());
    write(
        dir.path(),
        "triage/SKILL.md",
        &skill_md("triage", "Sort incoming tickets"),
    );
    until(&client, |skills| skills.len() == 1).await;
}

#[tokio::test]
async fn a_skill_on_disk_that_takes_a_resource_served_elsewhere_is_refused_and_nothing_parts() {
    use mcp_server::core::resources::Resource;
    use mcp_server::handler::resource::read_handler;
    use mcp_server::seam::contributor::contributor_fn;

    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "triage/SKILL.md",
        &skill_md("triage", "Sort incoming tickets"),
    );
    let server = Server::builder()
        .named("test", "1.0.0")
        .setting("skills.dir", dir.path().to_string_lossy())
        .setting("skills.poll_ms", 20)
        .contributor(
            mcp_server::origin!(),
            "app",
            contributor_fn(|into| {
                let readme = Resource {
                    uri: "skill://notes/readme.md".into(),
                    name: "readme".into(),
                    ..Resource::default()
                };
                into.resource(
                    readme,
                    read_handler(None, |_, _| async { Ok(String::from("the app's own")) }),
                );
            }),
        )
        .build();
    let client = MemoryClient::new(&server);
    let loaded = server.catalog().version();
    write(
        dir.path(),
        "notes/SKILL.md",
        &skill_md("notes", "Keep notes"),
    );
    write(dir.path(), "notes/readme.md", "the directory's");
    let refused = server
        .catalog()
        .reload("mcp-skills:dir")
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("error[mcp_skills::duplicate_file]: the file `skill://notes/readme.md` is served by the server already"),
        "{refused}"
    );
    assert_eq!(server.catalog().version(), loaded);
    assert_eq!(
        listed(&client).await.len(),
        1,
        "skills/list still answers what the catalog serves"
    );
    let readme = client
        .request_raw("resources/read", json!({"uri": "skill://notes/readme.md"}))
        .await
        .unwrap();
    assert_eq!(readme["contents"][0]["text"], "the app's own");
}
