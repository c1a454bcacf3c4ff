//! `subscriptions/listen` (2026-07-28): long-lived requests whose streams
//! carry the change notifications a listener opted into and was granted.
//!
//! A listen request goes through the one pipeline like any other (raw and
//! typed interceptors, guards). Its handler grants what the listener may
//! receive (the framework's own filter members, then every
//! [`GrantProcessor`]), acknowledges with the grant, then forwards each
//! published [`Change`](crate::sink::Change) the grant admits, tagged with
//! the subscription's id, until the client goes away (closing the HTTP
//! stream, `notifications/cancelled` on stdio) or the server ends it
//! ([`Server::end_subscriptions`](crate::Server::end_subscriptions)), when
//! it answers with the listen result.
//!
//! Bounds: at most `server.max_listeners` listeners (10,000) at once, over
//! which a listen request fails; at most `server.listener_queue` changes
//! (64) queued for one listener, past which it is closed with a `lagged`
//! error instead of the server's memory growing. Over HTTP a listen stream
//! holds none of the request-concurrency permits and is not cut by the
//! request timeout, and it sends a keep-alive comment when idle.

mod grant;
mod hub;
mod listen;

pub use grant::{Grant, GrantProcessor, GrantProcessors, ListenRequest};
pub(crate) use hub::Hub;
pub(crate) use listen::{Listen, Offers};
