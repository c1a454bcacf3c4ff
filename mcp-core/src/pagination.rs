//! The params every request and notification shares, and pagination.
//!
//! ```
//! use mcp_core::pagination::PaginatedRequestParams;
//!
//! let params: PaginatedRequestParams = serde_json::from_str(r#"{"cursor": "page-2"}"#).unwrap();
//! assert_eq!(params.cursor.as_deref(), Some("page-2"));
//! ```

use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

use crate::meta::{NotificationMeta, RequestMeta};
use crate::method::params;

/// An opaque pagination position (`Cursor`).
pub type Cursor = String;

/// Params that carry only `_meta` (`RequestParams`).
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct RequestParams {
    /// Request metadata: required in 2026-07-28, optional in 2025-11-25.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    pub meta: Option<RequestMeta>,
}

/// Params of a list request (`PaginatedRequestParams`).
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct PaginatedRequestParams {
    /// Request metadata: required in 2026-07-28, optional in 2025-11-25.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    pub meta: Option<RequestMeta>,
    /// Where to start; absent for the first page.
    pub cursor: Option<Cursor>,
}

/// Params that carry only `_meta` (`NotificationParams`).
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NotificationParams {
    /// Notification metadata.
    #[serde(rename = "_meta")]
    pub meta: Option<NotificationMeta>,
}

params!(RequestParams, PaginatedRequestParams, NotificationParams);
