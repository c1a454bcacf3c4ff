//! Prompts: `prompts/list`, `prompts/get` and `notifications/prompts/list_changed`.
//!
//! ```
//! use mcp_core::prompts::{GetPromptResult, PromptMessage};
//! use mcp_core::content::{ContentBlock, Role};
//!
//! let result = GetPromptResult {
//!     messages: vec![PromptMessage { role: Role::User, content: ContentBlock::text("Review this code") }],
//!     ..Default::default()
//! };
//! assert_eq!(serde_json::to_value(&result).unwrap()["messages"][0]["role"], "user");
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::content::{ContentBlock, Icon, Role};
use crate::jsonrpc::ResultResponse;
use crate::meta::{Meta, RequestMeta, ResultMeta};
use crate::method::{TypedNotification, TypedRequest, methods, notifications, params};
use crate::mrtr::InputResponses;
use crate::pagination::{Cursor, NotificationParams, PaginatedRequestParams};
use crate::result::{CacheScope, Outcome, ResultType};
use crate::version::Era;

/// An argument a prompt accepts (`PromptArgument`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct PromptArgument {
    /// The programmatic name.
    pub name: String,
    /// The human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the argument is for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether the argument must be given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
}

/// A prompt or prompt template (`Prompt`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Prompt {
    /// The programmatic name.
    pub name: String,
    /// The human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Icons for the prompt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// What the prompt offers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The arguments it accepts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<PromptArgument>>,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// One message of a prompt (`PromptMessage`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct PromptMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: ContentBlock,
}

/// A reference to a prompt, for completion (`PromptReference`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct PromptReference {
    /// Always `ref/prompt`.
    #[serde(rename = "type")]
    pub kind: PromptReferenceTag,
    /// The prompt's name.
    pub name: String,
    /// The prompt's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

crate::tag::wire_tag!(
    /// `"type": "ref/prompt"`.
    PromptReferenceTag = "ref/prompt"
);

/// The result of `prompts/list` (`ListPromptsResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ListPromptsResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// The kind of result.
    #[serde(default)]
    pub result_type: ResultType,
    /// The prompts on this page.
    pub prompts: Vec<Prompt>,
    /// Where the next page starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<Cursor>,
    /// How long the list stays fresh, in milliseconds: required in 2026-07-28, absent in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may share the cached list: required in 2026-07-28, absent in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
}

/// Params of `prompts/get` (`GetPromptRequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct GetPromptRequestParams {
    /// Request metadata: required in 2026-07-28, optional in 2025-11-25.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::some))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// The prompt's name.
    pub name: String,
    /// Values for the prompt's arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<BTreeMap<String, String>>,
    /// MRTR: answers to the input requests of an earlier attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// MRTR: the state echoed from an earlier attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
}

/// The result of `prompts/get` (`GetPromptResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct GetPromptResult {
    /// Result metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// The kind of result.
    #[serde(default)]
    pub result_type: ResultType,
    /// What the prompt is for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
}

params!(GetPromptRequestParams);

methods! {
    /// `prompts/list`: the prompts a client may get, paginated.
    ListPrompts = "prompts/list" {
        params: PaginatedRequestParams,
        result: ListPromptsResult,
        eras: Era::ALL,
    }
    /// `prompts/get`: get a prompt with its arguments filled in.
    GetPrompt = "prompts/get" {
        params: GetPromptRequestParams,
        result: GetPromptResult,
        eras: Era::ALL,
        target: "name",
    }
}

notifications! {
    /// `notifications/prompts/list_changed`: the prompt list changed.
    PromptListChanged = "notifications/prompts/list_changed" {
        params: Option<NotificationParams>,
        eras: Era::ALL,
    }
}

/// A `prompts/list` request (`ListPromptsRequest`).
pub type ListPromptsRequest = TypedRequest<ListPrompts>;
/// A `prompts/get` request (`GetPromptRequest`).
pub type GetPromptRequest = TypedRequest<GetPrompt>;
/// The response to `prompts/list` (`ListPromptsResultResponse`).
pub type ListPromptsResultResponse = ResultResponse<ListPromptsResult>;
/// The response to `prompts/get` (`GetPromptResultResponse`).
pub type GetPromptResultResponse = ResultResponse<Outcome<GetPromptResult>>;
/// A `notifications/prompts/list_changed` notification (`PromptListChangedNotification`).
pub type PromptListChangedNotification = TypedNotification<PromptListChanged>;
