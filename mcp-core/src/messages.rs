//! The unions of messages each side sends: what a server must route and what
//! it may answer.
//!
//! ```
//! use mcp_core::messages::ClientRequest;
//!
//! let request: ClientRequest = serde_json::from_value(serde_json::json!({
//!     "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}
//! })).unwrap();
//! assert!(matches!(request, ClientRequest::ListTools(_)));
//! assert_eq!(request.method(), "tools/list");
//! ```

use serde::{Deserialize, Serialize};

use crate::cancellation::CancelledNotification;
use crate::completion::{CompleteRequest, CompleteResult};
use crate::discover::{DiscoverRequest, DiscoverResult};
use crate::jsonrpc;
use crate::logging::LoggingMessageNotification;
use crate::method::{Method, NotificationMethod, TypedNotification, TypedRequest};
use crate::mrtr::InputRequiredResult;
use crate::progress::ProgressNotification;
use crate::prompts::{
    GetPromptRequest, GetPromptResult, ListPromptsRequest, ListPromptsResult,
    PromptListChangedNotification,
};
use crate::resources::{
    ListResourceTemplatesRequest, ListResourceTemplatesResult, ListResourcesRequest,
    ListResourcesResult, ReadResourceRequest, ReadResourceResult, ResourceListChangedNotification,
    ResourceUpdatedNotification,
};
use crate::result::EmptyResult;
use crate::subscriptions::{
    SubscriptionsAcknowledgedNotification, SubscriptionsListenRequest, SubscriptionsListenResult,
};
use crate::tools::{
    CallToolRequest, CallToolResult, ListToolsRequest, ListToolsResult, ToolListChangedNotification,
};

/// Declares a union of typed requests or notifications, decoded by `method`.
macro_rules! method_union {
    (
        $(#[$attr:meta])*
        $name:ident: $envelope:ident => $trait:ident {
            $($(#[$vattr:meta])* $variant:ident($ty:ty)),* $(,)?
        }
    ) => {
        $(#[$attr])*
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(untagged)]
        #[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
        pub enum $name {
            $($(#[$vattr])* $variant($ty),)*
        }

        impl $name {
            /// The wire name of the method.
            pub fn method(&self) -> &'static str {
                match self {
                    $(Self::$variant(_) => <<$ty as Typed>::Tag as $trait>::NAME,)*
                }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                use serde::de::Error;
                let raw = jsonrpc::$envelope::deserialize(deserializer)?;
                let text = serde_json::to_string(&raw).map_err(D::Error::custom)?;
                $(
                    if raw.method == <<$ty as Typed>::Tag as $trait>::NAME {
                        return serde_json::from_str(&text).map(Self::$variant).map_err(D::Error::custom);
                    }
                )*
                Err(D::Error::custom(format_args!("unknown method `{}`", raw.method)))
            }
        }
    };
}

/// The tag of a typed envelope.
trait Typed {
    type Tag;
}

impl<M: Method> Typed for TypedRequest<M> {
    type Tag = M;
}

impl<N: NotificationMethod> Typed for TypedNotification<N> {
    type Tag = N;
}

method_union! {
    /// Every request a 2026-07-28 client may send (`ClientRequest`).
    ClientRequest: Request => Method {
        /// `server/discover`.
        Discover(DiscoverRequest),
        /// `completion/complete`.
        Complete(CompleteRequest),
        /// `prompts/get`.
        GetPrompt(GetPromptRequest),
        /// `prompts/list`.
        ListPrompts(ListPromptsRequest),
        /// `resources/list`.
        ListResources(ListResourcesRequest),
        /// `resources/templates/list`.
        ListResourceTemplates(ListResourceTemplatesRequest),
        /// `resources/read`.
        ReadResource(ReadResourceRequest),
        /// `subscriptions/listen`.
        SubscriptionsListen(SubscriptionsListenRequest),
        /// `tools/call`.
        CallTool(CallToolRequest),
        /// `tools/list`.
        ListTools(ListToolsRequest),
    }
}

method_union! {
    /// Every notification a 2026-07-28 server may send (`ServerNotification`).
    ServerNotification: Notification => NotificationMethod {
        /// `notifications/cancelled` (ends a listen stream on stdio).
        Cancelled(CancelledNotification),
        /// `notifications/progress`.
        Progress(ProgressNotification),
        /// `notifications/message`.
        LoggingMessage(LoggingMessageNotification),
        /// `notifications/resources/updated`.
        ResourceUpdated(ResourceUpdatedNotification),
        /// `notifications/resources/list_changed`.
        ResourceListChanged(ResourceListChangedNotification),
        /// `notifications/tools/list_changed`.
        ToolListChanged(ToolListChangedNotification),
        /// `notifications/prompts/list_changed`.
        PromptListChanged(PromptListChangedNotification),
        /// `notifications/subscriptions/acknowledged`.
        SubscriptionsAcknowledged(SubscriptionsAcknowledgedNotification),
    }
}

/// Every notification a 2026-07-28 client may send (`ClientNotification`).
pub type ClientNotification = CancelledNotification;

/// What a client may answer (`ClientResult`).
pub type ClientResult = EmptyResult;

/// Every result a 2026-07-28 server may send (`ServerResult`).
///
/// Results carry no method name, so decoding tries the shapes from the most
/// specific to [`EmptyResult`], which accepts any result.
#[allow(
    clippy::large_enum_variant,
    reason = "a decoded message, moved once; boxing would cost every caller a `Box` pattern"
)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum ServerResult {
    /// `input_required`.
    InputRequired(InputRequiredResult),
    /// `server/discover`.
    Discover(DiscoverResult),
    /// `completion/complete`.
    Complete(CompleteResult),
    /// `prompts/get`.
    GetPrompt(GetPromptResult),
    /// `prompts/list`.
    ListPrompts(ListPromptsResult),
    /// `resources/templates/list`.
    ListResourceTemplates(ListResourceTemplatesResult),
    /// `resources/list`.
    ListResources(ListResourcesResult),
    /// `resources/read`.
    ReadResource(ReadResourceResult),
    /// `subscriptions/listen`, closing the stream.
    SubscriptionsListen(SubscriptionsListenResult),
    /// `tools/call`.
    CallTool(CallToolResult),
    /// `tools/list`.
    ListTools(ListToolsResult),
    /// Any other result.
    Empty(EmptyResult),
}
