//! What a binary calls to export: [`install`] sets up the process's
//! subscriber and meter provider from the `telemetry` section, and returns
//! a guard that flushes what is left when dropped.

use std::error::Error;
use std::fmt;

use crate::config::TelemetrySection;

/// Installs telemetry as `section` configures it: with `otlp_endpoint`
/// set, a global `tracing` subscriber whose OpenTelemetry layer exports the
/// spans, a global meter provider that exports the metrics (both over
/// OTLP/HTTP with protobuf, under `service_name`), and a log to stderr
/// filtered by `RUST_LOG` (default `info`). Without `otlp_endpoint` it
/// installs nothing and returns `None`, and requests cost nothing more.
///
/// Call it once, before serving; keep the guard until the process ends.
///
/// ```
/// use mcp_server::Server;
/// use mcp_telemetry::TelemetrySection;
///
/// let server = Server::builder().without_environment().build();
/// let telemetry = mcp_telemetry::install(&TelemetrySection::of(&server)).unwrap();
/// assert!(telemetry.is_none(), "nothing is configured");
/// ```
///
/// # Errors
///
/// [`InstallError`]: the crate was built without its `otlp` feature, an
/// exporter refused its configuration, or a global subscriber was
/// installed already.
pub fn install(section: &TelemetrySection) -> Result<Option<TelemetryGuard>, InstallError> {
    let Some(endpoint) = section.otlp_endpoint.as_deref() else {
        return Ok(None);
    };
    #[cfg(feature = "otlp")]
    {
        let service = section.service_name.as_deref().unwrap_or("mcp-server");
        let providers = crate::otlp::install(endpoint, service)?;
        Ok(Some(TelemetryGuard { providers }))
    }
    #[cfg(not(feature = "otlp"))]
    {
        let _ = endpoint;
        Err(InstallError::NotBuilt)
    }
}

/// Flushes and shuts down the exporters [`install`] started when dropped.
#[must_use = "dropping the guard shuts the exporters down"]
pub struct TelemetryGuard {
    #[cfg(feature = "otlp")]
    providers: crate::otlp::Providers,
    #[cfg(not(feature = "otlp"))]
    _never: std::convert::Infallible,
}

impl fmt::Debug for TelemetryGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TelemetryGuard").finish_non_exhaustive()
    }
}

#[cfg(feature = "otlp")]
impl TelemetryGuard {
    /// Exports every finished span and the metrics now, without waiting
    /// for the next batch.
    pub fn flush(&self) {
        self.providers.flush();
    }
}

/// Why [`install`] installed nothing.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstallError {
    /// `otlp_endpoint` is set, but the crate was built without `otlp`.
    #[error(
        "`telemetry.otlp_endpoint` is set, but `mcp-telemetry` was built without its `otlp` feature"
    )]
    NotBuilt,
    /// An OTLP exporter refused its configuration (the endpoint, say).
    #[error("the OTLP exporter could not be made: {0}")]
    Exporter(#[source] Box<dyn Error + Send + Sync>),
    /// A global `tracing` subscriber was installed already.
    #[error("a global tracing subscriber is installed already")]
    Subscriber(#[source] Box<dyn Error + Send + Sync>),
}
