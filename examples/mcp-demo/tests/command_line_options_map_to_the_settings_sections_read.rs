//! Each setting option of `mcp-demo` maps to the setting the sections of the
//! linked crates read, by its exact key and value; `--set` reaches any
//! setting; and the settings boot the server, or fail it naming the option.

use clap::Parser;
use mcp_demo::cli::{Cli, Setting};
use mcp_server::config::ServerSection;
use mcp_tasks::config::{StoreKind, TasksSection};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

const KEY: &str = "0123456789abcdef0123456789abcdef-demo";

fn settings(args: &[&str]) -> Vec<Setting> {
    let args = ["mcp-demo", "--stdio"]
        .into_iter()
        .chain(args.iter().copied());
    Cli::try_parse_from(args).unwrap().settings.settings()
}

/// The settings as the tree the sections read.
fn tree(settings: &[Setting]) -> Value {
    let mut tree = Value::Object(Map::new());
    for setting in settings {
        let mut node = &mut tree;
        for part in setting.key.split('.') {
            node = node
                .as_object_mut()
                .unwrap()
                .entry(part)
                .or_insert_with(|| json!({}));
        }
        *node = setting.value.clone();
    }
    tree
}

fn section<T: DeserializeOwned>(settings: &[Setting], key: &str) -> T {
    serde_json::from_value(tree(settings)[key].clone()).unwrap()
}

#[test]
fn no_option_sets_nothing() {
    assert!(settings(&[]).is_empty());
}

#[test]
fn each_named_option_is_one_setting() {
    assert_eq!(
        settings(&["--request-state-key", KEY]),
        [Setting::new(
            "--request-state-key",
            "server.request_state_key",
            json!(KEY)
        )]
    );
    assert_eq!(
        settings(&["--task-store", "sqlite"]),
        [Setting::new("--task-store", "tasks.store", json!("sqlite"))]
    );
    assert_eq!(
        settings(&["--task-store", "memory"]),
        [Setting::new("--task-store", "tasks.store", json!("memory"))]
    );
    assert_eq!(
        settings(&["--task-store-path", "tasks.db"]),
        [Setting::new(
            "--task-store-path",
            "tasks.sqlite_path",
            json!("tasks.db")
        )]
    );
}

#[test]
fn the_task_options_are_the_keys_and_values_of_the_tasks_section() {
    let tasks: TasksSection = section(
        &settings(&["--task-store", "sqlite", "--task-store-path", "/tmp/t.db"]),
        "tasks",
    );
    assert_eq!(tasks.store, StoreKind::Sqlite);
    assert_eq!(tasks.sqlite_path, "/tmp/t.db");
    let tasks: TasksSection = section(&settings(&["--task-store", "memory"]), "tasks");
    assert_eq!(tasks.store, StoreKind::Memory);
}

#[test]
fn the_request_state_key_is_the_secret_of_the_server_section() {
    let server: ServerSection = section(&settings(&["--request-state-key", KEY]), "server");
    assert_eq!(server.request_state_key.unwrap().expose(), KEY);
}

#[test]
fn set_reads_its_value_as_json_when_it_parses_and_as_a_string_otherwise() {
    let values: Vec<Value> = settings(&[
        "--set",
        "tasks.ttl_ms=60000",
        "--set",
        "a.flag=true",
        "--set",
        "a.list=[\"x\",\"y\"]",
        "--set",
        "a.object={\"k\":1}",
        "--set",
        "oauth.resource=https://mcp.example.com",
        "--set",
        "server.instructions=keep a=b",
        "--set",
        "a.quoted=\"42\"",
        "--set",
        "a.empty=",
    ])
    .into_iter()
    .map(|s| s.value)
    .collect();
    assert_eq!(
        values,
        [
            json!(60000),
            json!(true),
            json!(["x", "y"]),
            json!({"k": 1}),
            json!("https://mcp.example.com"),
            json!("keep a=b"),
            json!("42"),
            json!(""),
        ]
    );
}

#[test]
fn set_names_itself_with_the_key_and_never_the_value() {
    assert_eq!(
        settings(&["--set", "server.request_state_key=hunter2"]),
        [Setting::new(
            "--set server.request_state_key",
            "server.request_state_key",
            json!("hunter2")
        )]
    );
}

#[test]
fn named_options_come_first_and_each_set_in_its_order_so_the_last_wins() {
    let keys: Vec<(String, Value)> = settings(&[
        "--set",
        "tasks.store=sqlite",
        "--task-store",
        "memory",
        "--set",
        "tasks.store=memory",
    ])
    .into_iter()
    .map(|s| (s.option, s.value))
    .collect();
    assert_eq!(
        keys,
        [
            ("--task-store".to_owned(), json!("memory")),
            ("--set tasks.store".to_owned(), json!("sqlite")),
            ("--set tasks.store".to_owned(), json!("memory")),
        ]
    );
}

#[test]
fn the_settings_boot_the_demo_server() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tasks.db");
    let server = mcp_demo::server_with(&settings(&[
        "--request-state-key",
        KEY,
        "--task-store",
        "sqlite",
        "--task-store-path",
        path.to_str().unwrap(),
        "--set",
        "tasks.ttl_ms=60000",
    ]))
    .unwrap();
    let report = server.report();
    let winner = |seam: &str| {
        report
            .selections
            .iter()
            .find(|s| s.seam == seam)
            .map(|s| s.winner.clone())
            .unwrap()
    };
    assert_eq!(winner("TaskStore"), "SqliteTaskStore");
    assert_eq!(winner("KeyStrategy"), "ConfiguredKeys");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert!(path.exists());
}

#[test]
fn a_setting_no_linked_crate_reads_fails_boot_naming_its_option() {
    let errors = mcp_demo::server_with(&settings(&["--set", "weather.units=metric"])).unwrap_err();
    let message = errors.to_string();
    assert!(
        message.contains("error[mcp::unknown_setting]: setting `weather` is not known"),
        "{message}"
    );
    assert!(
        message.contains("= note: set on the command line by `--set weather.units`"),
        "{message}"
    );
}
