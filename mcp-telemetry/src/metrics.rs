//! The two histograms of the conventions, `mcp.server.operation.duration`
//! and `mcp.server.session.duration`, recorded once [`record_metrics`] was
//! called ([`install`](crate::install) calls it).
//!
//! Until then nothing is measured at all: no clock is read and no
//! attribute is built, whatever meter provider is installed.

use std::sync::OnceLock;
use std::time::Duration;

use opentelemetry::KeyValue;
use opentelemetry::global;
use opentelemetry::metrics::Histogram;

use crate::names;
use crate::outcome::Outcome;
use crate::request::Request;
use crate::resolved::Resolved;

/// The instruments, once metrics are recorded.
static INSTRUMENTS: OnceLock<Instruments> = OnceLock::new();

/// The histograms this crate records into.
#[derive(Debug)]
pub(crate) struct Instruments {
    operation: Histogram<f64>,
    session: Histogram<f64>,
}

/// Records the MCP metrics from now on, into instruments of the global
/// meter provider as it is now: call it once the provider is installed
/// (`opentelemetry::global::set_meter_provider`). The first call decides;
/// later ones change nothing.
///
/// ```standalone_crate
/// use opentelemetry_sdk::metrics::{InMemoryMetricExporter, SdkMeterProvider};
///
/// let exporter = InMemoryMetricExporter::default();
/// let provider = SdkMeterProvider::builder().with_periodic_exporter(exporter.clone()).build();
/// opentelemetry::global::set_meter_provider(provider.clone());
/// mcp_telemetry::record_metrics();
/// // Every request served from now on adds a point to `mcp.server.operation.duration`.
/// ```
pub fn record_metrics() {
    INSTRUMENTS.get_or_init(|| {
        let meter = global::meter("mcp-telemetry");
        let histogram = |name: &'static str, description: &'static str| {
            meter
                .f64_histogram(name)
                .with_unit("s")
                .with_description(description)
                .with_boundaries(names::DURATION_BUCKETS.to_vec())
                .build()
        };
        Instruments {
            operation: histogram(
                names::OPERATION_DURATION,
                "How long the server took to answer a request or accept a notification",
            ),
            session: histogram(
                names::SESSION_DURATION,
                "How long a 2025-11-25 session lived",
            ),
        }
    });
}

/// The instruments, if metrics are recorded.
pub(crate) fn active() -> Option<&'static Instruments> {
    INSTRUMENTS.get()
}

impl Instruments {
    /// Records one operation that took `took`.
    pub(crate) fn operation(&self, took: Duration, request: &Request<'_>, outcome: &Outcome<'_>) {
        let mut attributes = Vec::with_capacity(7);
        attributes.push(KeyValue::new(names::METHOD_NAME, request.method.to_owned()));
        if let Some(version) = request.protocol_version {
            attributes.push(KeyValue::new(names::PROTOCOL_VERSION, version.to_owned()));
        }
        if let Some(transport) = request.transport {
            attributes.push(KeyValue::new(names::NETWORK_TRANSPORT, transport));
        }
        if request.is_tool_call() {
            attributes.push(KeyValue::new(names::OPERATION_NAME, names::EXECUTE_TOOL));
        }
        match &outcome.target {
            Some(Resolved::Tool(name)) => {
                attributes.push(KeyValue::new(names::TOOL_NAME, name.clone()));
            }
            Some(Resolved::Prompt(name)) => {
                attributes.push(KeyValue::new(names::PROMPT_NAME, name.clone()));
            }
            None => {}
        }
        if let Some(code) = outcome.code {
            attributes.push(KeyValue::new(names::STATUS_CODE, code.to_string()));
        }
        if let Some(failure) = outcome.failure {
            attributes.push(KeyValue::new(names::ERROR_TYPE, failure.error_type()));
        }
        self.operation.record(took.as_secs_f64(), &attributes);
    }

    /// Records one 2025-11-25 session that lived `lived`.
    pub(crate) fn session(&self, lived: Duration, attributes: &[KeyValue]) {
        self.session.record(lived.as_secs_f64(), attributes);
    }
}
