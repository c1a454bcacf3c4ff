//! Sinks: one-way delivery callbacks handed to handler code. Progress and log
//! messages go to the client that made the request; change notifications go
//! to every listener.
//!
//! A transport supplies a [`NotificationSink`] for each request; handlers
//! reach it through [`ProgressSink`] and [`LogSink`] in the request context,
//! which send only what the client opted into (a `progressToken`, a log
//! level). Sending is fire-and-forget: a client that went away is not an
//! error for the handler.
//!
//! ```
//! use mcp_server::sink::{Change, ChangeSink, BroadcastChangeSink};
//!
//! let changes = BroadcastChangeSink::new(16);
//! let mut listener = changes.subscribe();
//! changes.publish(Change::ToolsListChanged);
//! assert_eq!(listener.try_recv().unwrap(), Change::ToolsListChanged);
//! ```

use std::fmt;
use std::sync::Arc;

use mcp_core::json::JsonValue;
use mcp_core::jsonrpc::{Notification, ProgressToken};
use mcp_core::logging::{LoggingLevel, LoggingMessage, LoggingMessageNotificationParams};
use mcp_core::method::NotificationMethod;
use mcp_core::progress::{Progress, ProgressNotificationParams};
use tokio::sync::broadcast;

use crate::boot::BootContext;
use crate::seam::{OneActive, SeamWord};

/// Delivers notifications to the client of one request (supplied by the transport).
pub trait NotificationSink: Send + Sync + 'static {
    /// Sends one notification; delivery failures are the transport's concern.
    fn send(&self, notification: Notification);
}

/// A sink that drops everything, for requests whose transport cannot stream.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiscardSink;

impl NotificationSink for DiscardSink {
    fn send(&self, _: Notification) {}
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

/// A change that listeners may want to hear about.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Change {
    /// The tool list changed.
    ToolsListChanged,
    /// The prompt list changed.
    PromptsListChanged,
    /// The resource list changed.
    ResourcesListChanged,
    /// The resource at this URI changed.
    ResourceUpdated(String),
}

/// Publishes changes to every listener, on this instance or others.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a change sink",
    note = "implement `mcp_server::sink::ChangeSink` and register it (the `#[sink]` attribute on the `impl` block does both)"
)]
pub trait ChangeSink: Send + Sync + 'static {
    /// Publishes one change.
    fn publish(&self, change: Change);
}

impl OneActive for dyn ChangeSink {
    const NAME: &'static str = "ChangeSink";
    const WORD: SeamWord = SeamWord::Sink;
    fn fallback(_: &BootContext) -> (&'static str, Arc<Self>) {
        (
            "BroadcastChangeSink",
            Arc::new(BroadcastChangeSink::default()),
        )
    }
}

/// The default change sink: an in-process broadcast channel.
#[derive(Debug, Clone)]
pub struct BroadcastChangeSink {
    sender: broadcast::Sender<Change>,
}

impl BroadcastChangeSink {
    /// A sink whose listeners may lag by at most `capacity` changes.
    pub fn new(capacity: usize) -> Self {
        Self {
            sender: broadcast::channel(capacity.max(1)).0,
        }
    }

    /// A new listener, which sees changes published from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.sender.subscribe()
    }
}

impl Default for BroadcastChangeSink {
    fn default() -> Self {
        Self::new(256)
    }
}

impl ChangeSink for BroadcastChangeSink {
    fn publish(&self, change: Change) {
        // No listener is not an error: the change is simply unheard.
        let _ = self.sender.send(change);
    }
}

/// Publishes to the active change sink and to this instance's listeners
/// (the transports' legacy sessions).
pub(crate) struct Fanout {
    local: BroadcastChangeSink,
    active: Arc<dyn ChangeSink>,
}

impl Fanout {
    pub(crate) fn new(active: Arc<dyn ChangeSink>) -> Self {
        Self {
            local: BroadcastChangeSink::default(),
            active,
        }
    }

    pub(crate) fn listen(&self) -> broadcast::Receiver<Change> {
        self.local.subscribe()
    }
}

impl ChangeSink for Fanout {
    fn publish(&self, change: Change) {
        self.local.publish(change.clone());
        self.active.publish(change);
    }
}
