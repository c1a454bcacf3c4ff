//! The `mcp-demo` binary boots with its command line's settings: it prints
//! the boot report as text or JSON and exits 0, or prints the boot
//! diagnostics on stderr and exits 1, coloured only where colour is asked
//! for (stderr is piped here, as under CI).

use std::process::{Command, Output};

use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_mcp-demo");
const ESCAPE: char = '\u{1b}';
const KEY: &str = "0123456789abcdef0123456789abcdef-demo";

/// `mcp-demo` with `args`, `env` set and no colour asked for by the
/// environment the tests run in.
fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(BINARY);
    command
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .env_remove("MCP_REQUEST_STATE_KEY")
        .env_remove("MCP_TASKS__STORE")
        .env_remove("MCP_SERVER__REQUEST_STATE_KEY");
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

#[test]
fn the_text_report_lists_the_demo_s_tools_and_exits_zero() {
    let output = run(&["--boot-report"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = stdout(&output);
    assert!(report.starts_with("boot report for mcp-demo "), "{report}");
    for tool in ["test_simple_text", "greet", "sales_by_region"] {
        assert!(report.contains(&format!("tool `{tool}`")), "{tool}");
    }
    assert!(
        report.contains("warning: no `server.request_state_key` is set"),
        "{report}"
    );
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));
    assert_eq!(run(&["--boot-report", "text"], &[]).stdout, output.stdout);
}

#[test]
fn the_json_report_parses_and_names_the_demo_s_tools() {
    let output = run(&["--boot-report", "json"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["server"]["name"], "mcp-demo");
    let call = report["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["method"] == "tools/call")
        .unwrap();
    let tools: Vec<&str> = call["handlers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| h["target"].as_str()?.strip_prefix("tool `"))
        .collect();
    assert_eq!(tools.len(), 42, "{tools:?}");
    for tool in ["test_simple_text`", "greet`", "json_schema_2020_12_tool`"] {
        assert!(tools.contains(&tool), "{tool}: {tools:?}");
    }
}

#[test]
fn the_report_shows_what_the_setting_options_chose() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tasks.db");
    let output = run(
        &[
            "--boot-report=json",
            "--task-store",
            "sqlite",
            "--task-store-path",
            path.to_str().unwrap(),
            "--request-state-key",
            KEY,
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!stdout(&output).contains(KEY));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let winner = |seam: &str| {
        report["selections"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["seam"] == seam)
            .map(|s| s["winner"].clone())
            .unwrap()
    };
    assert_eq!(winner("TaskStore"), "SqliteTaskStore");
    assert_eq!(winner("KeyStrategy"), "ConfiguredKeys");
    assert_eq!(report["warnings"], serde_json::json!([]));
}

#[test]
fn an_unknown_setting_fails_boot_with_plain_diagnostics_on_a_pipe_and_status_one() {
    let output = run(&["--boot-report", "--set", "weather.units=metric"], &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let diagnostics = stderr(&output);
    assert!(!diagnostics.contains(ESCAPE), "{diagnostics:?}");
    assert!(
        diagnostics.starts_with("error[mcp::unknown_setting]: setting `weather` is not known\n"),
        "{diagnostics}"
    );
    assert!(
        diagnostics.contains("  = note: set on the command line by `--set weather.units`"),
        "{diagnostics}"
    );
    assert!(
        diagnostics.ends_with("error: boot failed because of the previous error\n"),
        "{diagnostics}"
    );
}

#[test]
fn clicolor_force_colours_the_diagnostics_on_a_pipe() {
    let output = run(
        &["--boot-report", "--set", "weather.units=metric"],
        &[("CLICOLOR_FORCE", "1")],
    );
    assert_eq!(output.status.code(), Some(1));
    let diagnostics = stderr(&output);
    assert!(
        diagnostics.contains("\u{1b}[1m\u{1b}[91merror[mcp::unknown_setting]\u{1b}[0m"),
        "{diagnostics:?}"
    );
    assert!(
        diagnostics.contains("\u{1b}[1m\u{1b}[94m=\u{1b}[0m \u{1b}[1mnote:\u{1b}[0m"),
        "{diagnostics:?}"
    );
}

#[test]
fn serving_fails_the_same_way_before_it_starts() {
    for args in [
        &["--stdio", "--set", "tasks.store=disk"][..],
        &["--http", "127.0.0.1:0", "--set", "tasks.store=disk"],
    ] {
        let output = run(args, &[]);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let diagnostics = stderr(&output);
        assert!(
            diagnostics
                .starts_with("error[mcp::invalid_setting]: setting `tasks.store` is invalid\n"),
            "{diagnostics}"
        );
        assert!(diagnostics.contains("unknown variant `disk`, expected `memory` or `sqlite`"));
        assert!(diagnostics.contains("set on the command line by `--set tasks.store`"));
        assert!(!diagnostics.contains("serving"), "{diagnostics}");
        assert!(!diagnostics.contains("panicked"), "{diagnostics}");
    }
}

#[test]
fn the_request_state_key_comes_from_its_environment_variable_and_is_never_printed() {
    let output = run(&["--boot-report"], &[("MCP_REQUEST_STATE_KEY", KEY)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = stdout(&output);
    assert!(!report.contains("warning:"), "{report}");
    assert!(report.contains("`ConfiguredKeys`"), "{report}");
    assert!(!report.contains(KEY));

    let output = run(
        &["--boot-report"],
        &[("MCP_REQUEST_STATE_KEY", "tiny-secret")],
    );
    assert_eq!(output.status.code(), Some(1));
    let diagnostics = stderr(&output);
    assert!(
        diagnostics.contains("error[mcp::weak_request_state_key]"),
        "{diagnostics}"
    );
    assert!(!diagnostics.contains("tiny-secret"), "{diagnostics}");
}

#[test]
fn the_option_wins_over_its_environment_variable() {
    let output = run(
        &["--boot-report", "--request-state-key", "tiny-secret"],
        &[("MCP_REQUEST_STATE_KEY", KEY)],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("error[mcp::weak_request_state_key]"));
}

#[test]
fn the_command_line_wins_over_the_framework_s_environment_variables() {
    let bogus = [("MCP_TASKS__STORE", "bogus")];
    let output = run(&["--boot-report", "--task-store", "memory"], &bogus);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));

    let output = run(&["--boot-report"], &bogus);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("= note: set by environment variable `MCP_TASKS__STORE`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn version_prints_the_name_and_version() {
    let output = run(&["--version"], &[]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        format!("mcp-demo {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn help_names_every_option() {
    let output = run(&["--help"], &[]);
    assert_eq!(output.status.code(), Some(0));
    let help = stdout(&output);
    for option in [
        "--stdio",
        "--http <ADDRESS:PORT>",
        "--cors-origin <ORIGIN>",
        "--boot-report [<FORMAT>]",
        "--request-state-key <KEY>",
        "--task-store <STORE>",
        "--task-store-path <FILE>",
        "--set <KEY=VALUE>",
        "--help",
        "--version",
    ] {
        assert!(help.contains(option), "{option}:\n{help}");
    }
    assert!(!help.contains(ESCAPE), "{help:?}");
}

#[test]
fn serving_http_boots_both_endpoints_with_the_applications_settings_in_the_environment() {
    use std::io::{BufRead, BufReader};
    // `tasks.ttl_ms` is the application's setting (mcp-tasks is linked
    // there); the endpoint serving the interceptors alone must not read it.
    let mut child = Command::new(BINARY)
        .args(["--http", "127.0.0.1:0"])
        .env("MCP_TASKS__TTL_MS", "60000")
        .env_remove("MCP_TASKS__STORE")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(first.contains(": serving http://"), "{first}");
}

#[test]
fn the_report_ends_with_the_catalog_naming_where_each_member_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tools.json");
    std::fs::write(
        &file,
        r#"{"tools": [{"name": "from_file", "answer": "hi"}]}"#,
    )
    .unwrap();
    let setting = format!("catalog.file={}", file.display());
    let output = run(&["--boot-report", "--set", &setting], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = stdout(&output);
    let catalog = &report[report.find("\ncatalog, version 1: ").expect(&report)..];
    let line = |name: &str| {
        catalog
            .lines()
            .find(|l| l.contains(&format!("tool `{name}`")))
            .unwrap_or_else(|| panic!("{name}: {catalog}"))
            .to_owned()
    };
    assert!(line("from_file").contains("since version 1"), "{catalog}");
    assert!(
        line("from_file").contains("examples/mcp-demo/src/catalog.rs"),
        "{catalog}"
    );
    assert!(line("test_simple_text").contains("since boot"), "{catalog}");

    let output = run(&["--boot-report", "json", "--set", &setting], &[]);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["catalog"]["version"], 1);
    let entry = json["catalog"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["key"] == "from_file")
        .unwrap();
    assert_eq!(entry["kind"], "tool");
    assert_eq!(entry["since"], json!({"version": 1}));
}
