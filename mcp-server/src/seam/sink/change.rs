//! Changes: what listeners may hear of, as a notification and the topic a
//! listener's filter must hold to receive it.

use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::jsonrpc::Notification;

/// A change listeners may want to hear about: the notification that tells
/// of it, and the topic a listener's filter must hold to receive it.
///
/// Open: an extension publishes its own kinds (`Change::new`) without any
/// change to the framework. A 2026-07-28 listener receives a change when its
/// grant holds the topic ([`Topic::Flag`] for a boolean filter member such
/// as `toolsListChanged`, [`Topic::Item`] for an item of a list member such
/// as a URI of `resourceSubscriptions`); a 2025-11-25 session receives the
/// list changes, and the resource updates it subscribed to.
///
/// Changes serialize, so a [`ChangeSink`](super::ChangeSink) can carry them between instances.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Change {
    /// The notification's method, such as `notifications/tools/list_changed`.
    pub method: String,
    /// The notification's params, without `_meta`.
    #[serde(default)]
    pub params: JsonObject,
    /// What a listener's filter must hold to receive it.
    pub topic: Topic,
    /// Who on this instance may hear of it, when not everyone whose filter
    /// holds the topic: the runtime catalog's changes carry the guards of
    /// the members they touched. It stays on this instance.
    #[serde(skip)]
    pub(crate) audience: Audience,
}

/// Who on this instance may hear of a change; the dispatch layer, which
/// knows what a caller may see, sets and reads it.
#[derive(Clone, Default)]
pub(crate) struct Audience(pub(crate) Option<std::sync::Arc<dyn std::any::Any + Send + Sync>>);

impl std::fmt::Debug for Audience {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Audience(screened)"
        } else {
            "Audience(everyone)"
        })
    }
}

impl PartialEq for Audience {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// What a listener's filter must hold to receive a [`Change`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Topic {
    /// A boolean member of the filter, such as `toolsListChanged`.
    Flag(String),
    /// One item of a list member of the filter: `resourceSubscriptions`
    /// with a URI, or an extension's member with its id.
    Item {
        /// The filter member, such as `resourceSubscriptions`.
        member: String,
        /// The item, such as the resource's URI.
        item: String,
    },
}

/// The filter members of the framework's own changes.
pub mod filter {
    /// `notifications/tools/list_changed`.
    pub const TOOLS_LIST_CHANGED: &str = "toolsListChanged";
    /// `notifications/prompts/list_changed`.
    pub const PROMPTS_LIST_CHANGED: &str = "promptsListChanged";
    /// `notifications/resources/list_changed`.
    pub const RESOURCES_LIST_CHANGED: &str = "resourcesListChanged";
    /// `notifications/resources/updated`, by URI.
    pub const RESOURCE_SUBSCRIPTIONS: &str = "resourceSubscriptions";
}

impl Change {
    /// A change told by `method` to listeners whose filter holds `topic`.
    pub fn new(method: impl Into<String>, topic: Topic) -> Self {
        Self {
            method: method.into(),
            params: JsonObject::new(),
            topic,
            audience: Audience::default(),
        }
    }

    /// The same change with `params` (an object; anything else is dropped).
    #[must_use]
    pub fn with_params(mut self, params: impl serde::Serialize) -> Self {
        if let Ok(JsonValue::Object(params)) = serde_json::to_value(params) {
            self.params = params;
        }
        self
    }

    /// The tool list changed.
    pub fn tools_list_changed() -> Self {
        Self::flag(
            "notifications/tools/list_changed",
            filter::TOOLS_LIST_CHANGED,
        )
    }

    /// The prompt list changed.
    pub fn prompts_list_changed() -> Self {
        Self::flag(
            "notifications/prompts/list_changed",
            filter::PROMPTS_LIST_CHANGED,
        )
    }

    /// The resource list changed.
    pub fn resources_list_changed() -> Self {
        Self::flag(
            "notifications/resources/list_changed",
            filter::RESOURCES_LIST_CHANGED,
        )
    }

    /// The resource at `uri` changed.
    pub fn resource_updated(uri: impl Into<String>) -> Self {
        let uri = uri.into();
        Self::new(
            "notifications/resources/updated",
            Topic::Item {
                member: filter::RESOURCE_SUBSCRIPTIONS.into(),
                item: uri.clone(),
            },
        )
        .with_params(serde_json::json!({ "uri": uri }))
    }

    fn flag(method: &str, member: &str) -> Self {
        Self::new(method, Topic::Flag(member.into()))
    }

    /// The notification that tells of the change, with `_meta` when given.
    pub fn notification(&self, meta: Option<JsonValue>) -> Notification {
        let mut params = self.params.clone();
        if let Some(meta) = meta {
            params.insert("_meta".into(), meta);
        }
        Notification::new(&self.method, &params)
            .expect("an object of JSON values always serializes")
    }
}
