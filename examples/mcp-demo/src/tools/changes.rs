//! Tools that announce a changed tool or prompt list to every listener
//! (SEP-2575 `subscriptions/listen` streams, legacy `list_changed`
//! notifications), through the server's change sink.

use mcp_server::seam::sink::Change;
use mcp_server::{RequestContext, tool};

/// The text both trigger tools answer with.
pub const TRIGGERED: &str = "Mutation triggered";

/// Triggers a tools/list_changed notification.
#[tool]
pub async fn test_trigger_tool_change(ctx: RequestContext) -> &'static str {
    ctx.changes().publish(Change::tools_list_changed());
    TRIGGERED
}

/// Triggers a prompts/list_changed notification.
#[tool]
pub async fn test_trigger_prompt_change(ctx: RequestContext) -> &'static str {
    ctx.changes().publish(Change::prompts_list_changed());
    TRIGGERED
}
