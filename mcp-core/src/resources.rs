//! Resources: listing, templates, reading, and change notifications.
//!
//! ```
//! use mcp_core::resources::ResourceContents;
//!
//! let contents = ResourceContents::text("file:///notes.txt", "hello");
//! assert_eq!(
//!     serde_json::to_value(&contents).unwrap(),
//!     serde_json::json!({"uri": "file:///notes.txt", "text": "hello"}),
//! );
//! ```

use serde::{Deserialize, Serialize};

use crate::content::{Annotations, Icon};
use crate::jsonrpc::ResultResponse;
use crate::meta::{Meta, NotificationMeta, RequestMeta, ResultMeta};
use crate::method::{TypedNotification, TypedRequest, methods, notifications, params};
use crate::mrtr::InputResponses;
use crate::pagination::{Cursor, NotificationParams, PaginatedRequestParams};
use crate::result::{CacheScope, Outcome, ResultType};
use crate::tag::wire_tag;
use crate::version::Era;

/// A resource the server can read (`Resource`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Resource {
    /// The URI.
    pub uri: String,
    /// The programmatic name.
    pub name: String,
    /// The human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Icons for the resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// What the resource is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Usage hints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// The size in bytes before any encoding, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

wire_tag!(
    /// `"type": "resource_link"`.
    ResourceLinkTag = "resource_link"
);

/// A link to a resource, as content (`ResourceLink`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ResourceLink {
    /// Always `resource_link`.
    #[serde(rename = "type")]
    pub kind: ResourceLinkTag,
    /// The URI.
    pub uri: String,
    /// The programmatic name.
    pub name: String,
    /// The human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Icons for the resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// What the resource is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Usage hints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// The size in bytes before any encoding, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A family of resources named by an RFC 6570 URI template (`ResourceTemplate`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ResourceTemplate {
    /// The URI template.
    pub uri_template: String,
    /// The programmatic name.
    pub name: String,
    /// The human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Icons for the template.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// What the resources are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type of every matching resource, if they share one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Usage hints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Text contents of a resource (`TextResourceContents`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TextResourceContents {
    /// The URI.
    pub uri: String,
    /// The MIME type, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// The text.
    pub text: String,
}

/// Binary contents of a resource, base64-encoded (`BlobResourceContents`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct BlobResourceContents {
    /// The URI.
    pub uri: String,
    /// The MIME type, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// The base64-encoded bytes.
    pub blob: String,
}

/// The contents of a resource: text or binary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum ResourceContents {
    /// Text.
    Text(TextResourceContents),
    /// Binary.
    Blob(BlobResourceContents),
}

impl ResourceContents {
    /// Text contents at `uri`.
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Self {
        Self::Text(TextResourceContents {
            uri: uri.into(),
            text: text.into(),
            ..Default::default()
        })
    }

    /// Binary contents at `uri`, already base64-encoded.
    pub fn blob(uri: impl Into<String>, base64: impl Into<String>) -> Self {
        Self::Blob(BlobResourceContents {
            uri: uri.into(),
            blob: base64.into(),
            ..Default::default()
        })
    }

    /// The URI.
    pub fn uri(&self) -> &str {
        match self {
            Self::Text(c) => &c.uri,
            Self::Blob(c) => &c.uri,
        }
    }
}

/// The members every resource contents shares (`ResourceContents`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ResourceContentsBase {
    /// The URI.
    pub uri: String,
    /// The MIME type, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The result of `resources/list` (`ListResourcesResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ListResourcesResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// The kind of result.
    #[serde(default)]
    pub result_type: ResultType,
    /// The resources on this page.
    pub resources: Vec<Resource>,
    /// Where the next page starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<Cursor>,
    /// How long the list stays fresh, in milliseconds: required in 2026-07-28, absent in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may share the cached list: required in 2026-07-28, absent in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
}

/// The result of `resources/templates/list` (`ListResourceTemplatesResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ListResourceTemplatesResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// The kind of result.
    #[serde(default)]
    pub result_type: ResultType,
    /// The templates on this page.
    pub resource_templates: Vec<ResourceTemplate>,
    /// Where the next page starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<Cursor>,
    /// How long the list stays fresh, in milliseconds: required in 2026-07-28, absent in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may share the cached list: required in 2026-07-28, absent in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
}

/// Params naming one resource (`ResourceRequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ResourceRequestParams {
    /// Request metadata: required in 2026-07-28, optional in 2025-11-25.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// The resource's URI.
    pub uri: String,
}

/// Params of `resources/read` (`ReadResourceRequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ReadResourceRequestParams {
    /// Request metadata: required in 2026-07-28, optional in 2025-11-25.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// The resource's URI.
    pub uri: String,
    /// MRTR: answers to the input requests of an earlier attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// MRTR: the state echoed from an earlier attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
}

/// The result of `resources/read` (`ReadResourceResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ReadResourceResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// The kind of result.
    #[serde(default)]
    pub result_type: ResultType,
    /// The contents: one or more, for the resource and any it contains.
    pub contents: Vec<ResourceContents>,
    /// How long the contents stay fresh, in milliseconds: required in 2026-07-28, absent in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may share the cached contents: required in 2026-07-28, absent in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
}

/// Params of `notifications/resources/updated` (`ResourceUpdatedNotificationParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ResourceUpdatedNotificationParams {
    /// Notification metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// The URI of the resource that changed.
    pub uri: String,
}

params!(
    ResourceRequestParams,
    ReadResourceRequestParams,
    ResourceUpdatedNotificationParams
);

methods! {
    /// `resources/list`: the resources a client may read, paginated.
    ListResources = "resources/list" {
        params: PaginatedRequestParams,
        result: ListResourcesResult,
        eras: Era::ALL,
    }
    /// `resources/templates/list`: the resource templates, paginated.
    ListResourceTemplates = "resources/templates/list" {
        params: PaginatedRequestParams,
        result: ListResourceTemplatesResult,
        eras: Era::ALL,
    }
    /// `resources/read`: read a resource.
    ReadResource = "resources/read" {
        params: ReadResourceRequestParams,
        result: ReadResourceResult,
        eras: Era::ALL,
        target: "uri",
    }
}

notifications! {
    /// `notifications/resources/list_changed`: the resource list changed.
    ResourceListChanged = "notifications/resources/list_changed" {
        params: Option<NotificationParams>,
        eras: Era::ALL,
    }
    /// `notifications/resources/updated`: a subscribed resource changed.
    ResourceUpdated = "notifications/resources/updated" {
        params: ResourceUpdatedNotificationParams,
        eras: Era::ALL,
    }
}

/// A `resources/list` request (`ListResourcesRequest`).
pub type ListResourcesRequest = TypedRequest<ListResources>;
/// A `resources/templates/list` request (`ListResourceTemplatesRequest`).
pub type ListResourceTemplatesRequest = TypedRequest<ListResourceTemplates>;
/// A `resources/read` request (`ReadResourceRequest`).
pub type ReadResourceRequest = TypedRequest<ReadResource>;
/// The response to `resources/list` (`ListResourcesResultResponse`).
pub type ListResourcesResultResponse = ResultResponse<ListResourcesResult>;
/// The response to `resources/templates/list` (`ListResourceTemplatesResultResponse`).
pub type ListResourceTemplatesResultResponse = ResultResponse<ListResourceTemplatesResult>;
/// The response to `resources/read` (`ReadResourceResultResponse`).
pub type ReadResourceResultResponse = ResultResponse<Outcome<ReadResourceResult>>;
/// A `notifications/resources/list_changed` notification (`ResourceListChangedNotification`).
pub type ResourceListChangedNotification = TypedNotification<ResourceListChanged>;
/// A `notifications/resources/updated` notification (`ResourceUpdatedNotification`).
pub type ResourceUpdatedNotification = TypedNotification<ResourceUpdated>;
