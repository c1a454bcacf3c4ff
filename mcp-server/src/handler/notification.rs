//! Notification handlers: the code that acts on a client notification an
//! extension declares, typed by its [`NotificationMethod`].
//!
//! A notification has no answer, so its handler returns nothing; params
//! that do not decode into the declared type are logged and dropped, since
//! there is nobody to answer.
//!
//! ```
//! use mcp_server::handler::notification::notification_fn;
//! use mcp_server::seam::contributor::contributor_fn;
//! use mcp_server::{Notification, Params};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Debug, Serialize, Deserialize, Params)]
//! struct Pinged { from: String }
//!
//! #[derive(Notification)]
//! #[mcp(name = "com.example/pinged", params = Pinged)]
//! struct PingedNotification;
//!
//! let contributor = contributor_fn(|into| {
//!     into.notification::<PingedNotification>(notification_fn(|_ctx, p: Pinged| async move {
//!         tracing::info!(from = %p.from, "pinged");
//!     }));
//! });
//! # let _ = contributor;
//! ```

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;

use mcp_core::method::NotificationMethod;

use crate::context::RequestContext;
use crate::vocabulary::BoxFuture;

/// Acts on client notification `N`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not handle the notification `{N}`",
    note = "implement `mcp_server::handler::notification::NotificationHandler<{N}>`, or wrap an async closure with `notification_fn(...)`"
)]
pub trait NotificationHandler<N: NotificationMethod>: Send + Sync + 'static {
    /// Acts on one notification; `ctx` has its caller and `_meta`, and no id.
    fn handle<'a>(&'a self, ctx: &'a RequestContext, params: N::Params) -> BoxFuture<'a, ()>;
}

/// A notification handler made from an async closure; see [`notification_fn`].
pub struct NotificationFn<F> {
    f: F,
}

impl<F> fmt::Debug for NotificationFn<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("NotificationFn")
    }
}

/// A notification handler from an async closure taking the context and the params.
pub fn notification_fn<F>(f: F) -> NotificationFn<F> {
    NotificationFn { f }
}

impl<N, F, Fut> NotificationHandler<N> for NotificationFn<F>
where
    N: NotificationMethod,
    F: Fn(RequestContext, N::Params) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    fn handle<'a>(&'a self, ctx: &'a RequestContext, params: N::Params) -> BoxFuture<'a, ()> {
        Box::pin((self.f)(ctx.clone(), params))
    }
}

/// A contributed notification, typed inside, erased outside.
pub(crate) trait ErasedNotification: Send + Sync {
    /// The wire name.
    fn name(&self) -> &'static str;
    /// The eras it exists in.
    fn eras(&self) -> &'static [mcp_core::version::Era];
    /// Decodes `params` and runs the handler; a decode failure is logged.
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: Option<&'a serde_json::value::RawValue>,
    ) -> BoxFuture<'a, ()>;
}

/// The contributed notification `N` with its handler.
pub(crate) struct NotificationEntry<N: NotificationMethod, H> {
    pub(crate) handler: H,
    pub(crate) notification: PhantomData<fn() -> N>,
}

impl<N: NotificationMethod, H: NotificationHandler<N>> ErasedNotification
    for NotificationEntry<N, H>
{
    fn name(&self) -> &'static str {
        N::NAME
    }

    fn eras(&self) -> &'static [mcp_core::version::Era] {
        N::ERAS
    }

    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: Option<&'a serde_json::value::RawValue>,
    ) -> BoxFuture<'a, ()> {
        let decoded = match params {
            Some(raw) => serde_json::from_str::<N::Params>(raw.get()),
            None => serde_json::from_value::<N::Params>(serde_json::Value::Null),
        };
        match decoded {
            Ok(params) => self.handler.handle(ctx, params),
            Err(error) => {
                tracing::warn!(
                    notification = N::NAME,
                    %error,
                    "a client notification's params do not decode; it is dropped"
                );
                Box::pin(async {})
            }
        }
    }
}
