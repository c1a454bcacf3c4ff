//! A value that fits a JSON schema: the first choice of every `enum`,
//! `anyOf` and `oneOf`, every property of an object, one item of an array.

use serde_json::{Value, json};

/// A value that fits `schema` (resolving `$ref`s against `root`).
pub(crate) fn example_of(schema: &Value, root: &Value, depth: usize) -> Value {
    if depth > 8 {
        return Value::Null;
    }
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(target) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
    {
        return example_of(target, root, depth + 1);
    }
    for choice in ["anyOf", "oneOf"] {
        if let Some(first) = schema
            .get(choice)
            .and_then(Value::as_array)
            .and_then(|c| c.first())
        {
            return example_of(first, root, depth + 1);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::Array(kinds)) => kinds.first().and_then(Value::as_str).unwrap_or("null"),
        Some(Value::String(kind)) => kind,
        _ if schema.get("properties").is_some() => "object",
        _ => "null",
    };
    match kind {
        "object" => Value::Object(
            schema
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(name, property)| (name.clone(), example_of(property, root, depth + 1)))
                .collect(),
        ),
        "array" => json!([example_of(
            schema.get("items").unwrap_or(&Value::Null),
            root,
            depth + 1
        )]),
        "string" => json!("Ada"),
        "integer" => json!(1),
        "number" => json!(1.5),
        "boolean" => json!(true),
        _ => Value::Null,
    }
}
