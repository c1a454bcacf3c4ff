//! The tool whose arguments a 2026-07-28 client mirrors in `Mcp-Param-*`
//! headers (SEP-2243): the transport checks each header against its
//! argument before the tool runs.

use mcp_server::tool;

/// Echoes a region and a query; the region travels in the `Mcp-Param-Region` header too.
#[tool(
    read_only,
    input_schema = r##"{
        "type": "object",
        "properties": {
            "region": { "type": "string", "description": "Where to run", "x-mcp-header": "Region" },
            "query": { "type": "string", "description": "What to run" }
        }
    }"##
)]
pub async fn test_param_headers(region: Option<String>, query: Option<String>) -> String {
    format!(
        "region={}, query={}",
        region.as_deref().unwrap_or("(none)"),
        query.as_deref().unwrap_or("(none)")
    )
}
