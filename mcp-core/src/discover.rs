//! `server/discover`: what a 2026-07-28 server speaks and offers.
//!
//! ```
//! use mcp_core::discover::DiscoverResult;
//! use mcp_core::result::CacheScope;
//!
//! let result = DiscoverResult {
//!     supported_versions: vec!["2026-07-28".into()],
//!     ttl_ms: Some(3_600_000),
//!     cache_scope: Some(CacheScope::Public),
//!     ..Default::default()
//! };
//! let json = serde_json::to_value(&result).unwrap();
//! assert_eq!(json["resultType"], "complete");
//! assert_eq!(json["ttlMs"], 3_600_000);
//! ```

use serde::{Deserialize, Serialize};

use crate::capabilities::ServerCapabilities;
use crate::jsonrpc::ResultResponse;
use crate::meta::ResultMeta;
use crate::method::{TypedRequest, methods};
use crate::pagination::RequestParams;
use crate::result::{CacheScope, ResultType};
use crate::version::Era;

/// The result of `server/discover` (`DiscoverResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct DiscoverResult {
    /// Result metadata; carries `serverInfo`.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// The kind of result.
    #[serde(default)]
    pub result_type: ResultType,
    /// The protocol versions the server speaks.
    pub supported_versions: Vec<String>,
    /// What the server offers.
    pub capabilities: ServerCapabilities,
    /// How to use the server, for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// How long the answer stays fresh, in milliseconds: required in 2026-07-28, absent in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may share the cached answer: required in 2026-07-28, absent in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
}

methods! {
    /// `server/discover`: the versions and capabilities of the server.
    Discover = "server/discover" {
        params: RequestParams,
        result: DiscoverResult,
        eras: Era::MODERN,
    }
}

/// A `server/discover` request (`DiscoverRequest`).
pub type DiscoverRequest = TypedRequest<Discover>;
/// The response to `server/discover` (`DiscoverResultResponse`).
pub type DiscoverResultResponse = ResultResponse<DiscoverResult>;
