//! The OTLP/HTTP exporters behind the `otlp` feature: a tracer provider
//! with a batch exporter and a meter provider with a periodic one, both
//! sending protobuf to the collector's `/v1/traces` and `/v1/metrics`.

use opentelemetry::global;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{MetricExporter, Protocol, SpanExporter, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::filter::{EnvFilter, LevelFilter};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{Layer, fmt};

use crate::install::InstallError;

/// The providers [`install`] made; shut down (which exports what is left)
/// when dropped.
pub(crate) struct Providers {
    tracer: SdkTracerProvider,
    meter: SdkMeterProvider,
}

impl Providers {
    /// Exports what is finished now.
    pub(crate) fn flush(&self) {
        let _ = self.tracer.force_flush();
        let _ = self.meter.force_flush();
    }
}

impl Drop for Providers {
    fn drop(&mut self) {
        let _ = self.tracer.shutdown();
        let _ = self.meter.shutdown();
    }
}

/// Exports spans and metrics of `service` to the collector at `endpoint`,
/// and logs to stderr.
pub(crate) fn install(endpoint: &str, service: &str) -> Result<Providers, InstallError> {
    let endpoint = endpoint.trim_end_matches('/');
    let resource = Resource::builder()
        .with_service_name(service.to_owned())
        .build();
    let spans = SpanExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .with_endpoint(format!("{endpoint}/v1/traces"))
        .build()
        .map_err(|e| InstallError::Exporter(Box::new(e)))?;
    let metrics = MetricExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .with_endpoint(format!("{endpoint}/v1/metrics"))
        .build()
        .map_err(|e| InstallError::Exporter(Box::new(e)))?;
    let providers = Providers {
        tracer: SdkTracerProvider::builder()
            .with_batch_exporter(spans)
            .with_resource(resource.clone())
            .build(),
        meter: SdkMeterProvider::builder()
            .with_periodic_exporter(metrics)
            .with_resource(resource)
            .build(),
    };
    let traces = tracing_opentelemetry::layer()
        .with_tracer(providers.tracer.tracer("mcp-telemetry"))
        .with_filter(LevelFilter::INFO);
    let log = fmt::layer()
        .with_writer(std::io::stderr)
        .with_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")));
    tracing_subscriber::registry()
        .with(traces)
        .with(log)
        .try_init()
        .map_err(|e| InstallError::Subscriber(Box::new(e)))?;
    global::set_tracer_provider(providers.tracer.clone());
    global::set_meter_provider(providers.meter.clone());
    crate::record_metrics();
    Ok(providers)
}
