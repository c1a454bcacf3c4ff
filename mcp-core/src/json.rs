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
pub(crate) fn present<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<JsonValue>, D::Error> {
    <JsonValue as serde::Deserialize>::deserialize(d).map(Some)
}

/// The largest magnitude below which every integer is exact in an `f64` (2^53).
const EXACT_INTEGER_LIMIT: f64 = 9_007_199_254_740_992.0;

/// Writes a number as JavaScript's `JSON.stringify` does: an integral value
/// without a fraction (`50`, not `50.0`), so a number a peer sent as `50`
/// is written back as `50` (use with `serialize_with`).
pub(crate) fn number<S: serde::Serializer>(n: &f64, s: S) -> Result<S::Ok, S::Error> {
    if n.fract() == 0.0 && n.abs() < EXACT_INTEGER_LIMIT {
        // Exact: the value is integral and within ±2^53.
        s.serialize_i64(*n as i64)
    } else {
        s.serialize_f64(*n)
    }
}

/// [`number`] for an optional member (skipped when `None`).
pub(crate) fn opt_number<S: serde::Serializer>(n: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match n {
        Some(n) => number(n, s),
        None => s.serialize_none(),
    }
}

/// A JSON object of typed values that keeps its members in arrival order,
/// where order means something (the fields of an elicitation form).
///
/// ```
/// use mcp_core::json::OrderedMap;
///
/// let map: OrderedMap<u32> = serde_json::from_str(r#"{"name": 1, "email": 2, "age": 3}"#).unwrap();
/// assert_eq!(map.keys().collect::<Vec<_>>(), ["name", "email", "age"]);
/// assert_eq!(serde_json::to_string(&map).unwrap(), r#"{"name":1,"email":2,"age":3}"#);
/// ```
pub type OrderedMap<V> = indexmap::IndexMap<String, V>;
