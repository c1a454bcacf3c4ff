//! Log messages from server to client (a deprecated feature in 2026-07-28).
//!
//! ```
//! use mcp_core::logging::LoggingLevel;
//!
//! assert!(LoggingLevel::Error > LoggingLevel::Warning);
//! assert_eq!(serde_json::to_string(&LoggingLevel::Critical).unwrap(), r#""critical""#);
//! ```

use serde::{Deserialize, Serialize};

use crate::json::JsonValue;
use crate::meta::NotificationMeta;
use crate::method::{notifications, params};
use crate::version::Era;

/// A syslog severity (`LoggingLevel`), ordered from least to most severe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum LoggingLevel {
    /// Debug-level messages.
    Debug,
    /// Informational messages.
    Info,
    /// Normal but significant conditions.
    Notice,
    /// Warning conditions.
    Warning,
    /// Error conditions.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

/// Params of `notifications/message` (`LoggingMessageNotificationParams`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct LoggingMessageNotificationParams {
    /// Notification metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// The severity.
    pub level: LoggingLevel,
    /// The logger's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// The message: any JSON value.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::any_json_value))]
    pub data: JsonValue,
}

params!(LoggingMessageNotificationParams);

notifications! {
    /// `notifications/message`: a log message (opt-in per request in 2026-07-28).
    LoggingMessage = "notifications/message" {
        params: LoggingMessageNotificationParams,
        eras: Era::ALL,
    }
}

/// A `notifications/message` notification (`LoggingMessageNotification`).
pub type LoggingMessageNotification = crate::method::TypedNotification<LoggingMessage>;
