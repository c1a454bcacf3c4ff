//! Protocol versions, the two eras they fall into, and version negotiation.
//!
//! ```
//! use mcp_core::version::{self, Era, Negotiation};
//!
//! assert_eq!(version::era_of("2026-07-28"), Some(Era::Modern));
//! assert_eq!(version::era_of("2025-06-18"), Some(Era::Legacy));
//! // A modern request must name a version the server speaks.
//! assert!(version::negotiate_modern("1900-01-01", version::SUPPORTED).is_err());
//! // `initialize` echoes a supported legacy version, or offers the newest one.
//! assert_eq!(
//!     version::negotiate_legacy("2025-03-26", version::SUPPORTED),
//!     Negotiation::Accepted("2025-03-26"),
//! );
//! assert_eq!(
//!     version::negotiate_legacy("2099-01-01", version::SUPPORTED),
//!     Negotiation::Offered("2025-11-25"),
//! );
//! ```

use serde::{Deserialize, Serialize};

use crate::error::UnsupportedProtocolVersionData;

/// `2024-11-05`: the HTTP+SSE transport era.
pub const V2024_11_05: &str = "2024-11-05";
/// `2025-03-26`: Streamable HTTP introduced.
pub const V2025_03_26: &str = "2025-03-26";
/// `2025-06-18`: the `MCP-Protocol-Version` header, structured tool output, elicitation.
pub const V2025_06_18: &str = "2025-06-18";
/// `2025-11-25`: the last legacy revision (core tasks, URL elicitation, icons).
pub const V2025_11_25: &str = "2025-11-25";
/// `2026-07-28`: the first modern revision (stateless, per-request `_meta`, MRTR).
pub const V2026_07_28: &str = "2026-07-28";

/// The newest released protocol version.
pub const LATEST: &str = V2026_07_28;

/// The newest legacy version, offered to an `initialize` that asks for an unknown one.
pub const LATEST_LEGACY: &str = V2025_11_25;

/// Every version this model can serve, newest first.
pub const SUPPORTED: &[&str] = &[
    V2026_07_28,
    V2025_11_25,
    V2025_06_18,
    V2025_03_26,
    V2024_11_05,
];

/// The JSON-RPC version every message carries.
pub const JSONRPC_VERSION: &str = "2.0";

/// The two eras of the protocol.
///
/// A modern request carries its version and client capabilities in
/// `params._meta`; a legacy client negotiates them once with `initialize`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Era {
    /// 2025-11-25 and earlier: `initialize` handshake, sessions.
    Legacy,
    /// 2026-07-28 and later: stateless, per-request metadata.
    Modern,
}

impl Era {
    /// Both eras, legacy first.
    pub const ALL: &'static [Era] = &[Era::Legacy, Era::Modern];
    /// Only the legacy era.
    pub const LEGACY: &'static [Era] = &[Era::Legacy];
    /// Only the modern era.
    pub const MODERN: &'static [Era] = &[Era::Modern];
}

/// The era a known version belongs to; `None` for a version this model does not know.
pub fn era_of(version: &str) -> Option<Era> {
    match version {
        V2026_07_28 => Some(Era::Modern),
        V2025_11_25 | V2025_06_18 | V2025_03_26 | V2024_11_05 => Some(Era::Legacy),
        _ => None,
    }
}

/// The outcome of a legacy `initialize` negotiation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Negotiation {
    /// The requested version is supported and is echoed back.
    Accepted(&'static str),
    /// The requested version is not supported; this one is offered instead.
    Offered(&'static str),
}

impl Negotiation {
    /// The version the server answers with.
    pub fn version(self) -> &'static str {
        match self {
            Negotiation::Accepted(v) | Negotiation::Offered(v) => v,
        }
    }
}

/// Checks the version of a modern request against `supported`.
///
/// # Errors
///
/// Returns the data of an `UnsupportedProtocolVersion` (`-32022`) error when
/// `requested` is not one of the modern versions in `supported`.
pub fn negotiate_modern(
    requested: &str,
    supported: &[&'static str],
) -> Result<&'static str, UnsupportedProtocolVersionData> {
    supported
        .iter()
        .copied()
        .find(|v| *v == requested && era_of(v) == Some(Era::Modern))
        .ok_or_else(|| UnsupportedProtocolVersionData {
            // Only the versions a modern client can ask for per request, as
            // `server/discover` lists them.
            supported: supported
                .iter()
                .filter(|v| era_of(v) == Some(Era::Modern))
                .map(|v| (*v).to_owned())
                .collect(),
            requested: requested.to_owned(),
        })
}

/// Answers a legacy `initialize`: echo a supported legacy version, else offer the newest.
pub fn negotiate_legacy(requested: &str, supported: &[&'static str]) -> Negotiation {
    let legacy = || {
        supported
            .iter()
            .copied()
            .filter(|v| era_of(v) == Some(Era::Legacy))
    };
    match legacy().find(|v| *v == requested) {
        Some(v) => Negotiation::Accepted(v),
        None => Negotiation::Offered(legacy().next().unwrap_or(LATEST_LEGACY)),
    }
}
