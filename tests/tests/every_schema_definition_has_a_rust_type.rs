//! Every definition of the 2026-07-28 schema and of the extensions and legacy
//! schema has a line in the table, and every line names a real definition.

use std::collections::BTreeSet;

use mcp_tests::schema::Schema;
use mcp_tests::table;

/// The definitions of `schema` a table must cover: all of them for the core
/// schema; for the others, those the 2026-07-28 schema does not already have
/// (the apps extension: only the server-facing ones).
fn required(schema: Schema) -> BTreeSet<&'static str> {
    let modern: BTreeSet<&str> = Schema::Modern.definition_names().into_iter().collect();
    match schema {
        Schema::Modern => modern,
        Schema::ExtTasks | Schema::Legacy => schema
            .definition_names()
            .into_iter()
            .filter(|n| !modern.contains(n))
            .collect(),
        Schema::ExtApps => [
            "McpUiToolMeta",
            "McpUiToolVisibility",
            "McpUiResourceMeta",
            "McpUiResourceCsp",
            "McpUiResourcePermissions",
            "McpUiClientCapabilities",
        ]
        .into(),
    }
}

fn check(schema: Schema) {
    let wanted = required(schema);
    let entries = table::for_schema(schema);
    let named: BTreeSet<&str> = entries.iter().map(|d| d.name).collect();
    let missing: Vec<&str> = wanted.difference(&named).copied().collect();
    let unknown: Vec<&str> = named
        .iter()
        .copied()
        .filter(|n| !schema.has_definition(n))
        .collect();
    let duplicated = entries.len() - named.len();
    println!(
        "{}: {} definitions to cover, {} table entries ({} missing)",
        schema.dir_name(),
        wanted.len(),
        entries.len(),
        missing.len()
    );
    assert!(
        missing.is_empty() && unknown.is_empty() && duplicated == 0,
        "{} table:\n  missing ({}): {missing:?}\n  not in schema.json ({}): {unknown:?}\n  duplicated lines: {duplicated}",
        schema.dir_name(),
        missing.len(),
        unknown.len(),
    );
}

#[test]
fn every_2026_07_28_definition_has_a_rust_type() {
    check(Schema::Modern);
}

#[test]
fn every_tasks_extension_definition_has_a_rust_type() {
    check(Schema::ExtTasks);
}

#[test]
fn every_server_facing_apps_extension_definition_has_a_rust_type() {
    check(Schema::ExtApps);
}

#[test]
fn every_legacy_only_2025_11_25_definition_has_a_rust_type() {
    check(Schema::Legacy);
}
