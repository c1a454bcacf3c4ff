//! Attribute macros for the `mcp-server` framework: the authoring surface for
//! tools, prompts, resources and every seam word.
//!
//! Application code reaches these through `mcp_server`, which re-exports them.
