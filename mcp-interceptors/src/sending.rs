//! Running the declared interceptors on what the server sends its client:
//! the client features (`sampling/createMessage`, `elicitation/create`,
//! `roots/list`), as a sending interceptor of `mcp-server`. A request the
//! server sends (on a 2025-11-25 session, or inside a 2026-07-28
//! input-required result) passes the request phase on the sending side:
//! mutated, then validated. The client's answer passes the response phase
//! on the receiving side: validated, then mutated.

use std::sync::Arc;

use mcp_server::BoxFuture;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonValue;
use mcp_server::seam::interceptor::{Outbound, OutboundKind, SendingInterceptor};
use serde_json::json;

use crate::chain::{For, pass};
use crate::declare::Interceptors;
use crate::executor::Side;
use crate::host::Host;
use crate::observe;
use crate::wire::Phase;

/// The events of requests a server sends to its client.
pub const CLIENT_FEATURES: &[&str] =
    &["elicitation/create", "sampling/createMessage", "roots/list"];

/// Runs each client-feature request the server sends, and its answer,
/// through the chain of its event.
pub(crate) struct Sending {
    pub(crate) host: Arc<Host>,
}

impl SendingInterceptor for Sending {
    fn exchange<'a>(&'a self, message: &'a mut Outbound) -> BoxFuture<'a, Result<(), ErrorObject>> {
        let (phase, side) = match message.kind() {
            OutboundKind::Request | OutboundKind::InputRequest => (Phase::Request, Side::Sending),
            OutboundKind::Answer => (Phase::Response, Side::Receiving),
            _ => return Box::pin(std::future::ready(Ok(()))),
        };
        let Some(event) = CLIENT_FEATURES
            .iter()
            .copied()
            .find(|e| *e == message.method())
        else {
            return Box::pin(std::future::ready(Ok(())));
        };
        let Some(ctx) = message.ctx().cloned() else {
            return Box::pin(std::future::ready(Ok(())));
        };
        Box::pin(async move {
            let members = ctx.members::<Interceptors>();
            let chain = self.host.state(members).chains.of_event(event);
            let chain = match phase {
                Phase::Request => &chain.request,
                Phase::Response => &chain.response,
            };
            let params = JsonValue::Object(message.params().clone());
            let payload = match phase {
                Phase::Request => json!({"method": event, "params": params}),
                Phase::Response => params,
            };
            observe::notice(&ctx, event, phase, &payload);
            if chain.is_empty() {
                return Ok(());
            }
            let who = For {
                event,
                principal: ctx.principal(),
                request: None,
            };
            let passed = pass(chain, &who, phase, side, payload).await?;
            if !passed.modified {
                return Ok(());
            }
            let rewritten = match phase {
                Phase::Request => passed.payload.get("params").cloned(),
                Phase::Response => Some(passed.payload),
            };
            match rewritten {
                Some(JsonValue::Object(object)) => {
                    *message.params_mut() = object;
                    Ok(())
                }
                _ => Err(ErrorObject::internal_error(format!(
                    "Internal error: an interceptor rewrote a `{event}` payload into something that is not an object"
                ))),
            }
        })
    }
}
