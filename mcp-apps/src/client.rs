//! What the client declared for MCP Apps, readable from handler code.

use mcp_server::RequestContext;
use mcp_server::core::ext::apps::McpUiClientCapabilities;

/// Reads the client's MCP Apps settings from a request's context: in
/// 2026-07-28 those the request carries, in 2025-11-25 those of
/// `initialize`. A tool may return richer `structuredContent` for a client
/// that renders Views; what `tools/list` answers never depends on it.
///
/// ```
/// use mcp_apps::UiClient;
/// use mcp_server::testing::MemoryClient;
/// use mcp_server::{RequestContext, Server, tool};
///
/// /// Says how the answer will look.
/// #[tool]
/// async fn looks(ctx: RequestContext) -> String {
///     if ctx.renders_views() { "a chart".into() } else { "plain text".into() }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let server = Server::builder().build();
/// let call = serde_json::json!({"name": "looks"});
/// let plain = MemoryClient::new(&server).request_raw("tools/call", call.clone()).await.unwrap();
/// assert_eq!(plain["content"][0]["text"], "plain text");
/// let host = MemoryClient::new(&server).with_capabilities(
///     serde_json::from_value(serde_json::json!({"extensions": {
///         "io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}
///     }})).unwrap(),
/// );
/// let rich = host.request_raw("tools/call", call).await.unwrap();
/// assert_eq!(rich["content"][0]["text"], "a chart");
/// # });
/// ```
pub trait UiClient {
    /// The settings the client declared under `io.modelcontextprotocol/ui`,
    /// or `None` when it did not declare the extension (or declared
    /// settings that are not an MCP Apps object).
    fn ui_capabilities(&self) -> Option<McpUiClientCapabilities>;

    /// The UI MIME types the client renders; empty when it renders none.
    fn ui_mime_types(&self) -> Vec<String> {
        self.ui_capabilities()
            .and_then(|ui| ui.mime_types)
            .unwrap_or_default()
    }

    /// Whether the client renders MCP App Views (`text/html;profile=mcp-app`).
    fn renders_views(&self) -> bool {
        self.ui_capabilities()
            .is_some_and(|ui| ui.supports_mcp_apps())
    }
}

impl UiClient for RequestContext {
    fn ui_capabilities(&self) -> Option<McpUiClientCapabilities> {
        McpUiClientCapabilities::from_capabilities(self.client_capabilities())
            .ok()
            .flatten()
    }
}
