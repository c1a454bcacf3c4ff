//! Sending interceptors: act on each message the server sends, as it is
//! produced, and on the answers its own requests get.
//!
//! **Experimental**: the contract may change before 1.0 (the shape of
//! [`Outbound`] may grow), and the boot report marks the members
//! `(experimental)`. Replacement: a rewrite replaces the message for the
//! members after it and for the client; transport limits: a notification
//! sent after its request was answered reaches the client only where the
//! transport keeps a stream (a 2025-11-25 session, stdio).
//!
//! What passes them, in both eras and over every transport:
//!
//! | kind | messages |
//! |---|---|
//! | [`OutboundKind::Notification`] | progress, log, list-change and resource-update notifications, `subscriptions/listen` notifications (an extension's task status included), an extension's own notifications |
//! | [`OutboundKind::Request`] | a 2025-11-25 request to the client: `elicitation/create`, `sampling/createMessage`, `roots/list`, an extension's own (`RequestContext::request`) |
//! | [`OutboundKind::Answer`] | the client's answer to such a request, as it arrives |
//! | [`OutboundKind::InputRequest`] | each input request of a 2026-07-28 input-required result, as the handler asks it |
//!
//! **Order.** Members run one after another in the order boot sorted them
//! (order, then name, then origin; lower first), on the payload the one
//! before left. A notification reaches them after the framework decided
//! the caller may hear of it (a listen grant, a session's subscription)
//! and before it is serialized; an exchange message after the handler
//! asked and before it is sent, or after the client answered and before
//! the handler reads the answer. Nothing is buffered: each message passes
//! alone, while the request that sends it is still running.
//!
//! **What a member can do.** Read the message and its request's context;
//! rewrite its params and `_meta` (within the method's contract: the
//! framework decodes a rewritten answer as the type the handler expects);
//! [`suppress`](Outbound::suppress) a notification, which is then not
//! sent while the request goes on; or, on an exchange message, refuse it,
//! which the handler's ask sees as [`InputError::Refused`](crate::context::InputError::Refused).
//!
//! **Cleanup.** [`SendingInterceptor::end`] runs once for every request
//! whose messages a member saw, when its answer is made, its handler
//! fails, or it is cancelled (its future dropped), with the [`End`] that
//! happened; a member keeps per-request state until then.
//!
//! **Guard parity.** Only what the caller is sent passes: a call the
//! guards refuse runs no handler and sends nothing, and a change on a
//! target the caller may not see reaches no stream of theirs, so a member
//! learns nothing a caller could not.
//!
//! ```
//! use mcp_server::seam::interceptor::{Outbound, OutboundKind, SendingInterceptor};
//!
//! /// Stamps every progress notification with the server's region.
//! struct Region;
//! impl SendingInterceptor for Region {
//!     fn notify(&self, message: &mut Outbound) {
//!         if message.method() == "notifications/progress" {
//!             message.meta_mut().insert("com.example/region".into(), "eu-west".into());
//!         }
//!     }
//! }
//! ```

use std::sync::{Arc, OnceLock};

use mcp_core::error::ErrorObject;
use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::jsonrpc::{JsonRpcVersion, Notification};
use serde_json::value::RawValue;

use crate::context::RequestContext;
use crate::vocabulary::BoxFuture;
use crate::vocabulary::registration::Item;
use crate::vocabulary::seam::{Kind, SeamWord};

/// Acts on each message the server sends; every method has a default that
/// lets the message pass untouched.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a sending interceptor",
    note = "implement `mcp_server::seam::interceptor::SendingInterceptor` and register it with `Item::sending_interceptor`"
)]
pub trait SendingInterceptor: Send + Sync + 'static {
    /// Acts on one notification as it is sent: read it, rewrite its params
    /// or `_meta`, or [`suppress`](Outbound::suppress) it. Runs on the task
    /// that sends it, so it must not block.
    fn notify(&self, message: &mut Outbound) {
        let _ = message;
    }

    /// Acts on one message of an exchange with the client: a request the
    /// server sends, the client's answer, or an input request. Rewrite it,
    /// or refuse it with an error the asking handler sees.
    fn exchange<'a>(&'a self, message: &'a mut Outbound) -> BoxFuture<'a, Result<(), ErrorObject>> {
        let _ = message;
        Box::pin(std::future::ready(Ok(())))
    }

    /// Runs once when a request whose messages this member saw ends.
    fn end(&self, ctx: &RequestContext, end: End) {
        let _ = (ctx, end);
    }
}

/// What kind of message a sending interceptor sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum OutboundKind {
    /// A notification to the client.
    Notification,
    /// A 2025-11-25 request to the client.
    Request,
    /// The client's answer to a request of the server's (inbound).
    Answer,
    /// One input request of a 2026-07-28 input-required result.
    InputRequest,
}

/// How a request ended, for [`SendingInterceptor::end`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Its answer was made: a result, or a JSON-RPC error it was meant to give.
    Completed,
    /// It failed with an error.
    Failed,
    /// It was cancelled, or its client went away, before it was answered.
    Cancelled,
}

/// One message as a sending interceptor sees it: its method, params and
/// the context of the request that sends it.
///
/// A notification's params are decoded only when a member reads them, and
/// encoded again only when one rewrites them: a member that lets a
/// message pass untouched costs no JSON work.
#[derive(Debug)]
pub struct Outbound {
    kind: OutboundKind,
    method: String,
    /// The params as they came, until a member reads them.
    raw: Option<Box<RawValue>>,
    /// The params, decoded on first read.
    params: OnceLock<JsonObject>,
    /// Whether a member may have rewritten them.
    rewritten: bool,
    key: Option<String>,
    ctx: Option<RequestContext>,
    suppressed: bool,
}

impl Outbound {
    pub(crate) fn new(
        kind: OutboundKind,
        method: String,
        params: JsonObject,
        ctx: Option<RequestContext>,
    ) -> Self {
        Self {
            kind,
            method,
            raw: None,
            params: OnceLock::from(params),
            rewritten: false,
            key: None,
            ctx,
            suppressed: false,
        }
    }

    /// A notification with its params as they came.
    fn of_raw(method: String, raw: Option<Box<RawValue>>, ctx: Option<RequestContext>) -> Self {
        Self {
            kind: OutboundKind::Notification,
            method,
            raw,
            params: OnceLock::new(),
            rewritten: false,
            key: None,
            ctx,
            suppressed: false,
        }
    }

    /// The params decoded: an object, or empty when they are absent or
    /// not an object.
    fn decoded(&self) -> &JsonObject {
        self.params.get_or_init(|| {
            self.raw
                .as_deref()
                .and_then(|raw| serde_json::from_str::<JsonObject>(raw.get()).ok())
                .unwrap_or_default()
        })
    }

    pub(crate) fn with_key(mut self, key: String) -> Self {
        self.key = Some(key);
        self
    }

    /// What kind of message this is.
    pub fn kind(&self) -> OutboundKind {
        self.kind
    }

    /// Its method: the notification's or request's, or for an answer the
    /// method of the request answered.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The key of an input request (`elicitation-1`…), or `None`.
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }

    /// The request that sends it, or `None` for a notification a 2025-11-25
    /// session hears of outside any request (a list change on its stream).
    pub fn ctx(&self) -> Option<&RequestContext> {
        self.ctx.as_ref()
    }

    /// Its params (for an answer, its result), `_meta` included.
    pub fn params(&self) -> &JsonObject {
        self.decoded()
    }

    /// Its params, to rewrite.
    pub fn params_mut(&mut self) -> &mut JsonObject {
        self.decoded();
        self.rewritten = true;
        self.params.get_mut().expect("decoded above")
    }

    /// Its `_meta`, made empty when it had none, to add to or rewrite;
    /// entries the framework does not know are kept as they are.
    pub fn meta_mut(&mut self) -> &mut JsonObject {
        let meta = self
            .params_mut()
            .entry("_meta")
            .or_insert_with(|| JsonValue::Object(JsonObject::new()));
        if !meta.is_object() {
            *meta = JsonValue::Object(JsonObject::new());
        }
        meta.as_object_mut().expect("made an object above")
    }

    /// Keeps a notification from being sent, while its request goes on;
    /// `false`, and nothing happens, for any other kind of message, which
    /// the protocol does not let vanish.
    pub fn suppress(&mut self) -> bool {
        if self.kind == OutboundKind::Notification {
            self.suppressed = true;
        }
        self.suppressed
    }

    /// Whether a member suppressed it.
    pub fn is_suppressed(&self) -> bool {
        self.suppressed
    }

    /// Its params as sent.
    pub(crate) fn into_params(mut self) -> JsonObject {
        self.decoded();
        self.params.take().unwrap_or_default()
    }
}

/// The kind of sending interceptors: every one runs, in order.
#[derive(Debug)]
pub struct SendingInterceptors;

impl Kind for SendingInterceptors {
    type Member = Arc<dyn SendingInterceptor>;
    const NAME: &'static str = "sending interceptor";
    const EXPERIMENTAL: bool = true;
    const CODE: &'static str = "mcp::duplicate_sending_interceptor";
    const WORD: SeamWord = SeamWord::Interceptor;
    const UNIQUE: bool = false;
    fn key(_: &Self::Member) -> String {
        String::new()
    }
}

impl Item {
    /// A sending interceptor ([`SendingInterceptors`]).
    pub fn sending_interceptor(interceptor: impl SendingInterceptor) -> Self {
        Self::member::<SendingInterceptors>(Arc::new(interceptor))
    }
}

/// The sorted sending interceptors of a server; empty costs nothing.
pub(crate) type Senders = Arc<[Arc<dyn SendingInterceptor>]>;

/// Passes `notification` through `senders`; `None` when one suppressed it.
/// Its params are encoded again only when a member rewrote them.
pub(crate) fn notification(
    senders: &[Arc<dyn SendingInterceptor>],
    ctx: Option<RequestContext>,
    notification: Notification,
) -> Option<Notification> {
    let Notification { method, params, .. } = notification;
    let mut message = Outbound::of_raw(method, params, ctx);
    for sender in senders {
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            sender.notify(&mut message);
        }));
        if caught.is_err() {
            tracing::error!(notification = %message.method, "a sending interceptor panicked; the notification is sent as it was left");
        }
        if message.suppressed {
            return None;
        }
    }
    let params = if message.rewritten {
        let params = message.params.take().unwrap_or_default();
        Some(serde_json::value::to_raw_value(&params).ok()?)
    } else {
        message.raw.take()
    };
    Some(Notification {
        jsonrpc: JsonRpcVersion,
        method: std::mem::take(&mut message.method),
        params,
    })
}

/// Passes one exchange message through `senders`: the params (or result)
/// as the last member left them, or the error one refused it with.
pub(crate) async fn exchange(
    senders: &[Arc<dyn SendingInterceptor>],
    mut message: Outbound,
) -> Result<JsonObject, ErrorObject> {
    for sender in senders {
        sender.exchange(&mut message).await?;
    }
    Ok(message.into_params())
}
