//! The command line of `mcp-demo`, parsed in process: every option in each
//! of its spellings, the errors of a command line that cannot be read, and
//! a help that explains every option.

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use mcp_demo::cli::{Cli, Mode, ReportFormat, TaskStore};

fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(std::iter::once("mcp-demo").chain(args.iter().copied()))
}

fn mode(args: &[&str]) -> Mode {
    parse(args).unwrap().mode()
}

fn refused(args: &[&str]) -> ErrorKind {
    parse(args).map(|_| ()).unwrap_err().kind()
}

#[test]
fn stdio_is_a_mode_of_its_own() {
    assert_eq!(mode(&["--stdio"]), Mode::Stdio);
}

#[test]
fn http_takes_an_address_after_a_space_or_an_equals_sign() {
    let http = Mode::Http {
        addr: "127.0.0.1:8080".parse().unwrap(),
        cors_origins: vec![],
    };
    assert_eq!(mode(&["--http", "127.0.0.1:8080"]), http);
    assert_eq!(mode(&["--http=127.0.0.1:8080"]), http);
    assert_eq!(
        mode(&["--http", "[::1]:0"]),
        Mode::Http {
            addr: "[::1]:0".parse().unwrap(),
            cors_origins: vec![]
        }
    );
}

#[test]
fn cors_origins_repeat_before_or_after_http_in_both_spellings() {
    let Mode::Http { cors_origins, .. } = mode(&[
        "--cors-origin",
        "https://app.example.com",
        "--http",
        "127.0.0.1:8080",
        "--cors-origin=http://localhost:3000/",
        "--cors-origin",
        "*",
    ]) else {
        panic!("not http")
    };
    assert_eq!(
        cors_origins,
        ["https://app.example.com", "http://localhost:3000/", "*"]
    );
}

#[test]
fn boot_report_is_text_unless_json_is_asked_for() {
    assert_eq!(
        mode(&["--boot-report"]),
        Mode::BootReport(ReportFormat::Text)
    );
    assert_eq!(
        mode(&["--boot-report", "text"]),
        Mode::BootReport(ReportFormat::Text)
    );
    assert_eq!(
        mode(&["--boot-report", "json"]),
        Mode::BootReport(ReportFormat::Json)
    );
    assert_eq!(
        mode(&["--boot-report=json", "--set", "tasks.ttl_ms=1"]),
        Mode::BootReport(ReportFormat::Json)
    );
    assert_eq!(
        mode(&["--task-store", "memory", "--boot-report"]),
        Mode::BootReport(ReportFormat::Text)
    );
}

#[test]
fn the_setting_options_are_read_in_every_mode() {
    let cli = parse(&[
        "--http",
        "127.0.0.1:1",
        "--request-state-key",
        "0123456789abcdef0123456789abcdef",
        "--task-store",
        "sqlite",
        "--task-store-path=/var/lib/demo/tasks.db",
        "--set",
        "tasks.ttl_ms=60000",
        "--set=server.page_size=10",
    ])
    .unwrap();
    let flags = cli.settings;
    assert_eq!(
        flags.request_state_key.unwrap().expose(),
        "0123456789abcdef0123456789abcdef"
    );
    assert_eq!(flags.task_store, Some(TaskStore::Sqlite));
    assert_eq!(
        flags.task_store_path.as_deref(),
        Some("/var/lib/demo/tasks.db")
    );
    let keys: Vec<&str> = flags.set.iter().map(|s| s.key.as_str()).collect();
    assert_eq!(keys, ["tasks.ttl_ms", "server.page_size"]);
}

#[test]
fn the_request_state_key_is_never_in_the_debug_output() {
    let cli = parse(&["--stdio", "--request-state-key", "hunter2-hunter2-hunter2"]).unwrap();
    let debug = format!("{cli:?}");
    assert!(!debug.contains("hunter2"), "{debug}");
}

#[test]
fn the_request_state_key_falls_back_to_its_environment_variable_without_showing_it() {
    let command = Cli::command();
    let key = command
        .get_arguments()
        .find(|a| a.get_id() == "request_state_key")
        .unwrap();
    assert_eq!(
        key.get_env().and_then(|e| e.to_str()),
        Some("MCP_REQUEST_STATE_KEY")
    );
    assert!(key.is_hide_env_values_set());
    assert!(key.get_default_values().is_empty());
}

#[test]
fn exactly_one_mode_is_required() {
    assert_eq!(refused(&[]), ErrorKind::MissingRequiredArgument);
    assert_eq!(
        refused(&["--task-store", "memory"]),
        ErrorKind::MissingRequiredArgument
    );
    for args in [
        &["--stdio", "--http", "127.0.0.1:1"][..],
        &["--stdio", "--boot-report"],
        &["--http", "127.0.0.1:1", "--boot-report", "json"],
    ] {
        assert_eq!(refused(args), ErrorKind::ArgumentConflict, "{args:?}");
    }
}

#[test]
fn cors_origins_need_http() {
    assert_eq!(
        refused(&["--stdio", "--cors-origin", "https://app.example.com"]),
        ErrorKind::ArgumentConflict
    );
    assert_eq!(
        refused(&["--boot-report", "--cors-origin", "https://app.example.com"]),
        ErrorKind::ArgumentConflict
    );
    assert_eq!(
        refused(&["--cors-origin", "https://app.example.com"]),
        ErrorKind::MissingRequiredArgument
    );
}

#[test]
fn values_that_do_not_fit_their_option_are_refused() {
    for (args, kind) in [
        (&["--http"][..], ErrorKind::InvalidValue),
        (&["--http", "localhost:8080"], ErrorKind::ValueValidation),
        (&["--http", "127.0.0.1"], ErrorKind::ValueValidation),
        (
            &["--http", "127.0.0.1:1", "--cors-origin"],
            ErrorKind::InvalidValue,
        ),
        (
            &["--http", "127.0.0.1:1", "--cors-origin", "app.example.com"],
            ErrorKind::ValueValidation,
        ),
        (
            &[
                "--http",
                "127.0.0.1:1",
                "--cors-origin",
                "https://app.example.com/path",
            ],
            ErrorKind::ValueValidation,
        ),
        (&["--boot-report", "xml"], ErrorKind::InvalidValue),
        (
            &["--stdio", "--task-store", "disk"],
            ErrorKind::InvalidValue,
        ),
        (
            &["--stdio", "--set", "tasks.ttl_ms"],
            ErrorKind::ValueValidation,
        ),
        (&["--stdio", "--set", "=1"], ErrorKind::ValueValidation),
        (
            &["--stdio", "--set", "tasks..ttl_ms=1"],
            ErrorKind::ValueValidation,
        ),
        (&["--stdio", "--request-state-key"], ErrorKind::InvalidValue),
    ] {
        assert_eq!(refused(args), kind, "{args:?}");
    }
}

#[test]
fn unknown_options_are_refused() {
    assert_eq!(refused(&["--verbose"]), ErrorKind::UnknownArgument);
    assert_eq!(refused(&["--stdio", "extra"]), ErrorKind::UnknownArgument);
}

#[test]
fn help_and_version_are_answers_not_errors() {
    assert_eq!(refused(&["--help"]), ErrorKind::DisplayHelp);
    assert_eq!(refused(&["-h"]), ErrorKind::DisplayHelp);
    assert_eq!(refused(&["--version"]), ErrorKind::DisplayVersion);
    assert_eq!(refused(&["-V"]), ErrorKind::DisplayVersion);
}

#[test]
fn the_long_help_explains_every_option_in_a_sentence() {
    let mut command = Cli::command();
    let help = command.render_long_help().to_string();
    for arg in Cli::command().get_arguments() {
        let Some(long) = arg.get_long() else {
            continue;
        };
        assert!(help.contains(&format!("--{long}")), "--{long}:\n{help}");
        let explained = arg
            .get_long_help()
            .or(arg.get_help())
            .map(|h| h.to_string());
        let explained = explained.unwrap_or_else(|| panic!("--{long} has no help"));
        assert!(
            explained.split_whitespace().count() >= 4,
            "--{long}: {explained}"
        );
    }
    for word in [
        "stdin",
        "/mcp",
        "CORS",
        "json",
        "MCP_REQUEST_STATE_KEY",
        "sqlite",
    ] {
        assert!(help.contains(word), "{word}:\n{help}");
    }
}

#[test]
fn the_definition_of_the_command_line_is_consistent() {
    Cli::command().debug_assert();
}
