//! Grant customizers: what any crate adds to, or takes from, what one
//! listener is granted. The framework grants its own filter members (the
//! list changes the server has, the resources the caller may see); grant
//! processors grant their own members (an extension's `jobIds`) and may
//! take back what the framework granted (a policy that lets no anonymous
//! caller listen for resource updates).

use std::fmt;
use std::sync::Arc;

use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::subscriptions::SubscriptionFilter;

use super::grant::Grant;
use crate::context::RequestContext;
use crate::vocabulary::BoxFuture;
use crate::vocabulary::seam::{Kind, SeamWord};

/// One `subscriptions/listen` request, as grant customizers see it.
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
/// Contributed by any crate as a member of [`GrantCustomizers`]; they run
/// after the framework's own grant, in the order of their names.
///
/// **Experimental**: the contract may change before 1.0, and the boot
/// report marks its members `(experimental)`.
/// - *Ordering*: members fold in the order of their names, after the
///   framework's own grant.
/// - *Replacement*: each sees the grant as the ones before left it, and may
///   add items or take back anything granted; the last word is the last
///   member's.
/// - *Transport limits*: a grant decides only what a 2026-07-28
///   `subscriptions/listen` stream hears; 2025-11-25 sessions hear what
///   they subscribed to or follow.
///
/// ```
/// use std::sync::Arc;
/// use mcp_server::seam::Item;
/// use mcp_server::seam::sink::{Grant, GrantCustomizer, GrantCustomizers, ListenRequest};
///
/// /// Grants `jobIds` items to the caller who owns them (here: ids that
/// /// start with the caller's name).
/// struct Jobs;
///
/// impl GrantCustomizer for Jobs {
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
/// let item = Item::member::<GrantCustomizers>(("jobs".into(), Arc::new(Jobs)));
/// # let _ = item;
/// ```
pub trait GrantCustomizer: Send + Sync + 'static {
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

/// The registration kind of grant customizers: members are `(name,
/// processor)`, run in name order; two of one name fail boot.
#[derive(Debug)]
pub struct GrantCustomizers;

impl Kind for GrantCustomizers {
    type Member = (String, Arc<dyn GrantCustomizer>);
    const NAME: &'static str = "grant customizer";
    const EXPERIMENTAL: bool = true;
    const CODE: &'static str = "mcp::duplicate_grant_customizer";
    const WORD: SeamWord = SeamWord::Customizer;
    fn key(member: &Self::Member) -> String {
        member.0.clone()
    }
}
