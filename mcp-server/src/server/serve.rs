//! Serving an admitted request: a multi round-trip exchange opened, the raw
//! interceptors and the method's route run, and what they made checked on
//! its way out.

use mcp_core::error::ErrorObject;
use mcp_core::jsonrpc::{self, Message, Request};
use mcp_core::version::Era;
use serde_json::value::RawValue;

use super::admission::Admitted;
use super::outcome::{Outcome, ResultText, encode_error};
use super::peer::Peer;
use super::{Server, unwound};
use crate::context::RequestContext;
use crate::dispatch::rounds::{self, Binding, INPUT_METHODS};
use crate::dispatch::{Pipeline, Route};
use crate::seam::interceptor::{End, RawCall, RawNext};

/// Tells the sending interceptors how a request ended, when it does: its
/// future completing, or being dropped.
struct Ending<'a> {
    ctx: &'a RequestContext,
    end: End,
}

impl Drop for Ending<'_> {
    fn drop(&mut self) {
        self.ctx.end_sending(self.end);
    }
}

impl Server {
    /// Serves an admitted request: its result or its error, in its era.
    /// Whatever the request sends on its way (progress, log messages,
    /// requests to the client) goes to its peer's sinks as it is made.
    pub async fn serve(&self, admitted: Admitted) -> Outcome {
        let Admitted {
            id,
            params,
            route,
            ctx,
        } = admitted;
        let era = ctx.era();
        // Cancelled, unless the request gets as far as its answer.
        let mut ending = Ending {
            ctx: &ctx,
            end: End::Cancelled,
        };
        let result = unwound(self.run(params.as_deref(), &*route, &ctx))
            .await
            .map(|result| ResultText::of(result, era, &self.inner));
        ending.end = if result.is_ok() {
            End::Completed
        } else {
            End::Failed
        };
        drop(ending);
        Outcome::new(id, era, result)
    }

    /// Serves one message: a request gets its encoded response; a
    /// notification goes through the raw interceptors and gets `None`, as
    /// does a response; bytes that are not a message get the error response.
    pub async fn handle(&self, bytes: &[u8], peer: &Peer) -> Option<Vec<u8>> {
        match jsonrpc::decode(bytes) {
            Ok(Message::Request(request)) => Some(self.handle_request(request, peer).await),
            Ok(Message::Notification(notification)) => {
                self.admit_notification(&notification, peer).await;
                None
            }
            Ok(Message::Response(_)) => None,
            Err(error) => Some(encode_error(error.id, error.error)),
        }
    }

    /// Admits and serves one decoded request; the encoded response.
    pub async fn handle_request(&self, request: Request, peer: &Peer) -> Vec<u8> {
        match self.admit(request, peer, None).await {
            Ok(admitted) => self.serve(admitted).await.encode(),
            Err(refusal) => refusal.into_outcome().encode(),
        }
    }

    async fn run(
        &self,
        params: Option<&RawValue>,
        route: &dyn Route,
        ctx: &RequestContext,
    ) -> Result<Box<RawValue>, ErrorObject> {
        // A retry's state is checked, and claimed, before anything runs.
        let binding =
            (ctx.era() == Era::Modern && INPUT_METHODS.contains(&ctx.method())).then(|| Binding {
                method: ctx.method(),
                target_member: route.target_member(),
                principal: ctx.principal().subject.as_deref(),
                params,
            });
        if let Some(binding) = &binding {
            ctx.set_exchange(rounds::begin(binding, &self.inner.rounds).await?);
        }
        let call = RawCall::new(ctx, params);
        let pipeline = Pipeline::request(&self.inner.raw, route);
        let answer = RawNext::new(&pipeline, 0).run(&call).await;
        // A failure that belongs to the protocol (a missing client
        // capability) wins over whatever the handler made of it.
        if let Some(error) = ctx.take_escalation() {
            return Err(error);
        }
        // Questions without answers end the request, whatever it returned;
        // but a target the caller cannot see (hidden or absent) answers as
        // an unknown one, even when an interceptor outside the guards asked
        // something first.
        if let (Some(binding), Some(exchange)) = (&binding, ctx.exchange())
            && let Some(input_required) = rounds::outcome(exchange, binding, &self.inner.rounds)
        {
            if let Some(hidden) = route.unseen(ctx, params) {
                return Err(hidden);
            }
            return Ok(input_required);
        }
        let answer = answer?;
        ctx.key().check(answer.key)?;
        let result = if answer.taken_over {
            route.screen(ctx, answer.into_result())?
        } else {
            answer.into_result()
        };
        ctx.commit();
        Ok(result)
    }
}
