//! Boot fails, naming both parties, on two interceptors with one name, and
//! on every declaration it could never run as written.

mod support;

use mcp_interceptors::Interceptor;
use mcp_interceptors::wire::Phase;
use mcp_server::Server;
use serde_json::json;
use support::{Append, Events, Judge, builder_with, origin};

fn pass(_: &mcp_interceptors::Invocation) -> mcp_interceptors::Validation {
    mcp_interceptors::Validation::valid()
}

fn boot(interceptors: Vec<Interceptor>) -> String {
    builder_with(interceptors, &Events::default())
        .try_build()
        .map(|_: Server| String::new())
        .unwrap_err()
        .to_string()
}

#[test]
fn two_interceptors_with_one_name_fail_boot_naming_both() {
    let report = boot(vec![
        Interceptor::validator(origin(50), "pii-redactor", Judge(pass))
            .hook(Phase::Request, ["tools/call"]),
        Interceptor::mutator(origin(51), "pii-redactor", Append("x"))
            .hook(Phase::Request, ["tools/call"]),
    ]);
    assert!(
        report.contains("error[mcp_interceptors::duplicate_interceptor]"),
        "{report}"
    );
    assert!(report.contains("pii-redactor"), "{report}");
    assert!(report.contains("tests/support/mod.rs:50"), "{report}");
    assert!(report.contains("tests/support/mod.rs:51"), "{report}");
    assert!(
        report.contains("= help: give one interceptor another"),
        "{report}"
    );
}

#[test]
fn every_declaration_boot_cannot_run_is_reported_at_once() {
    let report = boot(vec![
        Interceptor::validator(origin(60), "handshake", Judge(pass))
            .hook(Phase::Request, ["initialize"]),
        Interceptor::validator(origin(61), "notes", Judge(pass))
            .hook(Phase::Request, ["notifications/progress", "tools/call"]),
        Interceptor::validator(origin(62), "nothing", Judge(pass)),
        Interceptor::validator(origin(63), "ranked", Judge(pass))
            .hook(Phase::Request, ["tools/call"])
            .priority(3),
        Interceptor::validator(origin(64), "schema", Judge(pass))
            .hook(Phase::Request, ["tools/call"])
            .config_schema(serde_json::from_value(json!({"type": "array"})).unwrap()),
        Interceptor::validator(origin(65), "broken-schema", Judge(pass))
            .hook(Phase::Request, ["tools/call"])
            .config_schema(
                serde_json::from_value(json!({"type": "object", "minProperties": "two"})).unwrap(),
            ),
    ]);
    for expected in [
        "error[mcp_interceptors::not_interceptable]: interceptor `handshake` hooks `initialize`",
        "error[mcp_interceptors::not_interceptable]: interceptor `notes` hooks `notifications/progress`",
        "error[mcp_interceptors::no_hooks]: interceptor `nothing` hooks no event",
        "error[mcp_interceptors::priority_of_validator]: validator `ranked` has a priority",
        "error[mcp_interceptors::config_schema]: the configuration schema of interceptor `schema` is not an object schema",
        "error[mcp_interceptors::config_schema]: the configuration schema of interceptor `broken-schema` is not a JSON Schema",
    ] {
        assert!(
            report.contains(expected),
            "missing {expected:?} in\n{report}"
        );
    }
    assert!(
        report.contains("= note: declared at interceptor-tests 0.1.0"),
        "{report}"
    );
}
