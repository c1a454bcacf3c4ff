//! What every result shares: `resultType`, `_meta`, and the caching hints.
//!
//! ```
//! use mcp_core::result::{EmptyResult, ResultType};
//!
//! let empty = EmptyResult::default();
//! assert_eq!(serde_json::to_value(&empty).unwrap(), serde_json::json!({"resultType": "complete"}));
//! // A result without `resultType` comes from a legacy peer and reads as complete.
//! let legacy: EmptyResult = serde_json::from_str("{}").unwrap();
//! assert_eq!(legacy.result_type, ResultType::COMPLETE);
//! ```

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::json::JsonObject;
use crate::meta::ResultMeta;
use crate::mrtr::InputRequiredResult;

/// The kind of a result (`ResultType`): `complete`, `input_required`, or a
/// value an extension defines (the tasks extension adds `task`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ResultType(pub Cow<'static, str>);

impl ResultType {
    /// `complete`: the request is done and this is its result.
    pub const COMPLETE: Self = Self(Cow::Borrowed("complete"));
    /// `input_required`: the client must answer input requests and retry.
    pub const INPUT_REQUIRED: Self = Self(Cow::Borrowed("input_required"));

    /// A result type an extension defines.
    pub const fn from_static(name: &'static str) -> Self {
        Self(Cow::Borrowed(name))
    }

    /// The wire string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for ResultType {
    /// Absent on a legacy result, which reads as complete.
    fn default() -> Self {
        Self::COMPLETE
    }
}

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for ResultType {
    fn arbitrary(_: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(Self::COMPLETE)
    }
}

/// How far a cached result may be shared (`cacheScope`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum CacheScope {
    /// Any client may reuse it.
    Public,
    /// Only the client that asked may reuse it.
    #[default]
    Private,
}

/// A result with no content of its own (`Result`, `EmptyResult`); keeps any
/// other members it carries.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct EmptyResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// The kind of result.
    #[serde(rename = "resultType", default)]
    pub result_type: ResultType,
    /// Every other member, kept as it came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::any_json_object))]
    pub extra: JsonObject,
}

/// The members of a paginated result (`PaginatedResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct PaginatedResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// The kind of result.
    #[serde(rename = "resultType", default)]
    pub result_type: ResultType,
    /// Where the next page starts; absent on the last page.
    #[serde(rename = "nextCursor")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// The members of a result a client may cache (`CacheableResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CacheableResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// The kind of result.
    #[serde(rename = "resultType", default)]
    pub result_type: ResultType,
    /// How long the result stays fresh, in milliseconds: required in 2026-07-28, absent in 2025-11-25.
    #[serde(rename = "ttlMs")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may share the cached result: required in 2026-07-28, absent in 2025-11-25.
    #[serde(rename = "cacheScope")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
}

/// The answer to a request that may ask the client for input first: the
/// complete result, or an [`InputRequiredResult`] (MRTR).
///
/// On the wire this is `T | InputRequiredResult`, told apart by `resultType`.
#[allow(
    clippy::large_enum_variant,
    reason = "a decoded message, moved once; boxing would cost every caller a `Box` pattern"
)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Outcome<T> {
    /// The client must answer input requests and retry.
    InputRequired(InputRequiredResult),
    /// The request is done.
    Complete(T),
}
