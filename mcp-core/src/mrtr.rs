//! Multi round-trip requests (MRTR): how a 2026-07-28 server asks the client
//! for input in the middle of `tools/call`, `prompts/get` or `resources/read`.
//!
//! The server answers with an [`InputRequiredResult`]; the client fulfils the
//! input requests and retries the same request, with a new id, carrying
//! `inputResponses` under the same keys and the `requestState` echoed exactly.
//!
//! ```
//! use mcp_core::mrtr::{InputRequest, InputRequiredResult};
//!
//! let result: InputRequiredResult = serde_json::from_value(serde_json::json!({
//!     "resultType": "input_required",
//!     "inputRequests": {"who": {"method": "roots/list"}},
//!     "requestState": "opaque"
//! })).unwrap();
//! assert!(matches!(result.input_requests.unwrap()["who"], InputRequest::ListRoots(_)));
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::elicitation::{ElicitRequest, ElicitResult};
use crate::meta::{RequestMeta, ResultMeta};
use crate::roots::{ListRootsRequest, ListRootsResult};
use crate::sampling::{CreateMessageRequest, CreateMessageResult};
use crate::tag::wire_tag;

/// A request the server needs the client to fulfil (`InputRequest`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum InputRequest {
    /// Sample from the client's model.
    CreateMessage(CreateMessageRequest),
    /// Ask the user.
    Elicit(ElicitRequest),
    /// List the client's roots.
    ListRoots(ListRootsRequest),
}

/// The client's answer to one input request (`InputResponse`): a bare result.
#[allow(
    clippy::large_enum_variant,
    reason = "a decoded message, moved once; boxing would cost every caller a `Box` pattern"
)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum InputResponse {
    /// A sampled message.
    CreateMessage(CreateMessageResult),
    /// The user's answer.
    Elicit(ElicitResult),
    /// The roots.
    ListRoots(ListRootsResult),
}

/// Input requests by server-assigned key (`InputRequests`).
pub type InputRequests = BTreeMap<String, InputRequest>;

/// Input responses by the keys of the input requests they answer (`InputResponses`).
pub type InputResponses = BTreeMap<String, InputResponse>;

wire_tag!(
    /// `"resultType": "input_required"`.
    InputRequiredTag = "input_required"
);

/// The server needs input before it can answer (`InputRequiredResult`).
///
/// At least one of `input_requests` and `request_state` is present.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct InputRequiredResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// Always `input_required`.
    pub result_type: InputRequiredTag,
    /// What the client must fulfil before retrying.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<InputRequests>,
    /// Opaque state the client echoes on retry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
}

/// The MRTR members a retried request carries (`InputResponseRequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct InputResponseRequestParams {
    /// Request metadata: required in 2026-07-28, optional in 2025-11-25.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Answers, by the keys of the input requests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// The state echoed from the input-required result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
}
