//! The MCP Apps extension (`io.modelcontextprotocol/ui`) for `mcp-server`.
//!
//! Activate it by linking: `use mcp_apps as _;` in the application's crate root.
//! Its wire types live in `mcp_core::ext::apps`.
