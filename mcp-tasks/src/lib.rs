//! The MCP tasks extension (`io.modelcontextprotocol/tasks`) for `mcp-server`,
//! with the legacy core tasks of 2025-11-25 for older clients.
//!
//! Activate it by linking: `use mcp_tasks as _;` in the application's crate root.
//! Its wire types live in `mcp_core::ext::tasks`.
