//! Interceptors: per-request code that wraps the handling of a request and
//! receives `next`. Sorted once at boot by order, then name; lower order is
//! outermost.
//!
//! Every method, built in or contributed, goes through the same onion:
//!
//! ```text
//!  request ─▶ raw interceptors            (every method; JSON in, JSON out)
//!              └▶ typed interceptors      (one method; typed params and result)
//!                  └▶ handler chain        (one handler; fixed strata, in order)
//!                      CORRELATION ─ OBSERVATION ─ AUDIT ─ AUTHORIZATION (guards)
//!                      ─ VALIDATION ─ INVOCATION ─▶ alternate-result interceptors
//!                                                    └▶ the handler
//! response ◀─ encoded once, on the way out of the typed layer
//! ```
//!
//! An interceptor may proceed (`next.run(...)`), fail with a JSON-RPC error,
//! or answer in place of what it wraps. Answering in place is only possible
//! through an [`Authorized`] proof, which only `next.authorize()` returns
//! after the guards of the call's own target allowed the call's own caller
//! (or an alternate-result [`Invocation`], which exists only then). The
//! proof and every answer carry the key of their call, checked on the way
//! out: an answer made for one call is refused when another returns it.
//! An interceptor that takes over a call cannot skip the guards.
//!
//! ```compile_fail
//! use mcp_server::seam::interceptor::Answer;
//! use mcp_server::core::tools::CallToolResult;
//! // An answer cannot be made without passing the guards.
//! let answer = Answer::new(CallToolResult::text("forged").into());
//! ```

mod alternate;
mod answer;
mod chain;
mod raw;
mod scoped;
mod sending;
mod typed;

pub use alternate::{
    AlternateResultInterceptor, AlternateResultInterceptors, DeferredInvocation, Invocation,
    Running, Started,
};
pub use answer::{Answer, Authorized, RawAnswer, Settled};
pub use chain::{ErasedValue, HandlerCall, HandlerInterceptor, HandlerNext, Stratum};
pub use raw::{RawCall, RawInterceptor, RawInterceptors, RawNext};
pub use scoped::{HandlerInterceptors, Scope, Scoped};
pub(crate) use sending::Senders;
pub use sending::{End, Outbound, OutboundKind, SendingInterceptor, SendingInterceptors};
pub(crate) use sending::{exchange as send_exchange, notification as send_notification};
pub use typed::{TypedInterceptor, TypedInterceptorItem, TypedInterceptors, TypedNext};

pub(crate) use chain::{ErasedChain, ErasedInvoke};
pub(crate) use raw::RawRest;
pub(crate) use typed::TypedRest;
