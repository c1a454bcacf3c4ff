//! What an interceptor returns: a [`Validation`] or a [`Mutation`].

use std::fmt::Display;

use mcp_server::core::json::{JsonObject, JsonValue};

use crate::wire::{Severity, Suggestion, ValidationMessage};

/// A validator's verdict on one payload.
///
/// ```
/// use mcp_interceptors::{Message, Validation};
///
/// let verdict = Validation::valid().with_message(Message::warn("long input"));
/// assert!(verdict.is_valid());
/// let verdict = Validation::invalid("looks like SQL").with_message(
///     Message::error("quote found").at("params.arguments.query"),
/// );
/// assert!(!verdict.is_valid());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Validation {
    pub(crate) valid: bool,
    pub(crate) severity: Option<Severity>,
    pub(crate) messages: Vec<ValidationMessage>,
    pub(crate) suggestions: Vec<Suggestion>,
    pub(crate) info: Option<JsonObject>,
}

impl Validation {
    /// The payload passes.
    pub fn valid() -> Self {
        Self {
            valid: true,
            severity: None,
            messages: Vec::new(),
            suggestions: Vec::new(),
            info: None,
        }
    }

    /// The payload fails, for `message` (an error).
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::valid().with_message(Message::error(message))
    }

    /// Adds a finding; an error finding makes the payload fail.
    #[must_use]
    pub fn with_message(mut self, message: Message) -> Self {
        let severity = message.0.severity;
        self.severity = self.severity.max(Some(severity));
        if severity == Severity::Error {
            self.valid = false;
        }
        self.messages.push(message.0);
        self
    }

    /// Proposes `value` at `path`; the server never applies it.
    #[must_use]
    pub fn suggest(mut self, path: impl Into<String>, value: impl Into<JsonValue>) -> Self {
        self.suggestions.push(Suggestion {
            path: path.into(),
            value: value.into(),
        });
        self
    }

    /// Reports anything else, in the result's `info`.
    #[must_use]
    pub fn with_info(mut self, info: JsonObject) -> Self {
        self.info = Some(info);
        self
    }

    /// Whether the payload passes.
    pub fn is_valid(&self) -> bool {
        self.valid
    }

    /// The findings.
    pub fn messages(&self) -> &[ValidationMessage] {
        &self.messages
    }

    /// The highest severity of the findings; a failure without findings
    /// counts as an error.
    pub fn severity(&self) -> Option<Severity> {
        match (self.valid, self.severity) {
            (false, None) => Some(Severity::Error),
            (_, severity) => severity,
        }
    }

    /// Whether this verdict blocks the operation when its validator is active.
    pub(crate) fn blocks(&self) -> bool {
        !self.valid && self.severity() == Some(Severity::Error)
    }
}

/// One finding of a validator, at a place of the payload or of all of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message(pub(crate) ValidationMessage);

impl Message {
    fn new(severity: Severity, message: impl Into<String>) -> Self {
        Self(ValidationMessage {
            path: None,
            message: message.into(),
            severity,
        })
    }

    /// A finding that fails the payload.
    pub fn error(message: impl Into<String>) -> Self {
        Self::new(Severity::Error, message)
    }

    /// A finding worth a look.
    pub fn warn(message: impl Into<String>) -> Self {
        Self::new(Severity::Warn, message)
    }

    /// A finding for the record.
    pub fn info(message: impl Into<String>) -> Self {
        Self::new(Severity::Info, message)
    }

    /// At `path`, dotted (`params.arguments.location`).
    #[must_use]
    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.0.path = Some(path.into());
        self
    }
}

/// A mutator's answer: the payload as it was, or a whole new one.
///
/// ```
/// use mcp_interceptors::Mutation;
///
/// let payload = serde_json::json!({"text": "call 555-0100"});
/// let redacted = Mutation::modified(serde_json::json!({"text": "call [phone]"}));
/// assert!(redacted.is_modified());
/// assert!(!Mutation::unchanged().is_modified());
/// # let _ = payload;
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Mutation {
    pub(crate) payload: Option<JsonValue>,
    pub(crate) info: Option<JsonObject>,
}

impl Mutation {
    /// The payload stays as it was given.
    pub fn unchanged() -> Self {
        Self {
            payload: None,
            info: None,
        }
    }

    /// The payload is replaced, whole, by `payload`.
    pub fn modified(payload: JsonValue) -> Self {
        Self {
            payload: Some(payload),
            info: None,
        }
    }

    /// Reports anything else, in the result's `info`.
    #[must_use]
    pub fn with_info(mut self, info: JsonObject) -> Self {
        self.info = Some(info);
        self
    }

    /// Whether the payload was replaced.
    pub fn is_modified(&self) -> bool {
        self.payload.is_some()
    }
}

/// Why an interceptor could not give its verdict: a failure of the
/// interceptor itself, which its `failOpen` decides the effect of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure(pub(crate) String);

impl Failure {
    /// A failure for `reason`.
    pub fn new(reason: impl Display) -> Self {
        Self(reason.to_string())
    }

    /// Why.
    pub fn reason(&self) -> &str {
        &self.0
    }
}

impl Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failure {}

/// What a validator function may return: a [`Validation`], or a `Result`
/// whose error is a failure of the validator.
#[diagnostic::on_unimplemented(
    message = "a validator returns `Validation` or `Result<Validation, E>` with `E: Display`, not `{Self}`",
    label = "a `#[validator]` function cannot return `{Self}`"
)]
pub trait IntoValidation {
    /// The verdict, or the validator's failure.
    fn into_validation(self) -> Result<Validation, Failure>;
}

impl IntoValidation for Validation {
    fn into_validation(self) -> Result<Validation, Failure> {
        Ok(self)
    }
}

impl<E: Display> IntoValidation for Result<Validation, E> {
    fn into_validation(self) -> Result<Validation, Failure> {
        self.map_err(Failure::new)
    }
}

/// What a mutator function may return: a [`Mutation`], or a `Result` whose
/// error is a failure of the mutator.
#[diagnostic::on_unimplemented(
    message = "a mutator returns `Mutation` or `Result<Mutation, E>` with `E: Display`, not `{Self}`",
    label = "a `#[mutator]` function cannot return `{Self}`"
)]
pub trait IntoMutation {
    /// The rewrite, or the mutator's failure.
    fn into_mutation(self) -> Result<Mutation, Failure>;
}

impl IntoMutation for Mutation {
    fn into_mutation(self) -> Result<Mutation, Failure> {
        Ok(self)
    }
}

impl<E: Display> IntoMutation for Result<Mutation, E> {
    fn into_mutation(self) -> Result<Mutation, Failure> {
        self.map_err(Failure::new)
    }
}
