//! The handler of `subscriptions/listen`: grants, acknowledges, then
//! forwards what the grant admits until the client goes away or the
//! server ends the subscription.

use std::sync::Arc;
use std::time::Duration;

use mcp_core::error::ErrorObject;
use mcp_core::jsonrpc::Notification;
use mcp_core::meta::Meta;
use mcp_core::method::Method;
use mcp_core::result::ResultType;
use mcp_core::subscriptions::{
    SubscriptionsListen, SubscriptionsListenResult, SubscriptionsListenResultMeta,
};
use serde_json::json;

use super::listed::Audience;
use super::route::Route;
use crate::context::RequestContext;
use crate::handler::{Handler, HandlerResult};
use crate::seam::sink::hub::{Closed, Hub, Listener};
use crate::seam::sink::{Grant, GrantCustomizers, ListenRequest, filter};
use crate::vocabulary::BoxFuture;

/// The `_meta` member naming the subscription a notification belongs to.
pub(crate) const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// Unread messages on a listen stream before it stops taking changes off
/// its queue (which then fills, and the listener is closed as too slow).
const MAX_UNREAD: usize = 64;

/// What the server offers that listeners may hear of.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Offers {
    pub(crate) tools: bool,
    pub(crate) prompts: bool,
    pub(crate) resources: bool,
}

/// The handler of `subscriptions/listen`.
pub(crate) struct Listen {
    pub(crate) hub: Arc<Hub>,
    pub(crate) offers: Offers,
    /// The route of `resources/read`, whose guards say which resources a
    /// caller may hear of.
    pub(crate) reads: Option<Arc<dyn Route>>,
}

impl Listen {
    /// What the framework grants of its own members.
    fn core_grant(&self, request: &ListenRequest<'_>) -> Grant {
        let mut grant = Grant::default();
        let flags = [
            (filter::TOOLS_LIST_CHANGED, self.offers.tools),
            (filter::PROMPTS_LIST_CHANGED, self.offers.prompts),
            (filter::RESOURCES_LIST_CHANGED, self.offers.resources),
        ];
        for (member, offered) in flags {
            if offered && request.asks_flag(member) {
                grant.allow_flag(member);
            }
        }
        if self.offers.resources {
            for uri in request.asks_items(filter::RESOURCE_SUBSCRIPTIONS) {
                if !self.hidden(request.context(), uri) {
                    grant.allow_item(filter::RESOURCE_SUBSCRIPTIONS, uri);
                }
            }
        }
        grant
    }

    /// Whether the guards hide the resource at `uri` from this caller.
    fn hidden(&self, ctx: &RequestContext, uri: &str) -> bool {
        crate::dispatch::hides_resource(self.reads.as_ref(), ctx, uri)
    }

    /// Waits while the client has not read what was sent; `false` when
    /// the listener fell behind meanwhile (or the client is gone).
    async fn room(ctx: &RequestContext, listener: &Listener) -> bool {
        while ctx.backlog() > MAX_UNREAD {
            if listener.lagged() || ctx.is_cancelled() {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        true
    }
}

impl Handler<SubscriptionsListen> for Listen {
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: <SubscriptionsListen as Method>::Params,
    ) -> BoxFuture<'a, HandlerResult<SubscriptionsListenResult>> {
        Box::pin(async move {
            let Some(id) = ctx.id().cloned() else {
                return Err(ErrorObject::invalid_request(
                    "subscriptions/listen is a request: it needs an id",
                ));
            };
            // What granting needs is dropped before the stream settles in:
            // a held stream keeps only its listener and the subscription id.
            let mut listener = {
                let request = ListenRequest::new(ctx, &params.notifications);
                let mut grant = self.core_grant(&request);
                for (_, processor) in ctx.members::<GrantCustomizers>() {
                    processor.grant_async(&request, &mut grant).await;
                }
                if let Some(refused) = ctx.take_escalation() {
                    return Err(refused);
                }
                let filter = grant.to_filter();
                let Some(listener) = self.hub.attach(Arc::new(grant)) else {
                    return Err(ErrorObject::internal_error(format!(
                        "Too many listeners: {} subscriptions/listen streams are open; retry later",
                        self.hub.cap()
                    ))
                    .with_data(json!({ "reason": "too_many_listeners" })));
                };
                let ack = json!({ "_meta": { SUBSCRIPTION_ID: &id }, "notifications": filter });
                if let Ok(ack) = Notification::new("notifications/subscriptions/acknowledged", &ack)
                {
                    ctx.send(ack);
                }
                listener
            };
            drop(params);
            loop {
                let next = tokio::select! {
                    () = ctx.cancellation().cancelled() => {
                        return Err(ErrorObject::internal_error("The subscription was cancelled"));
                    }
                    next = listener.next() => next,
                };
                let next = match next {
                    Ok(change) if Self::room(ctx, &listener).await => Ok(change),
                    Ok(_) => Err(Closed::Lagged),
                    Err(closed) => Err(closed),
                };
                match next {
                    Ok(change) if !Audience::admits(&change, ctx) => {}
                    Ok(change) => {
                        ctx.send(change.notification(Some(json!({ SUBSCRIPTION_ID: &id }))));
                    }
                    Err(Closed::Ending) => {
                        return Ok(SubscriptionsListenResult {
                            meta: SubscriptionsListenResultMeta {
                                subscription_id: id,
                                server_info: None,
                                extra: Meta::default(),
                            },
                            result_type: ResultType::COMPLETE,
                        }
                        .into());
                    }
                    Err(Closed::Lagged) => {
                        return Err(ErrorObject::internal_error(
                            "Subscription closed: the listener fell behind and notifications were lost; \
                             listen again and fetch what it follows anew",
                        )
                        .with_data(json!({ "reason": "lagged" })));
                    }
                }
            }
        })
    }
}
