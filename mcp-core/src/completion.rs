//! Argument completion: `completion/complete`.
//!
//! ```
//! use mcp_core::completion::{CompleteRequestParams, CompletionReference};
//!
//! let params: CompleteRequestParams = serde_json::from_value(serde_json::json!({
//!     "ref": {"type": "ref/resource", "uri": "file:///{path}"},
//!     "argument": {"name": "path", "value": "src/"}
//! })).unwrap();
//! assert!(matches!(params.reference, CompletionReference::ResourceTemplate(_)));
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::jsonrpc::ResultResponse;
use crate::meta::{RequestMeta, ResultMeta};
use crate::method::{TypedRequest, methods, params};
use crate::prompts::PromptReference;
use crate::result::ResultType;
use crate::tag::wire_tag;
use crate::version::Era;

wire_tag!(
    /// `"type": "ref/resource"`.
    ResourceTemplateReferenceTag = "ref/resource"
);

/// A reference to a resource template, for completion (`ResourceTemplateReference`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ResourceTemplateReference {
    /// Always `ref/resource`.
    #[serde(rename = "type")]
    pub kind: ResourceTemplateReferenceTag,
    /// The URI template.
    pub uri: String,
}

/// What is being completed: a prompt or a resource template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum CompletionReference {
    /// A prompt's argument.
    Prompt(PromptReference),
    /// A resource template's variable.
    ResourceTemplate(ResourceTemplateReference),
}

/// The argument being completed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CompletionArgument {
    /// The argument's name.
    pub name: String,
    /// What has been typed so far.
    pub value: String,
}

/// Values already given for other arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CompletionContext {
    /// Argument values, by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<BTreeMap<String, String>>,
}

/// Params of `completion/complete` (`CompleteRequestParams`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CompleteRequestParams {
    /// Request metadata: required in 2026-07-28, optional in 2025-11-25.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// What is being completed.
    #[serde(rename = "ref")]
    pub reference: CompletionReference,
    /// The argument being completed.
    pub argument: CompletionArgument,
    /// Other arguments' values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<CompletionContext>,
}

/// The completion values (`CompleteResult.completion`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Completion {
    /// At most 100 values.
    pub values: Vec<String>,
    /// How many values exist in all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether more values exist than were returned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
}

/// The result of `completion/complete` (`CompleteResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CompleteResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// The kind of result.
    #[serde(default)]
    pub result_type: ResultType,
    /// The values.
    pub completion: Completion,
}

params!(CompleteRequestParams);

methods! {
    /// `completion/complete`: suggest values for an argument.
    Complete = "completion/complete" {
        params: CompleteRequestParams,
        result: CompleteResult,
        eras: Era::ALL,
    }
}

/// A `completion/complete` request (`CompleteRequest`).
pub type CompleteRequest = TypedRequest<Complete>;
/// The response to `completion/complete` (`CompleteResultResponse`).
pub type CompleteResultResponse = ResultResponse<CompleteResult>;
