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
//! use mcp_server::sink::{Change, ChangeSink, BroadcastChangeSink, Topic};
//!
//! let changes = BroadcastChangeSink::new(16);
//! let mut listener = changes.subscribe();
//! changes.publish(Change::tools_list_changed());
//! assert_eq!(listener.try_recv().unwrap(), Change::tools_list_changed());
//!
//! // An extension's own kind: listeners whose filter lists the item hear it.
//! let status = Change::new(
//!     "notifications/jobs/status",
//!     Topic::Item { member: "jobIds".into(), item: "j-1".into() },
//! )
//! .with_params(serde_json::json!({ "jobId": "j-1", "status": "working" }));
//! assert_eq!(status.notification(None).method, "notifications/jobs/status");
//! ```

use std::fmt;
use std::sync::Arc;

use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::jsonrpc::{Notification, ProgressToken};
use mcp_core::logging::{LoggingLevel, LoggingMessage, LoggingMessageNotificationParams};
use mcp_core::method::NotificationMethod;
use mcp_core::progress::{Progress, ProgressNotificationParams};
use tokio::sync::broadcast;

use crate::boot::BootContext;
use crate::seam::{OneActive, SeamWord};
use crate::subscription::Hub;

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

/// A change listeners may want to hear about: the notification that tells
/// of it, and the topic a listener's filter must hold to receive it.
///
/// Open: an extension publishes its own kinds (`Change::new`) without any
/// change to the framework. A 2026-07-28 listener receives a change when its
/// grant holds the topic ([`Topic::Flag`] for a boolean filter member such
/// as `toolsListChanged`, [`Topic::Item`] for an item of a list member such
/// as a URI of `resourceSubscriptions`); a 2025-11-25 session receives the
/// list changes, and the resource updates it subscribed to.
///
/// Changes serialize, so a [`ChangeSink`] can carry them between instances.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Change {
    /// The notification's method, such as `notifications/tools/list_changed`.
    pub method: String,
    /// The notification's params, without `_meta`.
    #[serde(default)]
    pub params: JsonObject,
    /// What a listener's filter must hold to receive it.
    pub topic: Topic,
}

/// What a listener's filter must hold to receive a [`Change`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Topic {
    /// A boolean member of the filter, such as `toolsListChanged`.
    Flag(String),
    /// One item of a list member of the filter: `resourceSubscriptions`
    /// with a URI, or an extension's member with its id.
    Item {
        /// The filter member, such as `resourceSubscriptions`.
        member: String,
        /// The item, such as the resource's URI.
        item: String,
    },
}

/// The filter members of the framework's own changes.
pub mod members {
    /// `notifications/tools/list_changed`.
    pub const TOOLS_LIST_CHANGED: &str = "toolsListChanged";
    /// `notifications/prompts/list_changed`.
    pub const PROMPTS_LIST_CHANGED: &str = "promptsListChanged";
    /// `notifications/resources/list_changed`.
    pub const RESOURCES_LIST_CHANGED: &str = "resourcesListChanged";
    /// `notifications/resources/updated`, by URI.
    pub const RESOURCE_SUBSCRIPTIONS: &str = "resourceSubscriptions";
}

impl Change {
    /// A change told by `method` to listeners whose filter holds `topic`.
    pub fn new(method: impl Into<String>, topic: Topic) -> Self {
        Self {
            method: method.into(),
            params: JsonObject::new(),
            topic,
        }
    }

    /// The same change with `params` (an object; anything else is dropped).
    #[must_use]
    pub fn with_params(mut self, params: impl serde::Serialize) -> Self {
        if let Ok(JsonValue::Object(params)) = serde_json::to_value(params) {
            self.params = params;
        }
        self
    }

    /// The tool list changed.
    pub fn tools_list_changed() -> Self {
        Self::flag(
            "notifications/tools/list_changed",
            members::TOOLS_LIST_CHANGED,
        )
    }

    /// The prompt list changed.
    pub fn prompts_list_changed() -> Self {
        Self::flag(
            "notifications/prompts/list_changed",
            members::PROMPTS_LIST_CHANGED,
        )
    }

    /// The resource list changed.
    pub fn resources_list_changed() -> Self {
        Self::flag(
            "notifications/resources/list_changed",
            members::RESOURCES_LIST_CHANGED,
        )
    }

    /// The resource at `uri` changed.
    pub fn resource_updated(uri: impl Into<String>) -> Self {
        let uri = uri.into();
        Self::new(
            "notifications/resources/updated",
            Topic::Item {
                member: members::RESOURCE_SUBSCRIPTIONS.into(),
                item: uri.clone(),
            },
        )
        .with_params(serde_json::json!({ "uri": uri }))
    }

    fn flag(method: &str, member: &str) -> Self {
        Self::new(method, Topic::Flag(member.into()))
    }

    /// The notification that tells of the change, with `_meta` when given.
    pub fn notification(&self, meta: Option<JsonValue>) -> Notification {
        let mut params = self.params.clone();
        if let Some(meta) = meta {
            params.insert("_meta".into(), meta);
        }
        Notification::new(&self.method, &params)
            .expect("an object of JSON values always serializes")
    }
}

/// Carries changes between this instance and the rest of the deployment:
/// the one-active delivery seam.
///
/// The framework tells this instance's listeners (2026-07-28 listen streams
/// and 2025-11-25 sessions) of every change published here itself, then
/// hands it to [`publish`](Self::publish); a sink shared by several
/// instances (a Redis pub/sub, say) sends it to the others, and hands what
/// they publish to the [`Inbound`] it is given at boot, so a listener held
/// on one instance hears of a change published on another.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a change sink",
    note = "implement `mcp_server::sink::ChangeSink` and register it (the `#[sink]` attribute on the `impl` block does both)"
)]
pub trait ChangeSink: Send + Sync + 'static {
    /// Carries a change published on this instance onward.
    fn publish(&self, change: Change);

    /// Receives, once at boot, where changes published elsewhere go: the
    /// sink hands each one to [`Inbound::deliver`]. The default keeps
    /// nothing: no change comes from elsewhere.
    fn attach(&self, inbound: Inbound) {
        let _ = inbound;
    }
}

impl OneActive for dyn ChangeSink {
    const NAME: &'static str = "ChangeSink";
    const WORD: SeamWord = SeamWord::Sink;
    fn fallback(_: &BootContext) -> (&'static str, Arc<Self>) {
        ("InProcessChangeSink", Arc::new(InProcessChangeSink))
    }
}

/// The default change sink: changes stay in this process (its listeners
/// are told directly), nothing comes from elsewhere.
#[derive(Debug, Clone, Copy, Default)]
pub struct InProcessChangeSink;

impl ChangeSink for InProcessChangeSink {
    fn publish(&self, _: Change) {}
}

/// Where changes published on other instances enter this one: its
/// listeners are told of each as of a change published here.
#[derive(Clone)]
pub struct Inbound(pub(crate) Arc<Hub>);

impl fmt::Debug for Inbound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Inbound")
    }
}

impl Inbound {
    /// Tells this instance's listeners of `change`.
    pub fn deliver(&self, change: Change) {
        self.0.deliver(change);
    }
}

/// A sink that broadcasts what is published to in-process subscribers: for
/// tests that watch what a server publishes.
#[derive(Debug, Clone)]
pub struct BroadcastChangeSink {
    sender: broadcast::Sender<Change>,
}

impl BroadcastChangeSink {
    /// A sink whose subscribers may lag by at most `capacity` changes.
    pub fn new(capacity: usize) -> Self {
        Self {
            sender: broadcast::channel(capacity.max(1)).0,
        }
    }

    /// A new subscriber, which sees changes published from now on.
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
        // No subscriber is not an error: the change is simply unheard.
        let _ = self.sender.send(change);
    }
}

/// Publishes: to this instance's listeners first, then to the active sink.
pub(crate) struct Fanout {
    hub: Arc<Hub>,
    active: Arc<dyn ChangeSink>,
}

impl Fanout {
    pub(crate) fn new(hub: Arc<Hub>, active: Arc<dyn ChangeSink>) -> Self {
        active.attach(Inbound(hub.clone()));
        Self { hub, active }
    }

    pub(crate) fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }
}

impl ChangeSink for Fanout {
    fn publish(&self, change: Change) {
        self.hub.deliver(change.clone());
        self.active.publish(change);
    }
}
