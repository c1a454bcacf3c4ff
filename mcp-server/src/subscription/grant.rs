//! Grants: what one listener may receive. The framework grants its own
//! filter members (the list changes the server has, the resources the
//! caller may see); grant processors, contributed by any crate, grant their
//! own members (an extension's `taskIds`) and may take back what the
//! framework granted (a policy that lets no anonymous caller listen for
//! resource updates).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::subscriptions::SubscriptionFilter;

use crate::context::RequestContext;
use crate::seam::{Kind, SeamWord};
use crate::sink::{Change, Topic};

/// What one listener was granted: boolean filter members, and items of
/// list members. The acknowledgement echoes it as the filter honoured.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grant {
    flags: BTreeSet<String>,
    items: BTreeMap<String, BTreeSet<String>>,
}

impl Grant {
    /// Grants a boolean member, such as `toolsListChanged`.
    pub fn allow_flag(&mut self, member: impl Into<String>) {
        self.flags.insert(member.into());
    }

    /// Grants one item of a list member, such as a URI of `resourceSubscriptions`.
    pub fn allow_item(&mut self, member: impl Into<String>, item: impl Into<String>) {
        self.items
            .entry(member.into())
            .or_default()
            .insert(item.into());
    }

    /// Takes back a boolean member.
    pub fn revoke_flag(&mut self, member: &str) {
        self.flags.remove(member);
    }

    /// Takes back one item of a list member.
    pub fn revoke_item(&mut self, member: &str, item: &str) {
        if let Some(items) = self.items.get_mut(member) {
            items.remove(item);
            if items.is_empty() {
                self.items.remove(member);
            }
        }
    }

    /// Whether a boolean member is granted.
    pub fn has_flag(&self, member: &str) -> bool {
        self.flags.contains(member)
    }

    /// The granted items of a list member.
    pub fn items(&self, member: &str) -> impl Iterator<Item = &str> {
        self.items
            .get(member)
            .into_iter()
            .flat_map(|items| items.iter().map(String::as_str))
    }

    /// Whether the listener receives `change`.
    pub fn admits(&self, change: &Change) -> bool {
        match &change.topic {
            Topic::Flag(member) => self.flags.contains(member),
            Topic::Item { member, item } => self
                .items
                .get(member)
                .is_some_and(|items| items.contains(item)),
        }
    }

    /// Whether nothing is granted.
    pub fn is_empty(&self) -> bool {
        self.flags.is_empty() && self.items.is_empty()
    }

    /// The grant as the filter the acknowledgement echoes.
    pub fn to_filter(&self) -> SubscriptionFilter {
        let mut object = JsonObject::new();
        for flag in &self.flags {
            object.insert(flag.clone(), JsonValue::Bool(true));
        }
        for (member, items) in &self.items {
            object.insert(
                member.clone(),
                JsonValue::Array(items.iter().cloned().map(JsonValue::String).collect()),
            );
        }
        serde_json::from_value(JsonValue::Object(object)).unwrap_or_default()
    }
}

/// One `subscriptions/listen` request, as grant processors see it.
pub struct ListenRequest<'a> {
    pub(crate) ctx: &'a RequestContext,
    pub(crate) requested: &'a SubscriptionFilter,
    pub(crate) members: JsonObject,
}

impl fmt::Debug for ListenRequest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ListenRequest")
            .field("requested", &self.requested)
            .finish_non_exhaustive()
    }
}

impl<'a> ListenRequest<'a> {
    pub(crate) fn new(ctx: &'a RequestContext, requested: &'a SubscriptionFilter) -> Self {
        let members = match serde_json::to_value(requested) {
            Ok(JsonValue::Object(members)) => members,
            _ => JsonObject::new(),
        };
        Self {
            ctx,
            requested,
            members,
        }
    }

    /// The request's context: who is listening, with what capabilities.
    pub fn context(&self) -> &RequestContext {
        self.ctx
    }

    /// The filter as the client sent it.
    pub fn requested(&self) -> &SubscriptionFilter {
        self.requested
    }

    /// Whether the client asked for boolean member `member` (`true`).
    pub fn asks_flag(&self, member: &str) -> bool {
        self.members.get(member) == Some(&JsonValue::Bool(true))
    }

    /// The items the client asked for under list member `member`.
    pub fn asks_items(&self, member: &str) -> impl Iterator<Item = &str> {
        self.members
            .get(member)
            .and_then(JsonValue::as_array)
            .into_iter()
            .flatten()
            .filter_map(JsonValue::as_str)
    }
}

/// Decides, per listener, what it may receive: grants its crate's own
/// filter members, and may take back what was granted before it.
///
/// Contributed by any crate as a member of [`GrantProcessors`]; they run
/// after the framework's own grant, in the order of their names.
///
/// ```
/// use std::sync::Arc;
/// use mcp_server::subscription::{Grant, GrantProcessor, GrantProcessors, ListenRequest};
/// use mcp_server::seam::Member;
///
/// /// Grants `jobIds` items to the caller who owns them (here: ids that
/// /// start with the caller's name).
/// struct Jobs;
///
/// impl GrantProcessor for Jobs {
///     fn grant(&self, request: &ListenRequest<'_>, grant: &mut Grant) {
///         let who = request.context().principal().subject.clone().unwrap_or_default();
///         for id in request.asks_items("jobIds") {
///             if id.starts_with(&who) {
///                 grant.allow_item("jobIds", id);
///             }
///         }
///     }
/// }
///
/// let member = Member::new::<GrantProcessors>(("jobs".into(), Arc::new(Jobs)));
/// # let _ = member;
/// ```
pub trait GrantProcessor: Send + Sync + 'static {
    /// Grants into `grant` what of `request` this listener may receive.
    fn grant(&self, request: &ListenRequest<'_>, grant: &mut Grant);
}

/// The registration kind of grant processors: members are `(name,
/// processor)`, run in name order; two of one name fail boot.
#[derive(Debug)]
pub struct GrantProcessors;

impl Kind for GrantProcessors {
    type Member = (String, Arc<dyn GrantProcessor>);
    const NAME: &'static str = "grant processor";
    const CODE: &'static str = "mcp::duplicate_grant_processor";
    const WORD: SeamWord = SeamWord::Customizer;
    fn key(member: &Self::Member) -> String {
        member.0.clone()
    }
}
