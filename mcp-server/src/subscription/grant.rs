//! Grants: what one listener may receive. The framework grants its own
//! filter members (the list changes the server has, the resources the
//! caller may see); grant processors, contributed by any crate, grant their
//! own members (an extension's `jobIds`) and may take back what the
//! framework granted (a policy that lets no anonymous caller listen for
//! resource updates).

use std::fmt;
use std::sync::Arc;

use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::subscriptions::SubscriptionFilter;

use crate::context::RequestContext;
use crate::future::BoxFuture;
use crate::seam::{Kind, SeamWord};
use crate::sink::{Change, Topic};

/// What one listener was granted: boolean filter members, and items of
/// list members. The acknowledgement echoes it as the filter honoured.
///
/// Kept for as long as its stream is open, so it is small: sorted vectors.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grant {
    /// Sorted, without duplicates.
    flags: Vec<String>,
    /// By member, sorted; each member's items sorted, without duplicates.
    items: Vec<(String, Vec<String>)>,
}

/// Inserts `value` into the sorted `set` unless it is there.
fn insert_sorted(set: &mut Vec<String>, value: String) {
    if let Err(at) = set.binary_search(&value) {
        set.insert(at, value);
    }
}

impl Grant {
    /// Grants a boolean member, such as `toolsListChanged`.
    pub fn allow_flag(&mut self, member: impl Into<String>) {
        insert_sorted(&mut self.flags, member.into());
    }

    /// Grants one item of a list member, such as a URI of `resourceSubscriptions`.
    pub fn allow_item(&mut self, member: impl Into<String>, item: impl Into<String>) {
        let member = member.into();
        let at = match self.items.binary_search_by(|(m, _)| m.cmp(&member)) {
            Ok(at) => at,
            Err(at) => {
                self.items.insert(at, (member, Vec::new()));
                at
            }
        };
        insert_sorted(&mut self.items[at].1, item.into());
    }

    fn member(&self, member: &str) -> Option<&Vec<String>> {
        self.items
            .binary_search_by(|(m, _)| m.as_str().cmp(member))
            .ok()
            .map(|at| &self.items[at].1)
    }

    /// Takes back a boolean member.
    pub fn revoke_flag(&mut self, member: &str) {
        self.flags.retain(|f| f != member);
    }

    /// Takes back one item of a list member.
    pub fn revoke_item(&mut self, member: &str, item: &str) {
        if let Ok(at) = self.items.binary_search_by(|(m, _)| m.as_str().cmp(member)) {
            self.items[at].1.retain(|i| i != item);
            if self.items[at].1.is_empty() {
                self.items.remove(at);
            }
        }
    }

    /// Whether a boolean member is granted.
    pub fn has_flag(&self, member: &str) -> bool {
        self.flags.iter().any(|f| f == member)
    }

    /// The granted items of a list member.
    pub fn items(&self, member: &str) -> impl Iterator<Item = &str> {
        self.member(member)
            .into_iter()
            .flat_map(|items| items.iter().map(String::as_str))
    }

    /// Whether the listener receives `change`.
    pub fn admits(&self, change: &Change) -> bool {
        match &change.topic {
            Topic::Flag(member) => self.has_flag(member),
            Topic::Item { member, item } => self
                .member(member)
                .is_some_and(|items| items.binary_search(item).is_ok()),
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

    /// Grants, for a processor that must look something up first (who
    /// owns the items asked for, in a store). The listen handler calls
    /// this; by default it calls [`grant`](Self::grant). A processor that
    /// refuses the whole request (a filter member the client may not use)
    /// escalates the error on `request.context()`, and the request fails
    /// with it before anything is acknowledged.
    fn grant_async<'a>(
        &'a self,
        request: &'a ListenRequest<'a>,
        grant: &'a mut Grant,
    ) -> BoxFuture<'a, ()> {
        self.grant(request, grant);
        Box::pin(std::future::ready(()))
    }
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
