//! Roots: the directories a client exposes (a deprecated feature in 2026-07-28).
//!
//! ```
//! use mcp_core::roots::ListRootsResult;
//!
//! let roots: ListRootsResult = serde_json::from_str(
//!     r#"{"roots": [{"uri": "file:///home/user/project", "name": "Project"}]}"#,
//! ).unwrap();
//! assert_eq!(roots.roots[0].name.as_deref(), Some("Project"));
//! ```

use serde::{Deserialize, Serialize};

use crate::json::JsonObject;
use crate::meta::Meta;
use crate::method::{methods, params};
use crate::version::Era;

/// A directory or file the client exposes (`Root`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// A display name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Params of `roots/list`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ListRootsRequestParams {
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The client's answer to `roots/list` (`ListRootsResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ListRootsResult {
    /// Legacy (2025-11-25): result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// The roots.
    pub roots: Vec<Root>,
}

params!(ListRootsRequestParams);

methods! {
    /// `roots/list`: ask the client for its roots.
    ListRoots = "roots/list" {
        params: Option<ListRootsRequestParams>,
        result: ListRootsResult,
        eras: Era::ALL,
    }
}

/// A roots request as an MRTR input request (`ListRootsRequest`).
///
/// Members besides `method` and `params` (older peers send an `id`) are kept.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ListRootsRequest {
    /// Always `roots/list`.
    pub method: ListRoots,
    /// The params, which may be left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<ListRootsRequestParams>,
    /// Other members, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = JsonObject::new()))]
    pub extra: JsonObject,
}
