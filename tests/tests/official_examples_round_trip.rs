//! Every official 2026-07-28 example decodes into the Rust type of its
//! definition and encodes back to an equal value.

use mcp_tests::schema::Schema;
use mcp_tests::table::Definition;
use mcp_tests::{diff, examples, table};
use serde_json::Value;

/// Round-trips `value` through `definition`'s Rust type; a failure line, if any.
fn failure(definition: &Definition, path: &str, value: &Value) -> Option<String> {
    match (definition.round_trip)(value) {
        Err(e) => Some(format!("{path} as {}: {e}", definition.rust_type)),
        Ok(back) if back != *value => Some(format!(
            "{path} as {}: changed in the round trip:\n{}",
            definition.rust_type,
            diff::describe(value, &back, 10)
        )),
        Ok(_) => None,
    }
}

/// The unions of the schema (`anyOf` of references only) that name `member`.
fn unions_naming(member: &str) -> Vec<&'static str> {
    let defs = Schema::Modern.document()["$defs"]
        .as_object()
        .expect("$defs");
    defs.iter()
        .filter(|(_, schema)| {
            schema["anyOf"].as_array().is_some_and(|refs| {
                refs.iter().all(|r| r.get("$ref").is_some())
                    && refs
                        .iter()
                        .any(|r| r["$ref"] == format!("#/$defs/{member}"))
            })
        })
        .map(|(name, _)| name.as_str())
        .collect()
}

#[test]
fn every_official_example_decodes_and_encodes_back_unchanged() {
    let examples = examples::all(Schema::Modern);
    let mut failures = Vec::new();
    for example in &examples {
        let path = example.path.display();
        let Some(definition) = table::find(Schema::Modern, &example.definition) else {
            failures.push(format!(
                "{path}: no table entry for `{}`",
                example.definition
            ));
            continue;
        };
        failures.extend(failure(definition, &path.to_string(), &example.value));
    }
    println!(
        "{} examples round-tripped, {} failed",
        examples.len() - failures.len(),
        failures.len()
    );
    assert!(!examples.is_empty(), "no examples found");
    assert!(
        failures.is_empty(),
        "{} of {} examples failed:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
}

/// An example of a union's member is an instance of the union too: a tools/call
/// request is a `ClientRequest` and a `JSONRPCMessage`, a `CallToolResult` is
/// a `ServerResult`, a `TextContent` a `ContentBlock`. Each decodes through
/// the union's Rust type, which must pick a variant that keeps every member.
#[test]
fn every_official_example_round_trips_through_the_unions_that_contain_it() {
    let message = table::find(Schema::Modern, "JSONRPCMessage").expect("a table entry");
    let mut checked = 0;
    let mut failures = Vec::new();
    for example in examples::all(Schema::Modern) {
        let path = example.path.display().to_string();
        let mut unions: Vec<&str> = unions_naming(&example.definition);
        if example.definition != "JSONRPCMessage"
            && Schema::Modern
                .validate("JSONRPCMessage", &example.value)
                .is_ok()
        {
            unions.push(message.name);
        }
        for union in unions {
            let definition =
                table::find(Schema::Modern, union).expect("a table entry for every union");
            checked += 1;
            failures.extend(failure(definition, &path, &example.value));
        }
    }
    println!(
        "{checked} example-union pairs round-tripped, {} failed",
        failures.len()
    );
    assert!(checked > 0, "no example is a member of a union");
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_official_example_is_valid_against_the_official_schema() {
    // A guard on the fixtures themselves: an example the schema rejects would
    // make the round trip above prove nothing about the schema.
    let examples = examples::all(Schema::Modern);
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|e| {
            Schema::Modern
                .validate(&e.definition, &e.value)
                .err()
                .map(|errors| format!("{}: {}", e.path.display(), errors.join("; ")))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "examples the schema rejects:\n{}",
        failures.join("\n")
    );
}
