//! Answers that can only be made by proceeding, or with a proof that the
//! guards of the very target of the very call allowed the caller.
//!
//! Every answer carries the key of the call it was made for; each layer
//! checks the key on its way out, so an answer made for one call (a
//! privileged caller's, say) is refused when another call returns it.

use std::fmt;
use std::marker::PhantomData;

use mcp_core::json::JsonValue;
use serde::Serialize;
use serde_json::value::RawValue;

use super::chain::ErasedValue;
use crate::context::CallKey;
use crate::handler::{AlternateResult, Reply};

/// Proof that the guards of the target a call is aimed at allowed its caller.
///
/// Only `authorize` on a `next` (or on an alternate-result
/// [`Invocation`](super::Invocation), which exists only once the guards
/// passed) makes one, bound to that call; it is the only way for an
/// interceptor to answer without proceeding.
#[must_use = "an authorization is only useful to answer in place of the handler"]
pub struct Authorized<'a> {
    key: CallKey,
    scope: PhantomData<&'a ()>,
}

impl fmt::Debug for Authorized<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Authorized")
    }
}

impl Authorized<'_> {
    pub(crate) fn new(key: CallKey) -> Self {
        Self {
            key,
            scope: PhantomData,
        }
    }

    /// Answers a typed interceptor's call in place of the handler.
    pub fn answer<T>(self, reply: Reply<T>) -> Answer<T> {
        Answer::new(reply, self.key)
    }

    /// Answers a raw interceptor's call in place of the method.
    pub fn raw_answer(self, result: Box<RawValue>) -> RawAnswer {
        RawAnswer {
            result,
            key: self.key,
            taken_over: true,
        }
    }

    /// Answers a handler-chain interceptor's call in place of the handler;
    /// `T` must be the result type of the method.
    pub fn settle<T: Serialize + Send + Sync + 'static>(self, reply: Reply<T>) -> Settled {
        Settled::new(reply, self.key)
    }

    /// Answers a handler-chain call with a result of another kind (a task).
    pub fn alternate(self, result: AlternateResult) -> Settled {
        Settled {
            reply: Reply::Alternate(result),
            key: self.key,
        }
    }
}

/// What a typed interceptor returns: the typed reply, readable and editable.
///
/// Made only by proceeding or through [`Authorized::answer`].
#[derive(Debug)]
pub struct Answer<T> {
    reply: Reply<T>,
    pub(crate) key: CallKey,
}

impl<T> Answer<T> {
    pub(crate) fn new(reply: Reply<T>, key: CallKey) -> Self {
        Self { reply, key }
    }

    /// The reply.
    pub fn reply(&self) -> &Reply<T> {
        &self.reply
    }

    /// The reply, to edit on the way out.
    pub fn reply_mut(&mut self) -> &mut Reply<T> {
        &mut self.reply
    }

    /// The reply, taken out.
    pub fn into_reply(self) -> Reply<T> {
        self.reply
    }
}

/// What a raw interceptor returns: the encoded `result`.
///
/// Made only by proceeding or through [`Authorized::raw_answer`].
#[derive(Debug)]
pub struct RawAnswer {
    result: Box<RawValue>,
    pub(crate) key: CallKey,
    /// Made in place of the method rather than by it.
    pub(crate) taken_over: bool,
}

impl RawAnswer {
    pub(crate) fn new(result: Box<RawValue>, key: CallKey) -> Self {
        Self {
            result,
            key,
            taken_over: false,
        }
    }

    /// The encoded result.
    pub fn result(&self) -> &RawValue {
        &self.result
    }

    pub(crate) fn into_result(self) -> Box<RawValue> {
        self.result
    }
}

/// What a handler-chain interceptor returns: the handler's reply, type-erased.
///
/// Made only by proceeding or through [`Authorized::settle`] and [`Authorized::alternate`].
pub struct Settled {
    pub(crate) reply: Reply<Box<dyn ErasedValue>>,
    pub(crate) key: CallKey,
}

impl fmt::Debug for Settled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settled")
            .field("result_type", &self.reply.result_type())
            .finish()
    }
}

impl Settled {
    pub(crate) fn new<T: Serialize + Send + Sync + 'static>(reply: Reply<T>, key: CallKey) -> Self {
        Self {
            reply: reply.map(|t| Box::new(t) as Box<dyn ErasedValue>),
            key,
        }
    }

    /// The `resultType` of the reply.
    pub fn result_type(&self) -> mcp_core::result::ResultType {
        self.reply.result_type()
    }

    /// The reply as JSON, for audit and observation (serializes on each call).
    pub fn to_json(&self) -> JsonValue {
        match &self.reply {
            Reply::Complete(value) => value.to_json(),
            Reply::InputRequired(i) => serde_json::to_value(i).unwrap_or_default(),
            Reply::Alternate(a) => serde_json::to_value(a).unwrap_or_default(),
        }
    }

    /// The complete result, if it is one and of type `T`.
    pub fn complete<T: 'static>(&self) -> Option<&T> {
        match &self.reply {
            Reply::Complete(value) => value.as_any().downcast_ref(),
            _ => None,
        }
    }
}
