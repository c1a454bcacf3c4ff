//! `notifications/cancelled`: stop working on a request.
//!
//! ```
//! use mcp_core::cancellation::CancelledNotificationParams;
//!
//! let params: CancelledNotificationParams =
//!     serde_json::from_str(r#"{"requestId": 3, "reason": "user hit stop"}"#).unwrap();
//! assert_eq!(params.request_id, 3.into());
//! ```

use serde::{Deserialize, Serialize};

use crate::jsonrpc::RequestId;
use crate::meta::NotificationMeta;
use crate::method::{TypedNotification, notifications, params};
use crate::version::Era;

/// Params of `notifications/cancelled` (`CancelledNotificationParams`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CancelledNotificationParams {
    /// Notification metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// The request to cancel.
    pub request_id: RequestId,
    /// Why, for logs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

params!(CancelledNotificationParams);

notifications! {
    /// `notifications/cancelled`: cancel a request in flight.
    Cancelled = "notifications/cancelled" {
        params: CancelledNotificationParams,
        eras: Era::ALL,
    }
}

/// A `notifications/cancelled` notification (`CancelledNotification`).
pub type CancelledNotification = TypedNotification<Cancelled>;
