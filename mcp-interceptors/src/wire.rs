//! The wire of the interceptors extension as SEP-2624 draws it today: the
//! capability, `interceptors/list`, `interceptor/invoke` and their results.
//!
//! The proposal is experimental and still moving; every wire shape of the
//! crate lives in this one module so that following it is one edit.
//!
//! ```
//! use mcp_interceptors::wire::{InvokeResult, Phase, ValidationResult};
//!
//! let result: InvokeResult = serde_json::from_value(serde_json::json!({
//!     "interceptor": "injection-guard", "type": "validation", "phase": "request",
//!     "valid": false, "severity": "error",
//!     "messages": [{"path": "params.arguments.q", "message": "looks like SQL", "severity": "error"}]
//! })).unwrap();
//! let InvokeResult::Validation(ValidationResult { valid, phase, .. }) = result else { panic!() };
//! assert!(!valid);
//! assert_eq!(phase, Phase::Request);
//! ```

use mcp_server::core::json::{JsonObject, JsonValue};
use mcp_server::core::result::ResultType;
use serde::{Deserialize, Serialize};

/// The extension's identifier, the key of its capability under
/// `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/interceptors";

/// The event that matches every interceptable event in a hook.
pub const EVERY_EVENT: &str = "*";

/// What the server advertises under `capabilities.extensions`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InterceptorsCapability {
    /// The events some declared interceptor hooks (`*` among them when one
    /// hooks every event), sorted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub supported_events: Option<Vec<String>>,
}

/// What an interceptor does with a payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InterceptorType {
    /// Judges a payload: valid or not, with messages.
    Validation,
    /// Rewrites a payload.
    Mutation,
}

/// Which side of an operation an interceptor sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The request, as `{method, params}`.
    Request,
    /// The result of the request.
    Response,
}

impl Phase {
    /// The wire string.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Request => "request",
            Phase::Response => "response",
        }
    }
}

/// Whether an interceptor's verdict counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Its failures block and its rewrites apply.
    #[default]
    Active,
    /// It is run and recorded, and never blocks or rewrites.
    Audit,
}

/// Events an interceptor hooks in one phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hook {
    /// Method names (`tools/call`), or `*` for every interceptable event.
    pub events: Vec<String>,
    /// The phase.
    pub phase: Phase,
}

/// The order of a mutator among mutators: lower runs first, ties by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PriorityHint {
    /// One priority for both phases.
    Both(i32),
    /// A priority per phase; a phase not named has priority 0.
    PerPhase {
        /// The request phase's.
        #[serde(skip_serializing_if = "Option::is_none")]
        request: Option<i32>,
        /// The response phase's.
        #[serde(skip_serializing_if = "Option::is_none")]
        response: Option<i32>,
    },
}

impl PriorityHint {
    /// The priority in `phase`.
    pub fn of(self, phase: Phase) -> i32 {
        match (self, phase) {
            (PriorityHint::Both(p), _) => p,
            (PriorityHint::PerPhase { request, .. }, Phase::Request) => request.unwrap_or(0),
            (PriorityHint::PerPhase { response, .. }, Phase::Response) => response.unwrap_or(0),
        }
    }
}

/// The protocol versions an interceptor was written for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Compat {
    /// The oldest.
    pub min_protocol: String,
    /// The newest, if bounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_protocol: Option<String>,
}

/// One interceptor as `interceptors/list` describes it (`Interceptor`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InterceptorDescriptor {
    /// Unique among the server's interceptors.
    pub name: String,
    /// Its version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// What it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Validation or mutation.
    #[serde(rename = "type")]
    pub kind: InterceptorType,
    /// The events it hooks, per phase.
    pub hooks: Vec<Hook>,
    /// Active (the default) or audit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// Whether a crash or a timeout lets the operation through (default:
    /// it blocks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fail_open: Option<bool>,
    /// Its order among mutators.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_hint: Option<PriorityHint>,
    /// The protocol versions it was written for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compat: Option<Compat>,
    /// The JSON Schema of the `config` it accepts (an object schema).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config_schema: Option<JsonObject>,
}

/// Params of `interceptors/list`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, mcp_server::Params)]
pub struct ListInterceptorsParams {
    /// Only interceptors that hook this event (a concrete name; `*` is refused).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// Request metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

/// The result of `interceptors/list`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListInterceptorsResult {
    /// The kind of result, in 2026-07-28 (absent in 2025-11-25, as the
    /// proposal's result is written).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// The interceptors, by name.
    pub interceptors: Vec<InterceptorDescriptor>,
}

/// `interceptors/list`.
#[derive(mcp_server::Method)]
#[mcp(name = "interceptors/list", params = ListInterceptorsParams, result = ListInterceptorsResult)]
pub struct ListInterceptors;

/// Who the invoker says the operation is for: information for the
/// interceptor, never the identity the server authenticated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContextPrincipal {
    /// `user`, `service` or `anonymous`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Claims about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claims: Option<JsonObject>,
}

/// What the invoker tells of the operation being intercepted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvocationContext {
    /// On whose behalf.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub principal: Option<ContextPrincipal>,
    /// The W3C trace id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_id: Option<String>,
    /// The W3C span id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span_id: Option<String>,
    /// When (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
}

/// Params of `interceptor/invoke`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, mcp_server::Params)]
#[serde(rename_all = "camelCase")]
pub struct InvokeParams {
    /// The interceptor.
    pub name: String,
    /// The event the payload belongs to.
    pub event: String,
    /// The phase.
    pub phase: Phase,
    /// The request (`{method, params}`) or the result.
    pub payload: JsonValue,
    /// The interceptor's configuration, checked against its `configSchema`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config: Option<JsonValue>,
    /// How long the invoker waits, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// What the invoker tells of the operation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<InvocationContext>,
    /// Request metadata.
    #[serde(rename = "_meta")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

/// `interceptor/invoke`: runs one interceptor on one payload.
#[derive(mcp_server::Method)]
#[mcp(name = "interceptor/invoke", params = InvokeParams, result = InvokeResult, target = "name")]
pub struct Invoke;

/// How much a validation message matters.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// For the record.
    Info,
    /// Worth a look; never blocks.
    Warn,
    /// Blocks, from an active validator.
    #[default]
    Error,
}

/// One finding of a validator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidationMessage {
    /// Where in the payload, dotted (`params.arguments.location`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// What was found.
    pub message: String,
    /// How much it matters.
    pub severity: Severity,
}

/// A value a validator proposes for one place of the payload; never applied
/// by the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Suggestion {
    /// Where, dotted.
    pub path: String,
    /// The proposed value.
    pub value: JsonValue,
}

/// What a validator answers (`ValidationResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidationResult {
    /// The kind of result, in 2026-07-28 (absent in 2025-11-25 examples).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// The interceptor's name.
    pub interceptor: String,
    /// Always `validation`.
    #[serde(rename = "type")]
    pub kind: InterceptorType,
    /// The phase it ran in.
    pub phase: Phase,
    /// How long it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// Anything else it reports.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub info: Option<JsonObject>,
    /// Whether the payload passed.
    pub valid: bool,
    /// The highest severity of its messages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<Severity>,
    /// Its findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub messages: Option<Vec<ValidationMessage>>,
    /// Values it proposes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestions: Option<Vec<Suggestion>>,
}

/// What a mutator answers (`MutationResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MutationResult {
    /// The kind of result, in 2026-07-28.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// The interceptor's name.
    pub interceptor: String,
    /// Always `mutation`.
    #[serde(rename = "type")]
    pub kind: InterceptorType,
    /// The phase it ran in.
    pub phase: Phase,
    /// How long it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// Anything else it reports.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub info: Option<JsonObject>,
    /// Whether `payload` differs from the payload it was given.
    pub modified: bool,
    /// The whole payload, rewritten or as given.
    pub payload: JsonValue,
}

/// The result of `interceptor/invoke`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum InvokeResult {
    /// From a validator.
    Validation(ValidationResult),
    /// From a mutator.
    Mutation(MutationResult),
}

/// The `data` of the `-32602` error for an unknown interceptor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnknownInterceptorData {
    /// The name asked for.
    pub name: String,
}

/// The `data` of the `-32602` error for an event or phase the interceptor
/// does not hook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NotHookedData {
    /// The interceptor.
    pub name: String,
    /// The event asked for.
    pub event: String,
    /// The phase asked for.
    pub phase: Phase,
    /// What it hooks.
    pub advertised_hooks: Vec<Hook>,
}

/// The `data` of the `-32603` error for an interceptor that failed or ran
/// out of time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FailureData {
    /// The interceptor.
    pub interceptor: String,
    /// Why: `timeout`, or what went wrong.
    pub reason: String,
    /// The limit it ran into, for a timeout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// The phase, for a timeout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<Phase>,
}
