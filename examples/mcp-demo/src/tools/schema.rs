//! The tool whose input schema is hand-written JSON Schema 2020-12, listed
//! verbatim: `$schema`, `$defs` and `additionalProperties` kept (SEP-1613), and
//! composition, conditional and `$anchor` keywords too (SEP-2106).

use mcp_server::tool;
use serde::{Deserialize, Serialize};

/// A postal address, the `$defs/address` of the schema.
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Address {
    /// The street.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub street: Option<String>,
    /// The city.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
}

/// Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613).
#[tool(
    read_only,
    input_schema = r##"{
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "address",
                "type": "object",
                "properties": {
                    "street": { "type": "string" },
                    "city": { "type": "string" }
                }
            }
        },
        "properties": {
            "name": { "type": "string" },
            "address": { "$ref": "#/$defs/address" }
        },
        "allOf": [
            { "anyOf": [ { "required": ["name"] }, { "not": { "required": ["name"] } } ] }
        ],
        "if": { "required": ["name"] },
        "then": { "properties": { "name": { "minLength": 1 } } },
        "else": {},
        "additionalProperties": false
    }"##
)]
pub async fn json_schema_2020_12_tool(name: Option<String>, address: Option<Address>) -> String {
    let mut arguments = serde_json::Map::new();
    if let Some(name) = name {
        arguments.insert("name".into(), name.into());
    }
    if let Some(address) = address.and_then(|a| serde_json::to_value(a).ok()) {
        arguments.insert("address".into(), address);
    }
    format!(
        "JSON Schema 2020-12 tool called with: {}",
        serde_json::Value::Object(arguments)
    )
}
