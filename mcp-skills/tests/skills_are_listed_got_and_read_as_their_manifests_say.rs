//! The skills of a directory carried in the binary and of code: listed by
//! `skills/list`, fetched by `skills/get`, every file read by
//! `resources/read` with the bytes its manifest digests, and directories
//! read by `resources/directory/read`, in both eras.

use std::collections::BTreeSet;
use std::path::Path;

use base64::Engine;
use mcp_server::Server;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonValue;
use mcp_server::handler::resource::read_handler;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::testing::MemoryClient;
use mcp_skills::{ContributeSkills, Skill};
use serde_json::json;
use sha2::{Digest, Sha256};

mcp_skills::embed!("tests/skills");

/// The fixture directory `embed!` carries.
const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/skills");

fn server_with_page_size(page_size: usize) -> Server {
    Server::builder()
        .named("test", "1.0.0")
        .setting("skills.page_size", page_size)
        .contributor(
            mcp_server::origin!(),
            "made",
            contributor_fn(|into| {
                into.skill(
                    Skill::new(
                        "ops/daily",
                        "---\nname: daily\ndescription: Assemble today's report from live data\n---\nRead `today.md`.\n",
                    )
                    .made(
                        "today.md",
                        "text/markdown",
                        read_handler(None, |_, _| async { Ok(String::from("# Today\nAll quiet.")) }),
                    ),
                );
            }),
        )
        .build()
}

fn server() -> Server {
    server_with_page_size(100)
}

async fn ask(client: &MemoryClient, method: &str, params: JsonValue) -> JsonValue {
    client
        .request_raw(method, params)
        .await
        .unwrap_or_else(|e| panic!("{method} {e:?}"))
}

/// Every skill, following `nextCursor` to the end.
async fn every_skill(client: &MemoryClient) -> (Vec<JsonValue>, usize) {
    let (mut skills, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
    loop {
        let params = cursor.map_or_else(|| json!({}), |c| json!({"cursor": c}));
        let page = ask(client, "skills/list", params).await;
        pages += 1;
        skills.extend(page["skills"].as_array().unwrap().iter().cloned());
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return (skills, pages),
        }
    }
}

/// The bytes `resources/read` serves at `uri`.
async fn bytes_of(client: &MemoryClient, uri: &str) -> Vec<u8> {
    let read = ask(client, "resources/read", json!({"uri": uri})).await;
    let contents = &read["contents"][0];
    assert_eq!(contents["uri"], uri);
    match (contents["text"].as_str(), contents["blob"].as_str()) {
        (Some(text), None) => text.as_bytes().to_vec(),
        (None, Some(blob)) => base64::engine::general_purpose::STANDARD
            .decode(blob)
            .unwrap(),
        _ => panic!("{uri}: neither text nor blob in {read}"),
    }
}

fn sha256(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// Every file below `dir` of the fixture, as `skill://` URIs.
fn files_below(dir: &str) -> BTreeSet<String> {
    fn walk(root: &Path, at: &Path, into: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, into);
            } else {
                let relative = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                into.insert(format!("skill://{relative}"));
            }
        }
    }
    let root = Path::new(FIXTURE);
    let mut files = BTreeSet::new();
    walk(root, &root.join(dir), &mut files);
    files
}

#[tokio::test]
async fn every_file_of_every_listed_skill_reads_as_its_digest_and_size_say_and_is_listed_once() {
    let server = server();
    let client = MemoryClient::new(&server);
    let (skills, _) = every_skill(&client).await;
    let uris: Vec<&str> = skills.iter().map(|s| s["uri"].as_str().unwrap()).collect();
    assert_eq!(
        uris,
        [
            "skill://glossary/SKILL.md",
            "skill://ops/daily/SKILL.md",
            "skill://sales/report/SKILL.md",
            "skill://sales/report/drafts/follow-up/SKILL.md",
        ]
    );
    let mut read = 0;
    for skill in &skills {
        let uri = skill["uri"].as_str().unwrap();
        let Some(files) = skill["resources"].as_array() else {
            assert_eq!(skill["resources"], "dynamic", "{uri}");
            continue;
        };
        let listed: Vec<&str> = files.iter().map(|f| f["uri"].as_str().unwrap()).collect();
        let once: BTreeSet<&str> = listed.iter().copied().collect();
        assert_eq!(once.len(), listed.len(), "{uri}: a file is listed twice");
        assert!(
            once.contains(uri),
            "{uri}: its SKILL.md is not in its manifest"
        );
        let dir = uri
            .strip_prefix("skill://")
            .unwrap()
            .strip_suffix("/SKILL.md")
            .unwrap();
        let expected = files_below(dir);
        assert_eq!(
            once,
            expected.iter().map(String::as_str).collect(),
            "{uri}: the manifest is not complete"
        );
        for file in files {
            let file_uri = file["uri"].as_str().unwrap();
            let bytes = bytes_of(&client, file_uri).await;
            assert_eq!(file["digest"], sha256(&bytes), "{file_uri}");
            assert_eq!(file["size"], bytes.len(), "{file_uri}");
            let on_disk =
                std::fs::read(Path::new(FIXTURE).join(file_uri.strip_prefix("skill://").unwrap()))
                    .unwrap();
            assert_eq!(bytes, on_disk, "{file_uri}: not the bytes of the file");
            read += 1;
        }
    }
    // glossary 1, report 5 (the nested SKILL.md among them), follow-up 1;
    // the PNG is read as a blob.
    assert_eq!(read, 1 + 5 + 1);
}

#[tokio::test]
async fn an_entry_carries_the_frontmatter_as_written_and_a_nested_skill_is_an_entry_of_its_own() {
    let server = server();
    let client = MemoryClient::new(&server);
    let got = ask(
        &client,
        "skills/get",
        json!({"uri": "skill://sales/report/SKILL.md"}),
    )
    .await;
    assert_eq!(got["resultType"], "complete");
    assert_eq!(
        got["skill"]["frontmatter"],
        json!({
            "name": "report",
            "description": "Build the weekly sales report from the regional figures",
            "license": "Apache-2.0",
            "metadata": {"author": "sales-ops", "version": "1.2"},
            "allowed-tools": "sales_by_region",
        })
    );
    let nested = ask(
        &client,
        "skills/get",
        json!({"uri": "skill://sales/report/drafts/follow-up/SKILL.md"}),
    )
    .await;
    assert_eq!(nested["skill"]["frontmatter"]["name"], "follow-up");
    let inside: Vec<&str> = nested["skill"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["uri"].as_str().unwrap())
        .collect();
    assert_eq!(inside, ["skill://sales/report/drafts/follow-up/SKILL.md"]);
    let (listed, _) = every_skill(&client).await;
    let from_list = listed
        .iter()
        .find(|s| s["uri"] == "skill://sales/report/SKILL.md")
        .unwrap();
    assert_eq!(
        from_list, &got["skill"],
        "skills/list and skills/get give one entry"
    );
}

#[tokio::test]
async fn skills_get_of_a_uri_that_is_no_skill_is_invalid_params() {
    let server = server();
    let client = MemoryClient::new(&server);
    for uri in [
        "skill://sales/chargebacks/SKILL.md",
        "skill://sales/report/references/regions.md",
        "skill://sales/report",
    ] {
        let error: ErrorObject = client
            .request_raw("skills/get", json!({"uri": uri}))
            .await
            .unwrap_err();
        assert_eq!(error.code.0, -32602, "{uri}");
        assert_eq!(error.message, format!("Unknown skill: {uri}"));
    }
}

#[tokio::test]
async fn a_skill_made_per_read_is_dynamic_and_its_file_is_made_at_each_read() {
    let server = server();
    let client = MemoryClient::new(&server);
    let got = ask(
        &client,
        "skills/get",
        json!({"uri": "skill://ops/daily/SKILL.md"}),
    )
    .await;
    assert_eq!(got["skill"]["resources"], "dynamic");
    let today = ask(
        &client,
        "resources/read",
        json!({"uri": "skill://ops/daily/today.md"}),
    )
    .await;
    assert_eq!(today["contents"][0]["text"], "# Today\nAll quiet.");
}

#[tokio::test]
async fn only_skill_md_files_are_in_resources_list_named_described_and_marked_down() {
    let server = server();
    let client = MemoryClient::new(&server);
    let listed = ask(&client, "resources/list", json!({})).await;
    let resources = listed["resources"].as_array().unwrap();
    let uris: Vec<&str> = resources
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "skill://glossary/SKILL.md",
            "skill://ops/daily/SKILL.md",
            "skill://sales/report/SKILL.md",
            "skill://sales/report/drafts/follow-up/SKILL.md",
        ]
    );
    let report = &resources[2];
    assert_eq!(report["name"], "report");
    assert_eq!(
        report["description"],
        "Build the weekly sales report from the regional figures"
    );
    assert_eq!(report["mimeType"], "text/markdown");
    assert_eq!(
        report["_meta"]["io.modelcontextprotocol.skills/license"],
        "Apache-2.0"
    );
    assert_eq!(
        report["_meta"]["io.modelcontextprotocol.skills/metadata"]["author"],
        "sales-ops"
    );
    assert!(
        report["_meta"]
            .get("io.modelcontextprotocol.skills/name")
            .is_none()
    );
}

#[tokio::test]
async fn a_directory_lists_its_direct_children_and_a_file_or_unknown_uri_is_invalid_params() {
    let server = server();
    let client = MemoryClient::new(&server);
    let root = ask(
        &client,
        "resources/directory/read",
        json!({"uri": "skill://sales/report"}),
    )
    .await;
    let children: Vec<(&str, &str)> = root["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["uri"].as_str().unwrap(), r["mimeType"].as_str().unwrap()))
        .collect();
    assert_eq!(
        children,
        [
            ("skill://sales/report/SKILL.md", "text/markdown"),
            ("skill://sales/report/drafts", "inode/directory"),
            ("skill://sales/report/references", "inode/directory"),
            ("skill://sales/report/scripts", "inode/directory"),
        ]
    );
    let references = ask(
        &client,
        "resources/directory/read",
        json!({"uri": "skill://sales/report/references"}),
    )
    .await;
    let names: Vec<&str> = references["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["logo.png", "regions.md"]);
    assert_eq!(references["resources"][0]["mimeType"], "image/png");
    for uri in [
        "skill://sales/report/SKILL.md",
        "skill://sales/nothing",
        "skill://sales",
    ] {
        let error = client
            .request_raw("resources/directory/read", json!({"uri": uri}))
            .await
            .unwrap_err();
        assert_eq!(error.code.0, -32602, "{uri}");
    }
}

#[tokio::test]
async fn pages_hold_whole_entries_and_a_cursor_from_another_listing_is_refused() {
    let server = server_with_page_size(1);
    let client = MemoryClient::new(&server);
    let (skills, pages) = every_skill(&client).await;
    assert_eq!((skills.len(), pages), (4, 4));
    let first = ask(
        &client,
        "resources/directory/read",
        json!({"uri": "skill://sales/report"}),
    )
    .await;
    assert_eq!(first["resources"].as_array().unwrap().len(), 1);
    assert!(first["nextCursor"].is_string());
    let error = client
        .request_raw("skills/list", json!({"cursor": "not-a-cursor"}))
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32602);
}

#[tokio::test]
async fn the_capability_is_declared_with_resources_and_answers_carry_their_cache_in_2026_07_28_only()
 {
    let server = server();
    let modern = MemoryClient::new(&server);
    let discovered = ask(&modern, "server/discover", json!({})).await;
    let capabilities = &discovered["capabilities"];
    assert_eq!(
        capabilities["extensions"]["io.modelcontextprotocol/skills"],
        json!({"directoryRead": true})
    );
    assert!(capabilities["resources"].is_object());
    let listed = ask(&modern, "skills/list", json!({})).await;
    assert_eq!(
        (listed["ttlMs"].clone(), listed["cacheScope"].clone()),
        (json!(300_000), json!("private"))
    );
    let got = ask(
        &modern,
        "skills/get",
        json!({"uri": "skill://glossary/SKILL.md"}),
    )
    .await;
    assert_eq!(got["cacheScope"], "private");
    assert!(got.get("nextCursor").is_none());

    let legacy = MemoryClient::new(&server).connected();
    let initialized = legacy.initialize("2025-11-25").await.unwrap();
    assert_eq!(
        initialized["capabilities"]["extensions"]["io.modelcontextprotocol/skills"]["directoryRead"],
        true
    );
    let listed = ask(&legacy, "skills/list", json!({})).await;
    assert_eq!(listed["skills"].as_array().unwrap().len(), 4);
    assert!(listed.get("ttlMs").is_none() && listed.get("cacheScope").is_none());
}
