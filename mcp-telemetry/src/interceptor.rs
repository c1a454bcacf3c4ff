//! The outermost raw interceptor: one span and one metric point for every
//! request and client notification, around the whole pipeline (guards
//! included).
//!
//! When no subscriber wants the span and no metric is recorded, it hands
//! the call on as it came: the cost is one check of the span's callsite
//! and one atomic load.

use std::time::Instant;

use mcp_server::BoxFuture;
use mcp_server::core::error::ErrorObject;
use mcp_server::seam::interceptor::{RawAnswer, RawCall, RawInterceptor, RawNext};
use tracing::{Instrument, Span};

use crate::metrics::{self, Instruments};
use crate::outcome::Outcome;
use crate::request::Request;
use crate::{parent, session, span};

/// Observes every message the server serves.
#[derive(Debug, Default)]
pub(crate) struct ObserveRequests;

impl RawInterceptor for ObserveRequests {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        let span = span::open();
        let instruments = metrics::active();
        if span.is_disabled() && instruments.is_none() {
            return next.run(call);
        }
        Box::pin(observe(call, next, span, instruments))
    }
}

/// Serves `call` inside `span`, and records how it went.
async fn observe<'a>(
    call: &'a RawCall<'a>,
    next: RawNext<'a>,
    span: Span,
    instruments: Option<&'static Instruments>,
) -> Result<RawAnswer, ErrorObject> {
    let started = Instant::now();
    let request = Request::of(call);
    if !span.is_disabled() {
        parent::adopt(&span, call.ctx());
        span::record_request(&span, call, &request);
    }
    // Inside the span from the start: what the pipeline does before its
    // first await (resolving the target, running the guards) is in it too.
    let serving = span.in_scope(|| next.run(call));
    let answer = serving.instrument(span.clone()).await;
    let outcome = Outcome::of(call, &request, &answer);
    if !span.is_disabled() {
        span::record_outcome(&span, &request, &outcome);
    }
    if let Some(instruments) = instruments {
        instruments.operation(started.elapsed(), &request, &outcome);
        session::start(call, &request, &answer, instruments);
    }
    answer
}
