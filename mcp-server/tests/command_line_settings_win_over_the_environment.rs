//! Settings from a command line sit above the environment's, which sit
//! above the builder's; boot diagnostics name the option that set a bad
//! value, never the value.

use mcp_server::Server;
use mcp_server::boot::BootError;
use mcp_server::server::Builder;

fn builder() -> Builder {
    Server::builder().without_linked()
}

fn source_of(errors: &mcp_server::boot::BootErrors) -> String {
    match &errors.errors()[0] {
        BootError::InvalidSetting {
            source: Some(source),
            ..
        } => source.to_string(),
        other => panic!("{other}"),
    }
}

#[test]
fn a_command_line_value_replaces_an_invalid_environment_value() {
    let server = builder()
        .environment([("MCP_SERVER__PAGE_SIZE", "lots")])
        .command_line_setting("--page-size", "server.page_size", 7)
        .try_build();
    assert!(server.is_ok(), "{}", server.unwrap_err());
}

#[test]
fn an_invalid_command_line_value_fails_boot_naming_its_option() {
    let errors = builder()
        .environment([("MCP_SERVER__PAGE_SIZE", "5")])
        .command_line_setting("--page-size", "server.page_size", "lots")
        .try_build()
        .unwrap_err();
    assert_eq!(
        source_of(&errors),
        "set on the command line by `--page-size`"
    );
}

#[test]
fn the_environment_still_wins_over_the_builder() {
    let errors = builder()
        .setting("server.page_size", 7)
        .environment([("MCP_SERVER__PAGE_SIZE", "lots")])
        .try_build()
        .unwrap_err();
    assert_eq!(
        source_of(&errors),
        "set by environment variable `MCP_SERVER__PAGE_SIZE`"
    );
}

#[test]
fn a_command_line_section_replaces_what_the_environment_set_inside_it() {
    let errors = builder()
        .environment([("MCP_SERVER__PAGE_SIZE", "lots")])
        .command_line_setting(
            "--set server",
            "server",
            serde_json::json!({"list_ttl_ms": "x"}),
        )
        .try_build()
        .unwrap_err();
    assert_eq!(errors.errors().len(), 1, "{errors}");
    let message = errors.to_string();
    assert!(
        message.contains("setting `server.list_ttl_ms` is invalid"),
        "{message}"
    );
    assert_eq!(
        source_of(&errors),
        "set on the command line by `--set server`"
    );
}

#[test]
fn an_unknown_command_line_key_fails_boot_naming_its_option_and_not_its_value() {
    let errors = builder()
        .command_line_setting("--set sever.page_size", "sever.page_size", "hunter2")
        .try_build()
        .unwrap_err();
    let message = errors.to_string();
    assert!(message.contains("error[mcp::unknown_setting]: setting `sever` is not known"));
    assert!(message.contains("= note: set on the command line by `--set sever.page_size`"));
    assert!(!message.contains("hunter2"), "{message}");
}
