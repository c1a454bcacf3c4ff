//! The `telemetry` section of the server's configuration: where to export,
//! and under which service name.
//!
//! Set like every section, with `Builder::setting("telemetry.otlp_endpoint",
//! ..)` or the environment (`MCP_TELEMETRY__OTLP_ENDPOINT`). Boot reads and
//! checks it; [`TelemetrySection::of`] hands it to the binary, which gives
//! it to [`install`](crate::install).
//!
//! ```
//! use mcp_server::Server;
//! use mcp_telemetry::TelemetrySection;
//!
//! let server = Server::builder()
//!     .named("weather", "1.0.0")
//!     .without_environment()
//!     .setting("telemetry.otlp_endpoint", "http://127.0.0.1:4318")
//!     .build();
//! let section = TelemetrySection::of(&server);
//! assert_eq!(section.otlp_endpoint.as_deref(), Some("http://127.0.0.1:4318"));
//! assert_eq!(section.service_name.as_deref(), Some("weather"), "the server's name by default");
//! ```

use std::sync::OnceLock;

use mcp_server::Server;
use mcp_server::boot::BootContext;
use mcp_server::config::Section;
use serde::Deserialize;

/// The `telemetry` section: nothing is exported unless `otlp_endpoint` is set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct TelemetrySection {
    /// The base URL of an OTLP/HTTP collector (`http://localhost:4318`):
    /// spans go to `/v1/traces` under it, metrics to `/v1/metrics`.
    pub otlp_endpoint: Option<String>,
    /// The `service.name` of what is exported; the server's name when unset.
    pub service_name: Option<String>,
}

impl Section for TelemetrySection {
    const KEY: &'static str = "telemetry";
}

/// The section as boot read it, kept for [`TelemetrySection::of`].
#[derive(Default)]
pub(crate) struct Kept(OnceLock<TelemetrySection>);

impl Kept {
    /// Reads the section at boot (which declares it, so its settings are
    /// checked) and keeps it in the server's shared state.
    pub(crate) fn read(boot: &BootContext) {
        let section = boot.section::<TelemetrySection>();
        let _ = boot.shared::<Kept>().0.set(section);
    }
}

impl TelemetrySection {
    /// The section `server` was booted with, its `service_name` defaulting
    /// to the server's name; the defaults where this crate was not part of
    /// the server's boot (`Builder::without_linked`).
    pub fn of(server: &Server) -> Self {
        let kept = server.shared::<Kept>();
        let mut section = kept
            .and_then(|kept| kept.0.get().cloned())
            .unwrap_or_default();
        section
            .service_name
            .get_or_insert_with(|| server.info().name.clone());
        section
    }
}
