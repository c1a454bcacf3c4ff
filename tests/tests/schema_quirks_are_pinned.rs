//! Where the official `schema.json` is narrower than `schema.ts`, the
//! normative source: its `JSONValue` has no `null` and no non-integer
//! numbers, and `ElicitResult.content` has no non-integer numbers.
//!
//! Each test asserts both halves — the official validator rejects the value,
//! and the model decodes it and encodes it back unchanged — so it fails
//! once the schema is fixed, and should then be removed.

use mcp_tests::schema::Schema;
use mcp_tests::{diff, table};
use serde_json::{Value, json};

/// Asserts that `schema.json` rejects `quirky`, accepts `plain` (the same
/// value with the quirk replaced, so the rejection is the quirk's alone), and
/// that the model round-trips `quirky` unchanged.
fn pin(definition: &str, quirky: Value, plain: Value) {
    let entry = table::find(Schema::Modern, definition).expect("a table entry");
    assert!(
        Schema::Modern.validate(definition, &quirky).is_err(),
        "schema.json now accepts {quirky} as `{definition}`: the quirk is fixed, remove this test"
    );
    if let Err(errors) = Schema::Modern.validate(definition, &plain) {
        panic!("schema.json rejects {plain} as `{definition}` for another reason: {errors:?}");
    }
    let back = (entry.round_trip)(&quirky)
        .unwrap_or_else(|e| panic!("{} rejects {quirky}: {e}", entry.rust_type));
    assert_eq!(
        back,
        quirky,
        "changed in the round trip:\n{}",
        diff::describe(&quirky, &back, 10)
    );
}

/// A `null` inside a capability's settings object: `schema.ts` types it
/// `JSONObject`, whose values include `null`; `schema.json` drops `null`.
/// The schema, not the model, is at fault.
#[test]
fn a_null_in_a_capability_settings_object_is_rejected_by_the_schema_but_kept_by_the_model() {
    pin(
        "ServerCapabilities",
        json!({"experimental": {"com.example/x": {"flag": null}}, "logging": {"level": null}}),
        json!({"experimental": {"com.example/x": {"flag": "off"}}, "logging": {"level": "off"}}),
    );
    pin(
        "ClientCapabilities",
        json!({"extensions": {"com.example/x": {"since": null}}}),
        json!({"extensions": {"com.example/x": {"since": "never"}}}),
    );
}

/// A decimal inside a capability's settings object: `JSONValue` in
/// `schema.ts` includes every `number`; `schema.json` allows only integers.
/// The schema, not the model, is at fault.
#[test]
fn a_decimal_in_a_capability_settings_object_is_rejected_by_the_schema_but_kept_by_the_model() {
    pin(
        "ClientCapabilities",
        json!({"extensions": {"com.example/x": {"ratio": 0.5}}}),
        json!({"extensions": {"com.example/x": {"ratio": 1}}}),
    );
    pin(
        "ServerCapabilities",
        json!({"experimental": {"com.example/x": {"weights": [0.25, 0.75]}}}),
        json!({"experimental": {"com.example/x": {"weights": [1, 3]}}}),
    );
}

/// `null` and a decimal in sampling `metadata`, typed `JSONObject` in
/// `schema.ts`. The schema, not the model, is at fault.
#[test]
fn a_null_or_a_decimal_in_sampling_metadata_is_rejected_by_the_schema_but_kept_by_the_model() {
    let params = |metadata: Value| {
        json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}],
            "maxTokens": 100,
            "metadata": metadata
        })
    };
    pin(
        "CreateMessageRequestParams",
        params(json!({"top_p": 0.9, "seed": null})),
        params(json!({"top_p": 1, "seed": 7})),
    );
    pin(
        "CreateMessageRequestParams",
        params(json!({"seed": null})),
        params(json!({"seed": 7})),
    );
}

/// A decimal answer to a number field of an elicitation form: `schema.ts`
/// types `ElicitResult.content` values as `string | number | boolean |
/// string[]`; `schema.json` narrows `number` to integers. The schema, not the
/// model, is at fault.
#[test]
fn a_decimal_in_an_elicitation_answer_is_rejected_by_the_schema_but_kept_by_the_model() {
    pin(
        "ElicitResult",
        json!({"action": "accept", "content": {"name": "Ada", "age": 30.5}}),
        json!({"action": "accept", "content": {"name": "Ada", "age": 30}}),
    );
}
