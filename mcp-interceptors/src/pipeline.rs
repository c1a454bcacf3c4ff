//! Running the declared interceptors on the server's own requests: a raw
//! interceptor of `mcp-server`, so it sees every method as JSON and
//! rewrites params through `RawNext::run_with`.

use std::sync::Arc;

use mcp_server::BoxFuture;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonValue;
use mcp_server::seam::interceptor::{RawAnswer, RawCall, RawInterceptor, RawNext};
use serde_json::value::RawValue;

use crate::chain::{For, pass};
use crate::declare::Interceptors;
use crate::executor::Side;
use crate::host::Host;
use crate::observe;
use crate::wire::Phase;

/// Runs each request of a hooked event through its chain, and its result
/// back through it.
///
/// Only a call the caller may make is shown to interceptors: a call to an
/// unknown or hidden target, or with params that do not decode, answers as
/// it would without them. A rewritten request is decoded, resolved and
/// guarded again as written.
pub(crate) struct Pipeline {
    pub(crate) host: Arc<Host>,
}

impl RawInterceptor for Pipeline {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        if call.is_notification() {
            return next.run(call);
        }
        let ctx = call.ctx();
        let state = self.host.state(ctx.members::<Interceptors>());
        let chain = state.chains.of_event(call.method());
        let observed = observe::hooked(ctx, call.method());
        if chain.is_empty() && !observed {
            return next.run(call);
        }
        Box::pin(async move {
            let Ok(proof) = next.authorize(call) else {
                return next.run(call).await;
            };
            let mut who = For {
                event: call.method(),
                principal: ctx.principal(),
                request: None,
            };
            let params = match call.params() {
                Some(params) => serde_json::from_str(params.get()).map_err(internal)?,
                None => JsonValue::Object(Default::default()),
            };
            let request = serde_json::json!({"method": call.method(), "params": params});
            if observed {
                observe::notice(ctx, call.method(), Phase::Request, &request);
            }
            let answer = if chain.request.is_empty() {
                who.request = Some(Arc::new(request));
                next.run(call).await?
            } else {
                let passed = pass(
                    &chain.request,
                    &who,
                    Phase::Request,
                    Side::Receiving,
                    request,
                )
                .await?;
                let request = Arc::new(passed.payload);
                who.request = Some(request.clone());
                if passed.modified {
                    let params = request.get("params").unwrap_or(&JsonValue::Null);
                    next.run_with(call, encode(params)?).await?
                } else {
                    next.run(call).await?
                }
            };
            if chain.response.is_empty() && !observed {
                return Ok(answer);
            }
            let result: JsonValue =
                serde_json::from_str(answer.result().get()).map_err(internal)?;
            if observed {
                observe::notice(ctx, call.method(), Phase::Response, &result);
            }
            if chain.response.is_empty() {
                return Ok(answer);
            }
            let passed = pass(
                &chain.response,
                &who,
                Phase::Response,
                Side::Sending,
                result,
            )
            .await?;
            if !passed.modified {
                return Ok(answer);
            }
            Ok(proof.raw_answer(encode(&passed.payload)?))
        })
    }
}

fn encode(value: &JsonValue) -> Result<Box<RawValue>, ErrorObject> {
    serde_json::value::to_raw_value(value).map_err(internal)
}

fn internal(error: serde_json::Error) -> ErrorObject {
    ErrorObject::internal_error(format!("Internal error: {error}"))
}
