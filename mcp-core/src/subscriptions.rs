//! `subscriptions/listen`: a long-lived request whose response stream carries
//! change notifications (2026-07-28).
//!
//! ```
//! use mcp_core::subscriptions::SubscriptionFilter;
//!
//! let filter: SubscriptionFilter = serde_json::from_value(serde_json::json!({
//!     "toolsListChanged": true,
//!     "resourceSubscriptions": ["file:///project/config.json"],
//!     "taskIds": ["t-1"]
//! })).unwrap();
//! assert_eq!(filter.tools_list_changed, Some(true));
//! // Filters an extension adds (tasks: `taskIds`) are kept.
//! assert_eq!(filter.extra["taskIds"][0], "t-1");
//! ```

use serde::{Deserialize, Serialize};

use crate::json::JsonObject;
use crate::jsonrpc::{RequestId, ResultResponse};
use crate::meta::{Meta, NotificationMeta, RequestMeta};
use crate::method::{TypedNotification, TypedRequest, methods, notifications, params};
use crate::result::ResultType;
use crate::version::Era;

/// Which notifications a listener wants, each opt-in (`SubscriptionFilter`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SubscriptionFilter {
    /// `notifications/tools/list_changed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools_list_changed: Option<bool>,
    /// `notifications/prompts/list_changed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompts_list_changed: Option<bool>,
    /// `notifications/resources/list_changed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources_list_changed: Option<bool>,
    /// `notifications/resources/updated` for these URIs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_subscriptions: Option<Vec<String>>,
    /// Filters added by extensions (such as `taskIds`), kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}

/// Params of `subscriptions/listen` (`SubscriptionsListenRequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SubscriptionsListenRequestParams {
    /// Request metadata.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// What to listen for.
    pub notifications: SubscriptionFilter,
}

/// The `_meta` of a listen result (`SubscriptionsListenResultMetaObject`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SubscriptionsListenResultMeta {
    /// The id of the listen request.
    #[serde(rename = "io.modelcontextprotocol/subscriptionId")]
    pub subscription_id: RequestId,
    /// The server's identity.
    #[serde(rename = "io.modelcontextprotocol/serverInfo")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_info: Option<crate::content::Implementation>,
    /// Every other key, kept as it came.
    #[serde(flatten)]
    pub extra: Meta,
}

/// The result that closes a listen stream gracefully (`SubscriptionsListenResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SubscriptionsListenResult {
    /// Carries the subscription id.
    #[serde(rename = "_meta")]
    pub meta: SubscriptionsListenResultMeta,
    /// The kind of result.
    #[serde(default)]
    pub result_type: ResultType,
}

/// Params of `notifications/subscriptions/acknowledged`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SubscriptionsAcknowledgedNotificationParams {
    /// Carries the subscription id.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// The part of the filter the server agreed to honour.
    pub notifications: SubscriptionFilter,
}

params!(
    SubscriptionsListenRequestParams,
    SubscriptionsAcknowledgedNotificationParams
);

methods! {
    /// `subscriptions/listen`: open a stream of change notifications.
    SubscriptionsListen = "subscriptions/listen" {
        params: SubscriptionsListenRequestParams,
        result: SubscriptionsListenResult,
        eras: Era::MODERN,
    }
}

notifications! {
    /// `notifications/subscriptions/acknowledged`: the first message of a listen stream.
    SubscriptionsAcknowledged = "notifications/subscriptions/acknowledged" {
        params: SubscriptionsAcknowledgedNotificationParams,
        eras: Era::MODERN,
    }
}

/// A `subscriptions/listen` request (`SubscriptionsListenRequest`).
pub type SubscriptionsListenRequest = TypedRequest<SubscriptionsListen>;
/// The response that closes a listen stream (`SubscriptionsListenResultResponse`).
pub type SubscriptionsListenResultResponse = ResultResponse<SubscriptionsListenResult>;
/// The acknowledgement (`SubscriptionsAcknowledgedNotification`).
pub type SubscriptionsAcknowledgedNotification = TypedNotification<SubscriptionsAcknowledged>;
