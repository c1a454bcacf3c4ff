//! What an interceptor is handed: one payload of one event and phase.

use std::sync::Arc;

use mcp_server::auth::Principal;
use mcp_server::core::json::JsonValue;
use serde::de::DeserializeOwned;

use crate::outcome::Failure;
use crate::wire::{InvocationContext, Phase};

/// One payload for an interceptor to judge or rewrite.
///
/// In the request phase the payload is the request as `{method, params}`;
/// in the response phase it is the request's result.
#[derive(Debug, Clone)]
pub struct Invocation {
    pub(crate) event: String,
    pub(crate) phase: Phase,
    pub(crate) payload: JsonValue,
    pub(crate) config: Option<JsonValue>,
    pub(crate) context: InvocationContext,
    pub(crate) principal: Principal,
    /// The governed request, for a response-phase run on the server's own
    /// pipeline.
    pub(crate) request: Option<Arc<JsonValue>>,
}

impl Invocation {
    /// An invocation for `event` and `phase`, by an anonymous caller (for
    /// tests of an interceptor on its own).
    ///
    /// ```
    /// use mcp_interceptors::Invocation;
    /// use mcp_interceptors::wire::Phase;
    ///
    /// let invocation = Invocation::new("tools/call", Phase::Request, serde_json::json!({
    ///     "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}
    /// }));
    /// assert_eq!(invocation.arguments().unwrap()["text"], "hi");
    /// ```
    pub fn new(event: impl Into<String>, phase: Phase, payload: JsonValue) -> Self {
        Self {
            event: event.into(),
            phase,
            payload,
            config: None,
            context: InvocationContext::default(),
            principal: Principal::anonymous(),
            request: None,
        }
    }

    /// With `config`.
    #[must_use]
    pub fn with_config(mut self, config: JsonValue) -> Self {
        self.config = Some(config);
        self
    }

    /// The event: the governed method's name.
    pub fn event(&self) -> &str {
        &self.event
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The payload.
    pub fn payload(&self) -> &JsonValue {
        &self.payload
    }

    /// The payload, to rewrite from (a mutator returns the whole new one).
    pub fn payload_owned(&self) -> JsonValue {
        self.payload.clone()
    }

    /// The request the payload belongs to, as `{method, params}`: in the
    /// request phase the payload itself; in the response phase, when the
    /// server runs the interceptor on its own requests, the request as its
    /// handler received it (after the request's mutations); `None` for a
    /// response given to `interceptor/invoke`, which comes without one.
    ///
    /// It lets an interceptor keep to some targets, such as the tools it
    /// was written for:
    ///
    /// ```
    /// use mcp_interceptors::Invocation;
    ///
    /// fn for_billing(invocation: &Invocation) -> bool {
    ///     invocation
    ///         .request()
    ///         .and_then(|request| request.pointer("/params/name"))
    ///         .and_then(|name| name.as_str())
    ///         .is_some_and(|name| name.starts_with("billing_"))
    /// }
    /// ```
    pub fn request(&self) -> Option<&JsonValue> {
        match self.phase {
            Phase::Request => Some(&self.payload),
            Phase::Response => self.request.as_deref(),
        }
    }

    /// In the request phase, the request's `params.arguments` (a tool's
    /// arguments, a prompt's).
    pub fn arguments(&self) -> Option<&JsonValue> {
        match self.phase {
            Phase::Request => self.payload.pointer("/params/arguments"),
            Phase::Response => None,
        }
    }

    /// The configuration given for this run, read as `T`; `None` when none
    /// was given.
    ///
    /// # Errors
    ///
    /// A configuration that does not read as `T`.
    pub fn config<T: DeserializeOwned>(&self) -> Result<Option<T>, Failure> {
        self.config
            .as_ref()
            .map(|c| serde_json::from_value(c.clone()))
            .transpose()
            .map_err(|e| Failure::new(format!("the configuration does not read: {e}")))
    }

    /// What the invoker tells of the operation (`context`): information,
    /// never an identity the server checked.
    pub fn context(&self) -> &InvocationContext {
        &self.context
    }

    /// The principal the server authenticated for the request being served:
    /// the governed request's caller when the server runs the interceptor on
    /// its own requests, the caller of `interceptor/invoke` otherwise.
    pub fn principal(&self) -> &Principal {
        &self.principal
    }
}
