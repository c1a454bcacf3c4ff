//! Generic JSON values, as the schema's `JSONValue`, `JSONObject` and `JSONArray`.
//!
//! These follow `schema.ts`, which is normative: a [`JsonValue`] may be `null`
//! or a decimal number. The generated `schema.json` narrows `JSONValue` to
//! strings, integers, booleans, objects and arrays; the model does not inherit
//! that narrowing.

/// Any JSON value (`JSONValue`).
pub type JsonValue = serde_json::Value;

/// A JSON object with keys kept in arrival order (`JSONObject`).
pub type JsonObject = serde_json::Map<String, JsonValue>;

/// A JSON array (`JSONArray`).
pub type JsonArray = Vec<JsonValue>;

/// Reads a present member as `Some`, even when it is `null`, so an explicit
/// `null` survives a round trip (use with `#[serde(default)]`).
pub(crate) fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<JsonValue>, D::Error> {
    <JsonValue as serde::Deserialize>::deserialize(d).map(Some)
}
