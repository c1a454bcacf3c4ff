//! The params every request and notification shares, and pagination.
//!
//! ```
//! use mcp_core::pagination::PaginatedRequestParams;
//!
//! let params: PaginatedRequestParams = serde_json::from_str(r#"{"cursor": "page-2"}"#).unwrap();
//! assert_eq!(params.cursor.as_deref(), Some("page-2"));
//! ```

use serde::{Deserialize, Serialize};

use crate::meta::{NotificationMeta, RequestMeta};
use crate::method::params;

/// An opaque pagination position (`Cursor`).
pub type Cursor = String;

/// Params that carry only `_meta` (`RequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct RequestParams {
    /// Request metadata: required in 2026-07-28, optional in 2025-11-25.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
}

/// Params of a list request (`PaginatedRequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct PaginatedRequestParams {
    /// Request metadata: required in 2026-07-28, optional in 2025-11-25.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Where to start; absent for the first page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<Cursor>,
}

/// Params that carry only `_meta` (`NotificationParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NotificationParams {
    /// Notification metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
}

params!(RequestParams, PaginatedRequestParams, NotificationParams);
