//! The trace a request belongs to, from the W3C trace context a client
//! sends in `params._meta` (`traceparent`, `tracestate`, `baggage`).
//!
//! The context becomes the parent of the request's span through
//! `tracing-opentelemetry`, so it takes effect only where an OpenTelemetry
//! layer is installed; anywhere else the span keeps its ordinary parent.

use mcp_server::RequestContext;
use mcp_server::core::meta::Meta;
use opentelemetry::propagation::{Extractor, TextMapPropagator};
use opentelemetry_sdk::propagation::{BaggagePropagator, TraceContextPropagator};
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// The `_meta` key of the W3C `traceparent`.
const TRACEPARENT: &str = "traceparent";

/// Makes the trace context the client sent with the request of `ctx`, if
/// any, the parent of `span`.
pub(crate) fn adopt(span: &Span, ctx: &RequestContext) {
    let meta = &ctx.meta().extra;
    if !meta.contains_key(TRACEPARENT) {
        return;
    }
    let carrier = Carrier(meta);
    let parent = TraceContextPropagator::new().extract(&carrier);
    let parent = BaggagePropagator::new().extract_with_context(&parent, &carrier);
    // Without an OpenTelemetry layer there is no trace to join.
    let _ = span.set_parent(parent);
}

/// `_meta`, read as a carrier of text values.
struct Carrier<'a>(&'a Meta);

impl Extractor for Carrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key)?.as_str()
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}
