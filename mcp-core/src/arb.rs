//! Generators used by the `arbitrary` feature for fields whose Rust type is
//! wider than what the wire allows (finite numbers, bounded JSON, fixed keys).
//!
//! Every function here takes an [`Unstructured`] and returns a value that the
//! official schema accepts for the field it is attached to.

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::json::{JsonObject, JsonValue};

/// Nesting depth of generated JSON values.
const MAX_DEPTH: u32 = 3;

/// Always `Some`, for fields the Rust model keeps optional (to serve both
/// protocol eras) but the 2026-07-28 schema requires.
pub fn some<'a, T: Arbitrary<'a>>(u: &mut Unstructured<'a>) -> Result<Option<T>> {
    T::arbitrary(u).map(Some)
}

/// A number in `0.0..=1.0` (priorities).
pub fn unit_f64(u: &mut Unstructured<'_>) -> Result<f64> {
    Ok(f64::from(u.int_in_range(0..=1000u16)?) / 1000.0)
}

/// Optional [`unit_f64`].
pub fn opt_unit_f64(u: &mut Unstructured<'_>) -> Result<Option<f64>> {
    if u.arbitrary()? {
        unit_f64(u).map(Some)
    } else {
        Ok(None)
    }
}

/// A finite number, integral or not.
pub fn finite_f64(u: &mut Unstructured<'_>) -> Result<f64> {
    let whole = f64::from(u.int_in_range(-1_000_000i32..=1_000_000)?);
    let frac = f64::from(u.int_in_range(0u8..=3)?) / 4.0;
    Ok(whole + frac)
}

/// Optional [`finite_f64`].
pub fn opt_finite_f64(u: &mut Unstructured<'_>) -> Result<Option<f64>> {
    if u.arbitrary()? {
        finite_f64(u).map(Some)
    } else {
        Ok(None)
    }
}

/// A JSON value as the official `schema.json` types `JSONValue`: no `null`
/// and no decimals (see the crate docs on the schema's quirks).
pub fn schema_json_value(u: &mut Unstructured<'_>) -> Result<JsonValue> {
    json_value(u, MAX_DEPTH, false)
}

/// A JSON object whose values are [`schema_json_value`]s (`JSONObject`).
pub fn schema_json_object(u: &mut Unstructured<'_>) -> Result<JsonObject> {
    json_object(u, MAX_DEPTH, false)
}

/// Optional [`schema_json_object`].
pub fn opt_schema_json_object(u: &mut Unstructured<'_>) -> Result<Option<JsonObject>> {
    if u.arbitrary()? {
        schema_json_object(u).map(Some)
    } else {
        Ok(None)
    }
}

/// A map from arbitrary keys to [`schema_json_object`]s (`experimental`,
/// `extensions` capability maps).
pub fn opt_object_map(
    u: &mut Unstructured<'_>,
) -> Result<Option<std::collections::BTreeMap<String, JsonObject>>> {
    if !u.arbitrary()? {
        return Ok(None);
    }
    let mut map = std::collections::BTreeMap::new();
    for _ in 0..u.int_in_range(0..=3u8)? {
        map.insert(key(u)?, schema_json_object(u)?);
    }
    Ok(Some(map))
}

/// Any JSON value at all, `null` and decimals included (`unknown` in the schema).
pub fn any_json_value(u: &mut Unstructured<'_>) -> Result<JsonValue> {
    json_value(u, MAX_DEPTH, true)
}

/// Optional [`any_json_value`].
pub fn opt_any_json_value(u: &mut Unstructured<'_>) -> Result<Option<JsonValue>> {
    if u.arbitrary()? {
        any_json_value(u).map(Some)
    } else {
        Ok(None)
    }
}

/// A JSON object with any values (`{ [key: string]: unknown }`).
pub fn any_json_object(u: &mut Unstructured<'_>) -> Result<JsonObject> {
    json_object(u, MAX_DEPTH, true)
}

/// Optional [`any_json_object`].
pub fn opt_any_json_object(u: &mut Unstructured<'_>) -> Result<Option<JsonObject>> {
    if u.arbitrary()? {
        any_json_object(u).map(Some)
    } else {
        Ok(None)
    }
}

/// A JSON Schema object with `"type": "object"` and a few properties, as a
/// tool's `inputSchema` requires.
pub fn object_schema(u: &mut Unstructured<'_>) -> Result<JsonObject> {
    let mut schema = JsonObject::new();
    if u.arbitrary()? {
        schema.insert(
            "$schema".into(),
            "https://json-schema.org/draft/2020-12/schema".into(),
        );
    }
    schema.insert("type".into(), "object".into());
    let mut properties = JsonObject::new();
    for _ in 0..u.int_in_range(0..=3u8)? {
        let kind = *u.choose(&["string", "integer", "number", "boolean", "array"])?;
        let mut property = JsonObject::new();
        property.insert("type".into(), kind.into());
        properties.insert(key(u)?, property.into());
    }
    schema.insert("properties".into(), properties.into());
    Ok(schema)
}

/// Optional [`object_schema`].
pub fn opt_object_schema(u: &mut Unstructured<'_>) -> Result<Option<JsonObject>> {
    if u.arbitrary()? {
        object_schema(u).map(Some)
    } else {
        Ok(None)
    }
}

/// A short key drawn from a small alphabet, so generated maps stay readable.
pub fn key(u: &mut Unstructured<'_>) -> Result<String> {
    let len = u.int_in_range(1..=8u8)?;
    (0..len)
        .map(|_| {
            u.choose(b"abcdefghijklmnopqrstuvwxyz_0123456789")
                .map(|b| char::from(*b))
        })
        .collect()
}

/// A short vector of arbitrary elements.
pub fn short_vec<'a, T: Arbitrary<'a>>(u: &mut Unstructured<'a>) -> Result<Vec<T>> {
    (0..u.int_in_range(0..=3u8)?)
        .map(|_| T::arbitrary(u))
        .collect()
}

fn json_value(u: &mut Unstructured<'_>, depth: u32, wide: bool) -> Result<JsonValue> {
    let kinds: u8 = if depth == 0 { 4 } else { 6 };
    Ok(match u.int_in_range(0..=kinds - 1)? {
        0 => JsonValue::String(String::arbitrary(u)?),
        1 => JsonValue::from(i64::arbitrary(u)?),
        2 => JsonValue::Bool(bool::arbitrary(u)?),
        3 if wide => {
            if u.arbitrary()? {
                JsonValue::Null
            } else {
                JsonValue::from(finite_f64(u)? + 0.5)
            }
        }
        3 => JsonValue::from(u32::arbitrary(u)?),
        4 => JsonValue::Array(
            (0..u.int_in_range(0..=3u8)?)
                .map(|_| json_value(u, depth - 1, wide))
                .collect::<Result<_>>()?,
        ),
        _ => JsonValue::Object(json_object(u, depth - 1, wide)?),
    })
}

fn json_object(u: &mut Unstructured<'_>, depth: u32, wide: bool) -> Result<JsonObject> {
    let mut object = JsonObject::new();
    for _ in 0..u.int_in_range(0..=3u8)? {
        object.insert(key(u)?, json_value(u, depth, wide)?);
    }
    Ok(object)
}
