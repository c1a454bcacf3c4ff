//! The server-facing definitions of the apps extension.

use mcp_core::ext::apps::{
    McpUiClientCapabilities, McpUiResourceCsp, McpUiResourceMeta, McpUiResourcePermissions,
    McpUiToolMeta, McpUiToolVisibility,
};

use super::definitions;
use crate::schema::Schema;

definitions!(
    /// The apps extension's server-facing definitions (the `_meta.ui` objects
    /// and the client's settings), validated against `ext-apps/schema.json`.
    EXT_APPS for Schema::ExtApps => {
        "McpUiClientCapabilities" => McpUiClientCapabilities;
        "McpUiResourceCsp" => McpUiResourceCsp;
        "McpUiResourceMeta" => McpUiResourceMeta;
        "McpUiResourcePermissions" => McpUiResourcePermissions;
        "McpUiToolMeta" => McpUiToolMeta;
        "McpUiToolVisibility" => McpUiToolVisibility;
    }
);
