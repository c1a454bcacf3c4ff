//! Sampling: the server asks the client's model for a message (deprecated in 2026-07-28).
//!
//! In 2026-07-28 a sampling request travels as an MRTR input request; in
//! 2025-11-25 it is a server-to-client JSON-RPC request.
//!
//! ```
//! use mcp_core::sampling::{SamplingContent, SamplingMessage};
//! use mcp_core::content::Role;
//!
//! let message: SamplingMessage = serde_json::from_value(serde_json::json!({
//!     "role": "user", "content": {"type": "text", "text": "What is 2+2?"}
//! })).unwrap();
//! assert_eq!(message.role, Role::User);
//! assert!(matches!(message.content, SamplingContent::One(_)));
//! ```

use serde::{Deserialize, Serialize};

use crate::content::{
    AudioContent, ImageContent, Role, TextContent, ToolResultContent, ToolUseContent,
};
use crate::json::JsonObject;
use crate::meta::{Meta, RequestMeta};
use crate::method::{MethodCall, methods, params};
use crate::tools::Tool;
use crate::version::Era;

/// A hint to pick a model (`ModelHint`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ModelHint {
    /// A full or partial model name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// How the client should weigh models (`ModelPreferences`); priorities run from 0 to 1.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ModelPreferences {
    /// Model names to consider, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hints: Option<Vec<ModelHint>>,
    /// How much cost matters.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_unit_f64))]
    #[serde(serialize_with = "crate::json::opt_number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_priority: Option<f64>,
    /// How much speed matters.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_unit_f64))]
    #[serde(serialize_with = "crate::json::opt_number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed_priority: Option<f64>,
    /// How much capability matters.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_unit_f64))]
    #[serde(serialize_with = "crate::json::opt_number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intelligence_priority: Option<f64>,
}

/// One block of sampling content (`SamplingMessageContentBlock`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum SamplingMessageContentBlock {
    /// Text.
    Text(TextContent),
    /// An image.
    Image(ImageContent),
    /// Audio.
    Audio(AudioContent),
    /// The model calls a tool.
    ToolUse(ToolUseContent),
    /// A tool's result.
    ToolResult(ToolResultContent),
}

/// The content of a sampling message: one block or several.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum SamplingContent {
    /// A single block.
    One(SamplingMessageContentBlock),
    /// Several blocks.
    Many(Vec<SamplingMessageContentBlock>),
}

/// A message sent to or received from a model (`SamplingMessage`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SamplingMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: SamplingContent,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Which servers' context to include (soft-deprecated values besides `none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum IncludeContext {
    /// No context.
    None,
    /// Context from this server.
    ThisServer,
    /// Context from every server.
    AllServers,
}

/// How the model may use tools (`ToolChoice`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ToolChoice {
    /// `auto`, `required` or `none`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<ToolChoiceMode>,
}

/// The tool-use mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum ToolChoiceMode {
    /// The model decides.
    Auto,
    /// The model must use a tool.
    Required,
    /// The model must not use tools.
    None,
}

/// Params of `sampling/createMessage` (`CreateMessageRequestParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CreateMessageRequestParams {
    /// Legacy (2025-11-25): request metadata.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = None))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// The conversation.
    pub messages: Vec<SamplingMessage>,
    /// How to pick a model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<ModelPreferences>,
    /// A system prompt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// Which context to include.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_context: Option<IncludeContext>,
    /// The sampling temperature.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_finite_f64))]
    #[serde(serialize_with = "crate::json::opt_number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// The most tokens to sample.
    pub max_tokens: u64,
    /// Sequences that stop sampling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Vec<String>>,
    /// Provider-specific metadata.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_schema_json_object))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonObject>,
    /// Tools the model may use.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Tool>>,
    /// How the model may use them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice>,
    /// Legacy (2025-11-25): run the request as a task.
    #[cfg_attr(feature = "arbitrary", arbitrary(value = None))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<crate::legacy::tasks::TaskMetadata>,
}

/// Why sampling stopped (`stopReason`): a known reason or another string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct StopReason(pub String);

impl StopReason {
    /// The model finished its turn.
    pub const END_TURN: &'static str = "endTurn";
    /// A stop sequence was produced.
    pub const STOP_SEQUENCE: &'static str = "stopSequence";
    /// The token limit was reached.
    pub const MAX_TOKENS: &'static str = "maxTokens";
    /// The model wants to use a tool.
    pub const TOOL_USE: &'static str = "toolUse";
}

/// The client's answer to `sampling/createMessage` (`CreateMessageResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CreateMessageResult {
    /// Who speaks (the assistant).
    pub role: Role,
    /// What the model said.
    pub content: SamplingContent,
    /// Metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// The model that answered.
    pub model: String,
    /// Why sampling stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason>,
}

params!(CreateMessageRequestParams);

methods! {
    /// `sampling/createMessage`: ask the client's model for a message.
    CreateMessage = "sampling/createMessage" {
        params: CreateMessageRequestParams,
        result: CreateMessageResult,
        eras: Era::ALL,
    }
}

/// A sampling request as an MRTR input request, without envelope (`CreateMessageRequest`).
pub type CreateMessageRequest = MethodCall<CreateMessage>;
