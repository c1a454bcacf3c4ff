//! For every table entry, generated values of its Rust type validate against
//! the definition in the official `schema.json` and survive a round trip.
//!
//! Each definition gets its own property test: random byte strings feed
//! `arbitrary::Unstructured`, and a failure is shrunk to the smallest byte
//! string that still fails. 64 cases per definition unless `PROPTEST_CASES`
//! says otherwise.

use std::cell::Cell;

use arbitrary::Unstructured;
use mcp_tests::diff;
use mcp_tests::schema::Schema;
use mcp_tests::table::{self, Definition};
use proptest::collection::vec;
use proptest::prelude::any;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};
use serde_json::json;

/// Cases per definition: `PROPTEST_CASES`, or 64.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

/// One case: generate, validate against the schema, round-trip.
fn check(definition: &Definition, bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut u = Unstructured::new(bytes);
    let value = (definition.generate)(&mut u)
        .map_err(|e| TestCaseError::fail(format!("the generator failed: {e}")))?;
    if let Err(errors) = definition.schema.validate(definition.name, &value) {
        return Err(TestCaseError::fail(format!(
            "the schema rejects the generated value\n  value: {value}\n  errors:\n    {}",
            errors.join("\n    ")
        )));
    }
    match (definition.round_trip)(&value) {
        Err(e) => Err(TestCaseError::fail(format!(
            "the generated value does not round-trip: {e}\n  value: {value}"
        ))),
        Ok(back) if back != value => Err(TestCaseError::fail(format!(
            "the generated value changed in the round trip\n  value: {value}\n{}",
            diff::describe(&value, &back, 10)
        ))),
        Ok(_) => Ok(()),
    }
}

/// Runs the property for every entry of `schema`'s table; fails listing every
/// definition whose property failed, with its smallest failing case.
fn run(schema: Schema) {
    let definitions = table::for_schema(schema);
    let cases = cases();
    let passed = Cell::new(0usize);
    let mut failures = Vec::new();
    for definition in definitions {
        let config = Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        let outcome = runner.run(&vec(any::<u8>(), 0..1024), |bytes| {
            check(definition, &bytes)?;
            passed.set(passed.get() + 1);
            Ok(())
        });
        match outcome {
            Ok(()) => {}
            Err(TestError::Fail(why, bytes)) => {
                failures.push(format!(
                    "{}: {why}\n  smallest input: {} bytes",
                    definition.label(),
                    bytes.len()
                ));
            }
            Err(TestError::Abort(why)) => {
                failures.push(format!("{}: aborted: {why}", definition.label()))
            }
        }
    }
    println!(
        "{}: {} definitions, {cases} cases each, {} passing cases run",
        schema.dir_name(),
        definitions.len(),
        passed.get()
    );
    assert!(
        failures.is_empty(),
        "{} of {} definitions failed:\n\n{}",
        failures.len(),
        definitions.len(),
        failures.join("\n\n")
    );
}

/// A guard against a vacuous validator: for each schema document, a value
/// its definition forbids is rejected.
#[test]
fn the_validators_reject_what_the_schemas_forbid() {
    let forbidden = [
        (
            Schema::Modern,
            "CallToolRequest",
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}),
        ),
        (
            Schema::Modern,
            "ParseError",
            json!({"code": -32600, "message": "Invalid Request"}),
        ),
        (
            Schema::Modern,
            "ListToolsResult",
            json!({"resultType": "complete", "tools": [], "ttlMs": -1, "cacheScope": "public"}),
        ),
        (
            Schema::Legacy,
            "PingRequest",
            json!({"jsonrpc": "2.0", "id": 1, "method": "pong"}),
        ),
        (Schema::ExtTasks, "TaskStatus", json!("paused")),
        (Schema::ExtApps, "McpUiToolVisibility", json!("user")),
    ];
    for (schema, name, value) in forbidden {
        assert!(
            schema.validate(name, &value).is_err(),
            "{} accepts {value} as `{name}`",
            schema.dir_name()
        );
    }
}

#[test]
fn generated_2026_07_28_values_match_the_official_schema_and_round_trip() {
    run(Schema::Modern);
}

#[test]
fn generated_tasks_extension_values_match_its_schema_and_round_trip() {
    run(Schema::ExtTasks);
}

#[test]
fn generated_apps_extension_values_match_its_schema_and_round_trip() {
    run(Schema::ExtApps);
}

#[test]
fn generated_legacy_only_values_match_the_2025_11_25_schema_and_round_trip() {
    run(Schema::Legacy);
}
