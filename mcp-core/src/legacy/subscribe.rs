//! `resources/subscribe` and `resources/unsubscribe`: per-resource update
//! notifications for the session (2025-11-25 only).
//!
//! ```
//! use mcp_core::legacy::subscribe::{SubscribeRequest, SubscribeRequestParams};
//!
//! let request = SubscribeRequest::new(3, SubscribeRequestParams::new("file:///notes.txt"));
//! assert_eq!(serde_json::to_value(&request).unwrap(), serde_json::json!({
//!     "jsonrpc": "2.0", "id": 3, "method": "resources/subscribe", "params": {"uri": "file:///notes.txt"}
//! }));
//! ```

use serde::{Deserialize, Serialize};

use crate::meta::RequestMeta;
use crate::method::{TypedRequest, methods, params};
use crate::result::EmptyResult;
use crate::version::Era;

/// Params of `resources/subscribe` (`SubscribeRequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SubscribeRequestParams {
    /// Request metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// The resource to watch.
    pub uri: String,
}

impl SubscribeRequestParams {
    /// Params watching `uri`.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            meta: None,
            uri: uri.into(),
        }
    }
}

/// Params of `resources/unsubscribe` (`UnsubscribeRequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct UnsubscribeRequestParams {
    /// Request metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// The resource to stop watching.
    pub uri: String,
}

impl UnsubscribeRequestParams {
    /// Params no longer watching `uri`.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            meta: None,
            uri: uri.into(),
        }
    }
}

params!(SubscribeRequestParams, UnsubscribeRequestParams);

methods! {
    /// `resources/subscribe`: send `notifications/resources/updated` when the resource changes.
    Subscribe = "resources/subscribe" {
        params: SubscribeRequestParams,
        result: EmptyResult,
        eras: Era::LEGACY,
    }
    /// `resources/unsubscribe`: stop sending updates for the resource.
    Unsubscribe = "resources/unsubscribe" {
        params: UnsubscribeRequestParams,
        result: EmptyResult,
        eras: Era::LEGACY,
    }
}

/// A `resources/subscribe` request (`SubscribeRequest`).
pub type SubscribeRequest = TypedRequest<Subscribe>;
/// A `resources/unsubscribe` request (`UnsubscribeRequest`).
pub type UnsubscribeRequest = TypedRequest<Unsubscribe>;
