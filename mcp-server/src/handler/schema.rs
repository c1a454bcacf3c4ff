//! What is wrong with a tool's arguments or result, each problem named by
//! its place as a JSON Pointer: the tool's schemas, checked with the
//! `validate` feature (without it, nothing beyond what decoding into the
//! argument type refuses), and why arguments do not decode.

use std::fmt::Display;

use mcp_core::json::{JsonObject, JsonValue};
use serde::de::DeserializeOwned;

/// One compiled schema.
pub(crate) struct Schema {
    #[cfg(feature = "validate")]
    validator: jsonschema::Validator,
}

impl Schema {
    /// Compiles `schema`, or says why it is not a valid JSON Schema. Without
    /// the `validate` feature every schema is taken as it is.
    #[cfg_attr(not(feature = "validate"), allow(clippy::unnecessary_wraps))]
    pub(crate) fn compile(schema: &JsonObject) -> Result<Self, String> {
        #[cfg(feature = "validate")]
        {
            jsonschema::validator_for(&JsonValue::Object(schema.clone()))
                .map(|validator| Self { validator })
                .map_err(|e| e.to_string())
        }
        #[cfg(not(feature = "validate"))]
        {
            let _ = schema;
            Ok(Self {})
        }
    }

    /// What is wrong with `value`, one problem after another naming each
    /// place by JSON Pointer; `None` when it conforms (always, without the
    /// `validate` feature).
    pub(crate) fn problems(&self, value: &JsonValue) -> Option<String> {
        #[cfg(feature = "validate")]
        {
            // Most values conform: the check that collects nothing goes first.
            if self.validator.is_valid(value) {
                return None;
            }
            let problems: Vec<String> = self
                .validator
                .iter_errors(value)
                .map(|e| at(&e.instance_path().to_string(), e))
                .collect();
            (!problems.is_empty()).then(|| problems.join("; "))
        }
        #[cfg(not(feature = "validate"))]
        {
            let _ = value;
            None
        }
    }
}

/// Why `arguments` do not decode into `A`, naming the place as a schema
/// check does; decoded again, with the path tracked, only once the plain
/// decoding failed.
pub(crate) fn undecodable<A: DeserializeOwned>(arguments: &JsonValue) -> String {
    let Err(error) = serde_path_to_error::deserialize::<_, A>(arguments) else {
        return "they do not decode".to_owned();
    };
    let mut pointer = String::new();
    for segment in error.path().iter() {
        let token = match segment {
            serde_path_to_error::Segment::Seq { index } => index.to_string(),
            serde_path_to_error::Segment::Map { key } => key.clone(),
            serde_path_to_error::Segment::Enum { variant } => variant.clone(),
            serde_path_to_error::Segment::Unknown => continue,
        };
        pointer.push('/');
        pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
    }
    at(&pointer, error.into_inner())
}

/// `problem`, preceded by its place: a JSON Pointer (`/lines/1/count`),
/// shown without its leading slash; the root has no place shown.
fn at(pointer: &str, problem: impl Display) -> String {
    match pointer.strip_prefix('/') {
        Some(place) => format!("`{place}`: {problem}"),
        None => problem.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::undecodable;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Order {
        item: String,
        lines: Vec<Line>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Line {
        count: u32,
    }

    #[test]
    fn arguments_that_do_not_decode_are_named_by_json_pointer() {
        let nested = json!({"item": "tea", "lines": [{"count": 1}, {"count": "two"}]});
        let problem = undecodable::<Order>(&nested);
        assert!(
            problem.starts_with("`lines/1/count`: invalid type: string \"two\""),
            "{problem}"
        );
        let missing = undecodable::<Order>(&json!({"lines": []}));
        assert_eq!(missing, "missing field `item`");
        let mut odd = serde_json::Map::new();
        odd.insert("a/b~c".into(), json!("not a number"));
        let escaped = undecodable::<std::collections::BTreeMap<String, u32>>(&odd.into());
        assert!(escaped.starts_with("`a~1b~0c`: invalid type"), "{escaped}");
    }
}
