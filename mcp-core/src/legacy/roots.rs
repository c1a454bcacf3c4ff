//! `notifications/roots/list_changed`: the client's roots changed (2025-11-25 only).
//!
//! ```
//! use mcp_core::legacy::roots::RootsListChangedNotification;
//!
//! let notification = RootsListChangedNotification::new(None);
//! assert_eq!(
//!     serde_json::to_string(&notification).unwrap(),
//!     r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#,
//! );
//! ```

use crate::method::{TypedNotification, notifications};
use crate::pagination::NotificationParams;
use crate::version::Era;

notifications! {
    /// `notifications/roots/list_changed`: ask `roots/list` again.
    RootsListChanged = "notifications/roots/list_changed" {
        params: Option<NotificationParams>,
        eras: Era::LEGACY,
    }
}

/// A `notifications/roots/list_changed` notification (`RootsListChangedNotification`).
pub type RootsListChangedNotification = TypedNotification<RootsListChanged>;
