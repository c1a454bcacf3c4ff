//! A tool's schemas as its handler checks values against them: with the
//! `validate` feature, compiled JSON Schema validators; without it, nothing
//! is checked beyond what decoding into the argument type refuses.

use mcp_core::json::{JsonObject, JsonValue};

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
                .map(|e| {
                    let at = e.instance_path().to_string();
                    if at.is_empty() {
                        e.to_string()
                    } else {
                        format!("`{}`: {e}", &at[1..])
                    }
                })
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
