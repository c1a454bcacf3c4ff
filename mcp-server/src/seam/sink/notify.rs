//! Sinks of one request: where its notifications go (supplied by the
//! transport), and the progress and log sinks handler code reaches them
//! through, which send only what the client opted into.

use std::fmt;
use std::sync::Arc;

use mcp_core::json::JsonValue;
use mcp_core::jsonrpc::{Notification, ProgressToken};
use mcp_core::logging::{LoggingLevel, LoggingMessage, LoggingMessageNotificationParams};
use mcp_core::method::NotificationMethod;
use mcp_core::progress::{Progress, ProgressNotificationParams};

/// Delivers notifications to the client of one request (supplied by the transport).
pub trait NotificationSink: Send + Sync + 'static {
    /// Sends one notification; delivery failures are the transport's concern.
    fn send(&self, notification: Notification);

    /// How many messages sent here the client has not read yet, where the
    /// transport can tell (a long-lived stream waits while it is high).
    fn backlog(&self) -> usize {
        0
    }
}

/// A sink that drops everything, for requests whose transport cannot stream.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiscardSink;

impl NotificationSink for DiscardSink {
    fn send(&self, _: Notification) {}
}

impl DiscardSink {
    /// The one shared discarding sink: a request that needs one clones a
    /// reference count instead of allocating.
    pub(crate) fn shared() -> Arc<dyn NotificationSink> {
        static SHARED: std::sync::LazyLock<Arc<dyn NotificationSink>> =
            std::sync::LazyLock::new(|| Arc::new(DiscardSink));
        SHARED.clone()
    }
}

/// Sends `notifications/progress` for a request that asked for it.
#[derive(Clone)]
pub struct ProgressSink {
    token: Option<ProgressToken>,
    out: Arc<dyn NotificationSink>,
}

impl fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProgressSink")
            .field("token", &self.token)
            .finish_non_exhaustive()
    }
}

impl ProgressSink {
    pub(crate) fn new(token: Option<ProgressToken>, out: Arc<dyn NotificationSink>) -> Self {
        Self { token, out }
    }

    /// Whether the client asked for progress (sent a `progressToken`).
    pub fn is_requested(&self) -> bool {
        self.token.is_some()
    }

    /// Reports `progress` out of `total`, with an optional message; a no-op
    /// when the client did not ask for progress.
    pub fn report(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let Some(token) = &self.token else { return };
        let params = ProgressNotificationParams {
            meta: None,
            progress_token: token.clone(),
            progress,
            total,
            message: message.map(str::to_owned),
        };
        if let Ok(n) = Notification::new(Progress::NAME, &params) {
            self.out.send(n);
        }
    }
}

/// Sends `notifications/message` at or above the level the client chose.
#[derive(Clone)]
pub struct LogSink {
    threshold: Option<LoggingLevel>,
    out: Arc<dyn NotificationSink>,
}

impl fmt::Debug for LogSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LogSink")
            .field("threshold", &self.threshold)
            .finish_non_exhaustive()
    }
}

impl LogSink {
    pub(crate) fn new(threshold: Option<LoggingLevel>, out: Arc<dyn NotificationSink>) -> Self {
        Self { threshold, out }
    }

    /// Whether a message at `level` would be sent.
    pub fn enabled(&self, level: LoggingLevel) -> bool {
        self.threshold.is_some_and(|t| level >= t)
    }

    /// Sends a log message when the client opted into `level`.
    pub fn log(&self, level: LoggingLevel, logger: Option<&str>, data: impl Into<JsonValue>) {
        if !self.enabled(level) {
            return;
        }
        let params = LoggingMessageNotificationParams {
            meta: None,
            level,
            logger: logger.map(str::to_owned),
            data: data.into(),
        };
        if let Ok(n) = Notification::new(LoggingMessage::NAME, &params) {
            self.out.send(n);
        }
    }
}
