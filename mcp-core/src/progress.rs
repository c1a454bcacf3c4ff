//! Progress notifications for a request that opted in with a `progressToken`.
//!
//! ```
//! use mcp_core::progress::ProgressNotificationParams;
//!
//! let params = ProgressNotificationParams::new(7.into(), 50.0).with_total(100.0);
//! // Integral numbers are written without a fraction, as a JavaScript peer writes them.
//! assert_eq!(serde_json::to_value(&params).unwrap(),
//!            serde_json::json!({"progressToken": 7, "progress": 50, "total": 100}));
//! ```

use serde::{Deserialize, Serialize};

use crate::jsonrpc::ProgressToken;
use crate::meta::NotificationMeta;
use crate::method::{TypedNotification, notifications, params};
use crate::version::Era;

/// Params of `notifications/progress` (`ProgressNotificationParams`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ProgressNotificationParams {
    /// Notification metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// The token from the request's `_meta`.
    pub progress_token: ProgressToken,
    /// Progress so far; increases with every notification.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::finite_f64))]
    #[serde(serialize_with = "crate::json::number")]
    pub progress: f64,
    /// The total, if known.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_finite_f64))]
    #[serde(serialize_with = "crate::json::opt_number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    /// A human-readable message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl ProgressNotificationParams {
    /// Progress `progress` for the request that sent `token`.
    pub fn new(token: ProgressToken, progress: f64) -> Self {
        Self {
            meta: None,
            progress_token: token,
            progress,
            total: None,
            message: None,
        }
    }

    /// Sets the total.
    #[must_use]
    pub fn with_total(mut self, total: f64) -> Self {
        self.total = Some(total);
        self
    }
}

params!(ProgressNotificationParams);

notifications! {
    /// `notifications/progress`: progress of a request.
    Progress = "notifications/progress" {
        params: ProgressNotificationParams,
        eras: Era::ALL,
    }
}

/// A `notifications/progress` notification (`ProgressNotification`).
pub type ProgressNotification = TypedNotification<Progress>;
