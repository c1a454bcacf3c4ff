//! Answers that can only be made by proceeding or by passing the guards.

use std::fmt;
use std::marker::PhantomData;

use mcp_core::json::JsonValue;
use serde::Serialize;
use serde_json::value::RawValue;

use super::chain::ErasedValue;
use crate::reply::Reply;

/// Proof that the guards of the handler a call is aimed at allowed the caller.
///
/// Only `authorize` on a `next` returns one; it is the only way for an
/// interceptor to answer without proceeding.
#[must_use = "an authorization is only useful to answer in place of the handler"]
pub struct Authorized<'a> {
    scope: PhantomData<&'a ()>,
}

impl fmt::Debug for Authorized<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Authorized")
    }
}

impl<'a> Authorized<'a> {
    pub(crate) fn new() -> Self {
        Self { scope: PhantomData }
    }

    /// Answers a typed interceptor's call in place of the handler.
    pub fn answer<T>(self, reply: Reply<T>) -> Answer<T> {
        Answer::new(reply)
    }

    /// Answers a raw interceptor's call in place of the handler.
    pub fn raw_answer(self, result: Box<RawValue>) -> RawAnswer {
        RawAnswer { result }
    }

    /// Answers a handler-chain interceptor's call in place of the handler;
    /// `T` must be the result type of the method.
    pub fn settle<T: Serialize + Send + Sync + 'static>(self, reply: Reply<T>) -> Settled {
        Settled::new(reply)
    }
}

/// What a typed interceptor returns: the typed reply, readable and editable.
///
/// Made only by proceeding or through [`Authorized::answer`].
#[derive(Debug)]
pub struct Answer<T> {
    reply: Reply<T>,
}

impl<T> Answer<T> {
    pub(crate) fn new(reply: Reply<T>) -> Self {
        Self { reply }
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
}

impl RawAnswer {
    pub(crate) fn new(result: Box<RawValue>) -> Self {
        Self { result }
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
/// Made only by proceeding or through [`Authorized::settle`].
pub struct Settled {
    pub(crate) reply: Reply<Box<dyn ErasedValue>>,
}

impl fmt::Debug for Settled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settled")
            .field("result_type", &self.reply.result_type())
            .finish()
    }
}

impl Settled {
    pub(crate) fn new<T: Serialize + Send + Sync + 'static>(reply: Reply<T>) -> Self {
        Self {
            reply: reply.map(|t| Box::new(t) as Box<dyn ErasedValue>),
        }
    }

    pub(crate) fn from_erased(reply: Reply<Box<dyn ErasedValue>>) -> Self {
        Self { reply }
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
