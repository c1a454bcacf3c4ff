//! Input from the client: elicitation (form and URL mode), sampling and
//! roots, asked for from handler code through the request context.
//!
//! On a 2025-11-25 session the transport sends a real server-to-client
//! request (on stdio, on the same pipe; on HTTP, on the POST stream of the
//! call that asks) and the handler awaits the answer, bounded by the
//! transport's input timeout and by the request's cancellation. A client
//! that did not declare the capability is never asked.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! use mcp_server::context::InputError;
//! use mcp_server::core::roots::ListRootsRequestParams;
//!
//! // A context without a client to ask: the capability is checked first.
//! let ctx = mcp_server::RequestContext::for_tests();
//! let error = ctx.list_roots().await.unwrap_err();
//! assert!(matches!(error, InputError::MissingCapability(_)));
//! # });
//! ```

use std::time::Duration;

use mcp_core::capabilities::ClientCapabilities;
use mcp_core::elicitation::ElicitRequestParams;
use mcp_core::error::ErrorObject;
use mcp_core::json::JsonValue;
use mcp_core::sampling::CreateMessageRequestParams;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::vocabulary::BoxFuture;

/// Sends one server-to-client request and resolves with the client's answer
/// (supplied by a transport that can carry requests to the client).
pub trait ClientRequester: Send + Sync + 'static {
    /// Sends `method` with `params`; resolves with the `result` member of the
    /// client's response, or with its error.
    fn request(
        &self,
        method: &'static str,
        params: JsonValue,
    ) -> BoxFuture<'static, Result<JsonValue, InputError>>;

    /// Sends one input request the handler filed under `key`
    /// (`ctx.input("key")`), or under none: a requester that keeps
    /// questions by key (a task's) uses it; the default ignores the key.
    fn request_keyed(
        &self,
        key: Option<&str>,
        method: &'static str,
        params: JsonValue,
    ) -> BoxFuture<'static, Result<JsonValue, InputError>> {
        let _ = key;
        self.request(method, params)
    }
}

/// Why input could not be had from the client.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InputError {
    /// The client did not declare the capability the input needs.
    #[error("the client did not declare the `{0}` capability")]
    MissingCapability(&'static str),
    /// The transport of this request cannot carry a request to the client.
    #[error("this request cannot ask its client for input: {0}")]
    Unavailable(&'static str),
    /// The client answered with a JSON-RPC error.
    #[error("the client refused: {} ({})", .0.message, .0.code.0)]
    Refused(ErrorObject),
    /// The client did not answer in time.
    #[error("the client did not answer within {0:?}")]
    TimedOut(Duration),
    /// The request was cancelled, or its client went away.
    #[error("the request was cancelled while waiting for the client")]
    Cancelled,
    /// The client's answer does not have the expected shape.
    #[error("the client's answer is malformed: {0}")]
    Malformed(String),
    /// A 2026-07-28 request has no answer yet: it ends with an
    /// input-required result asking for it, whatever the handler returns,
    /// and the client's retry runs the handler again with the answer.
    #[error(
        "the client has not answered yet: the request asks for input and runs again with the answer"
    )]
    Required,
    /// This method cannot ask its client for input on 2026-07-28: only
    /// `tools/call`, `prompts/get` and `resources/read` can.
    #[error(
        "`{0}` cannot ask the client for input: only tools/call, prompts/get and resources/read can"
    )]
    NotAllowed(String),
}

/// Checks that the client declared the capability `kind` needs.
pub(crate) fn check_declared(
    capabilities: &ClientCapabilities,
    kind: InputKind,
) -> Result<(), InputError> {
    let declared = match kind {
        InputKind::ElicitForm => capabilities.elicitation.as_ref().is_some_and(|e| {
            // An empty `elicitation: {}` means form mode (2025-06-18 and later).
            e.form.is_some() || e.url.is_none()
        }),
        InputKind::ElicitUrl => capabilities
            .elicitation
            .as_ref()
            .is_some_and(|e| e.url.is_some()),
        InputKind::Sampling => capabilities.sampling.is_some(),
        InputKind::SamplingWithTools => capabilities
            .sampling
            .as_ref()
            .is_some_and(|s| s.tools.is_some()),
        InputKind::Roots => capabilities.roots.is_some(),
    };
    if declared {
        Ok(())
    } else {
        Err(InputError::MissingCapability(kind.capability()))
    }
}

/// The kinds of input a handler may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputKind {
    ElicitForm,
    ElicitUrl,
    Sampling,
    /// Sampling that offers the model tools (`tools` or `toolChoice` set).
    SamplingWithTools,
    Roots,
}

impl InputKind {
    const ALL: [InputKind; 5] = [
        InputKind::ElicitForm,
        InputKind::ElicitUrl,
        InputKind::Sampling,
        InputKind::SamplingWithTools,
        InputKind::Roots,
    ];

    pub(crate) fn of_sampling(params: &CreateMessageRequestParams) -> Self {
        if params.tools.is_some() || params.tool_choice.is_some() {
            Self::SamplingWithTools
        } else {
            Self::Sampling
        }
    }

    pub(crate) fn of_elicitation(params: &ElicitRequestParams) -> Self {
        match params {
            ElicitRequestParams::Url(_) => Self::ElicitUrl,
            ElicitRequestParams::Form(_) => Self::ElicitForm,
        }
    }

    /// The prefix of the keys the framework assigns to inputs of this kind.
    pub(crate) fn key_prefix(self) -> &'static str {
        match self {
            Self::ElicitForm | Self::ElicitUrl => "elicitation",
            Self::Sampling | Self::SamplingWithTools => "sampling",
            Self::Roots => "roots",
        }
    }

    /// The method that carries this input.
    pub(crate) fn method(self) -> &'static str {
        match self {
            Self::ElicitForm | Self::ElicitUrl => "elicitation/create",
            Self::Sampling | Self::SamplingWithTools => "sampling/createMessage",
            Self::Roots => "roots/list",
        }
    }

    /// The client capability it needs, as written in `ClientCapabilities`.
    pub(crate) fn capability(self) -> &'static str {
        match self {
            Self::ElicitForm => "elicitation",
            Self::ElicitUrl => "elicitation.url",
            Self::Sampling => "sampling",
            Self::SamplingWithTools => "sampling.tools",
            Self::Roots => "roots",
        }
    }

    /// The `-32021` error of a request that needs this kind the client did
    /// not declare.
    pub(crate) fn missing(self) -> ErrorObject {
        ErrorObject::missing_required_client_capability(
            format!(
                "Missing required client capability: `{}`",
                self.capability()
            ),
            self.required_capabilities(),
        )
    }

    /// The `requiredCapabilities` of a `-32021` error for this kind.
    fn required_capabilities(self) -> ClientCapabilities {
        let value = match self {
            Self::ElicitForm => serde_json::json!({ "elicitation": {} }),
            Self::ElicitUrl => serde_json::json!({ "elicitation": { "url": {} } }),
            Self::Sampling => serde_json::json!({ "sampling": {} }),
            Self::SamplingWithTools => serde_json::json!({ "sampling": { "tools": {} } }),
            Self::Roots => serde_json::json!({ "roots": {} }),
        };
        serde_json::from_value(value).unwrap_or_default()
    }
}

/// Encodes params and decodes the answer of one input request.
pub(crate) async fn ask<P: Serialize, R: DeserializeOwned>(
    requester: &dyn ClientRequester,
    key: Option<&str>,
    method: &'static str,
    params: &P,
) -> Result<R, InputError> {
    let params = serde_json::to_value(params).map_err(|e| InputError::Malformed(e.to_string()))?;
    let answer = requester.request_keyed(key, method, params).await?;
    serde_json::from_value(answer).map_err(|e| InputError::Malformed(e.to_string()))
}

/// Any async function of a method and its params answers input requests,
/// as a test's stand-in for a client.
impl<F> ClientRequester for F
where
    F: Fn(&'static str, JsonValue) -> BoxFuture<'static, Result<JsonValue, InputError>>
        + Send
        + Sync
        + 'static,
{
    fn request(
        &self,
        method: &'static str,
        params: JsonValue,
    ) -> BoxFuture<'static, Result<JsonValue, InputError>> {
        self(method, params)
    }
}

/// A handler that cannot go on without its input fails with the matching
/// JSON-RPC error: `-32021` for a capability the client did not declare,
/// an internal error otherwise. (An input-required result replaces
/// whatever a handler returns, so [`InputError::Required`] never reaches
/// the client as an error.)
impl From<InputError> for ErrorObject {
    fn from(error: InputError) -> Self {
        match &error {
            InputError::MissingCapability(capability) => InputKind::ALL
                .into_iter()
                .find(|kind| kind.capability() == *capability)
                .map_or_else(
                    || ErrorObject::internal_error(error.to_string()),
                    InputKind::missing,
                ),
            _ => ErrorObject::internal_error(error.to_string()),
        }
    }
}
