//! The rmcp server handler: one tool, `test_simple_text`, with the answer
//! `mcp-demo` gives.

use std::sync::Arc;

use rmcp::handler::server::tool::ToolRouter;
use rmcp::{tool, tool_handler, tool_router};

/// The text `test_simple_text` answers with.
const SIMPLE_TEXT: &str = "This is a simple text response for testing.";

/// The handler every request is served by; clones share one tool router,
/// built once at start rather than once per request.
#[derive(Clone)]
pub struct Peer {
    tools: Arc<ToolRouter<Peer>>,
}

impl Peer {
    /// A handler with its tool router built.
    pub fn new() -> Self {
        Self {
            tools: Arc::new(Self::tool_router()),
        }
    }
}

#[tool_router]
impl Peer {
    /// Tests simple text content response.
    #[tool(description = "Tests simple text content response.")]
    async fn test_simple_text(&self) -> String {
        SIMPLE_TEXT.to_owned()
    }
}

#[tool_handler(router = self.tools)]
impl rmcp::ServerHandler for Peer {}
