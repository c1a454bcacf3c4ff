//! Tools whose work shows on the response stream before their result: log
//! messages, progress, and a slow answer.

use std::time::Duration;

use mcp_server::core::logging::LoggingLevel;
use mcp_server::{RequestContext, tool};
use serde_json::json;

/// The pause between two log messages or two progress reports.
pub const STEP: Duration = Duration::from_millis(50);

/// The log messages `test_tool_with_logging` sends, in order, at `info`.
pub const TOOL_LOG_MESSAGES: [&str; 3] = [
    "Tool execution started",
    "Tool processing data",
    "Tool execution completed",
];

/// The progress `test_tool_with_progress` reports, out of 100.
pub const PROGRESS_STEPS: [f64; 3] = [0.0, 50.0, 100.0];

/// Tests tool that emits log messages during execution (three at `info`, 50 ms apart).
#[tool(read_only)]
pub async fn test_tool_with_logging(ctx: RequestContext) -> &'static str {
    for (i, message) in TOOL_LOG_MESSAGES.into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(STEP).await;
        }
        ctx.log().log(LoggingLevel::Info, None, json!(message));
    }
    "Tool with logging executed successfully"
}

/// Tests tool that reports progress notifications (0, 50 and 100 of 100, 50 ms apart); answers with the progress token.
#[tool(read_only)]
pub async fn test_tool_with_progress(ctx: RequestContext) -> String {
    for (i, progress) in PROGRESS_STEPS.into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(STEP).await;
        }
        let message = format!("Completed step {progress} of 100");
        ctx.progress().report(progress, Some(100.0), Some(&message));
    }
    match &ctx.meta().progress_token {
        Some(token) => token.to_string(),
        None => "no progress token was sent".into(),
    }
}

/// Tests SSE stream disconnection and client reconnection (SEP-1699): answers after about 100 ms.
#[tool(read_only)]
pub async fn test_reconnection() -> &'static str {
    tokio::time::sleep(2 * STEP).await;
    "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure."
}

/// The log messages `test_logging_tool` sends, with their levels.
pub const LOGGING_TOOL_MESSAGES: [(LoggingLevel, &str); 3] = [
    (LoggingLevel::Debug, "Diagnostic detail"),
    (LoggingLevel::Info, "Diagnostic trace logging activated"),
    (LoggingLevel::Warning, "Diagnostic warning"),
];

/// Diagnostic logging tool: logs at debug, info and warning; only what the request's log level admits is sent.
#[tool(read_only)]
pub async fn test_logging_tool(ctx: RequestContext) -> &'static str {
    for (level, message) in LOGGING_TOOL_MESSAGES {
        ctx.log().log(level, None, json!(message));
    }
    "Logging evaluated"
}

/// Diagnostic response-stream tool: reports progress (when asked for) and answers; it never sends the client a request.
#[tool(read_only)]
pub async fn test_streaming_elicitation(ctx: RequestContext) -> &'static str {
    ctx.progress().report(50.0, Some(100.0), None);
    "Streaming complete"
}
