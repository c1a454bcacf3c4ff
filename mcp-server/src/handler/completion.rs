//! Completions written as functions: the value typed so far in, candidate
//! values out, cut to the 100 a result may carry.
//!
//! This is what `#[completion]` expands to; it is also usable by hand.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! use mcp_server::handler::completion;
//!
//! let result = completion::into_result((0..150).map(|n| n.to_string()).collect::<Vec<_>>()).unwrap();
//! assert_eq!(result.completion.values.len(), 100);
//! assert_eq!(result.completion.total, Some(150));
//! assert_eq!(result.completion.has_more, Some(true));
//! # });
//! ```

use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;

use mcp_core::completion::{Complete, CompleteRequestParams, CompleteResult, Completion};
use mcp_core::error::ErrorObject;

use crate::context::RequestContext;
use crate::handler::{Handler, HandlerResult};
use crate::vocabulary::BoxFuture;

/// The most values one completion result carries.
pub const MAX_VALUES: usize = 100;

/// What a completion function may return.
///
/// A `Result` sends its error as a JSON-RPC internal error (`-32603`) with
/// the error's text.
#[diagnostic::on_unimplemented(
    message = "a completion cannot return `{Self}`",
    note = "return a `Vec<String>` or a `Result<Vec<String>, E>` with `E: Display`"
)]
pub trait IntoCompletionValues {
    /// The candidate values, or the error.
    fn into_values(self) -> Result<Vec<String>, ErrorObject>;
}

impl IntoCompletionValues for Vec<String> {
    fn into_values(self) -> Result<Vec<String>, ErrorObject> {
        Ok(self)
    }
}

impl<E: Display> IntoCompletionValues for Result<Vec<String>, E> {
    fn into_values(self) -> Result<Vec<String>, ErrorObject> {
        self.map_err(|e| ErrorObject::internal_error(e.to_string()))
    }
}

/// The result for `values`: at most [`MAX_VALUES`] of them, with `total`
/// and `hasMore` saying how many there were.
///
/// # Errors
///
/// The error `values` carries.
pub fn into_result(values: impl IntoCompletionValues) -> Result<CompleteResult, ErrorObject> {
    let mut values = values.into_values()?;
    let total = values.len();
    values.truncate(MAX_VALUES);
    Ok(CompleteResult {
        completion: Completion {
            values,
            total: Some(total as u64),
            has_more: Some(total > MAX_VALUES),
        },
        ..CompleteResult::default()
    })
}

/// A `completion/complete` handler from an async closure taking the context
/// and the value typed so far.
pub fn complete_handler<R, F, Fut>(f: F) -> CompletionFn<R, F>
where
    R: IntoCompletionValues + 'static,
    F: Fn(RequestContext, String) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
{
    CompletionFn {
        f,
        result: PhantomData,
    }
}

/// A completion handler; see [`complete_handler`].
pub struct CompletionFn<R, F> {
    f: F,
    result: PhantomData<fn() -> R>,
}

impl<R, F> std::fmt::Debug for CompletionFn<R, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompletionFn")
            .field("returns", &std::any::type_name::<R>())
            .finish_non_exhaustive()
    }
}

impl<R, F, Fut> Handler<Complete> for CompletionFn<R, F>
where
    R: IntoCompletionValues + 'static,
    F: Fn(RequestContext, String) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
{
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: CompleteRequestParams,
    ) -> BoxFuture<'a, HandlerResult<CompleteResult>> {
        let future = (self.f)(ctx.clone(), params.argument.value);
        Box::pin(async move { into_result(future.await).map(Into::into) })
    }
}
