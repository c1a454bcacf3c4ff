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
//! use mcp_server::seam::sink::{BroadcastChangeSink, Change, ChangeSink, Topic};
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

mod change;
mod delivery;
mod grant;
pub(crate) mod hub;
mod notify;
mod processor;

pub use change::{Change, Topic, filter};
pub(crate) use delivery::Fanout;
pub use delivery::{BroadcastChangeSink, ChangeSink, InProcessChangeSink, Inbound};
pub use grant::Grant;
pub use notify::{DiscardSink, LogSink, NotificationSink, ProgressSink};
pub use processor::{GrantCustomizer, GrantCustomizers, ListenRequest};
