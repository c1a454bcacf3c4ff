//! Prompts written as functions: arguments taken from `prompts/get` by name,
//! return values turned into a `GetPromptResult`.
//!
//! This is what `#[prompt]` expands to; it is also usable by hand.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! use mcp_server::handler::prompt::{self, PromptArgumentValue};
//! use mcp_server::core::prompts::GetPromptRequestParams;
//! use mcp_server::handler::Handler;
//! use mcp_server::RequestContext;
//! use mcp_server::handler::Reply;
//!
//! let greet = prompt::get_handler::<String, _, _>(|_ctx, params: GetPromptRequestParams| async move {
//!     let mut args = prompt::Arguments::new(params.arguments);
//!     let name = <String as PromptArgumentValue>::take(&mut args, "name")?;
//!     Ok(format!("Greet {name}"))
//! });
//! let params = GetPromptRequestParams { name: "greet".into(), ..Default::default() };
//! let error = greet.handle(&RequestContext::for_tests(), params).await.unwrap_err();
//! assert_eq!(error.code.0, -32602); // the missing argument is named
//! # });
//! ```

use std::collections::BTreeMap;
use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;

use mcp_core::content::{ContentBlock, Role};
use mcp_core::error::ErrorObject;
use mcp_core::prompts::{GetPrompt, GetPromptRequestParams, GetPromptResult, PromptMessage};

use crate::context::RequestContext;
use crate::handler::{Handler, HandlerResult};
use crate::vocabulary::BoxFuture;

/// What a prompt function may return.
///
/// A `String` is one user text message; a `Result` sends its error as a
/// JSON-RPC invalid-params error (`-32602`) with the error's text, since
/// prompts have no error result.
#[diagnostic::on_unimplemented(
    message = "a prompt cannot return `{Self}`",
    note = "return a `GetPromptResult`, a `Vec<PromptMessage>`, a `String` (one user message), or a `Result` of one of these"
)]
pub trait IntoPromptResult {
    /// The result to send, or the error.
    fn into_prompt_result(self) -> Result<GetPromptResult, ErrorObject>;
}

impl IntoPromptResult for GetPromptResult {
    fn into_prompt_result(self) -> Result<GetPromptResult, ErrorObject> {
        Ok(self)
    }
}

impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self) -> Result<GetPromptResult, ErrorObject> {
        Ok(GetPromptResult {
            messages: self,
            ..GetPromptResult::default()
        })
    }
}

impl IntoPromptResult for String {
    fn into_prompt_result(self) -> Result<GetPromptResult, ErrorObject> {
        vec![PromptMessage {
            role: Role::User,
            content: ContentBlock::text(self),
        }]
        .into_prompt_result()
    }
}

impl<T: IntoPromptResult, E: Display> IntoPromptResult for Result<T, E> {
    fn into_prompt_result(self) -> Result<GetPromptResult, ErrorObject> {
        match self {
            Ok(value) => value.into_prompt_result(),
            Err(error) => Err(ErrorObject::invalid_params(error.to_string())),
        }
    }
}

/// The argument values of one `prompts/get`, taken by name.
#[derive(Debug, Clone, Default)]
pub struct Arguments(BTreeMap<String, String>);

impl Arguments {
    /// The arguments the client sent.
    pub fn new(arguments: Option<BTreeMap<String, String>>) -> Self {
        Self(arguments.unwrap_or_default())
    }

    /// Takes the value of `name`, if given.
    pub fn take(&mut self, name: &str) -> Option<String> {
        self.0.remove(name)
    }
}

/// A type a prompt argument may have: `String` (required) or
/// `Option<String>` (optional).
#[diagnostic::on_unimplemented(
    message = "a prompt argument cannot be a `{Self}`",
    note = "prompt arguments are text: use `String` for a required argument or `Option<String>` for an optional one"
)]
pub trait PromptArgumentValue: Sized {
    /// Whether the argument must be given.
    const REQUIRED: bool;

    /// Takes the argument `name` from `arguments`.
    ///
    /// # Errors
    ///
    /// Invalid params (`-32602`) naming a missing required argument.
    fn take(arguments: &mut Arguments, name: &str) -> Result<Self, ErrorObject>;
}

impl PromptArgumentValue for String {
    const REQUIRED: bool = true;

    fn take(arguments: &mut Arguments, name: &str) -> Result<Self, ErrorObject> {
        arguments.take(name).ok_or_else(|| {
            ErrorObject::invalid_params(format!("missing required argument `{name}`"))
        })
    }
}

impl PromptArgumentValue for Option<String> {
    const REQUIRED: bool = false;

    fn take(arguments: &mut Arguments, name: &str) -> Result<Self, ErrorObject> {
        Ok(arguments.take(name))
    }
}

/// A `prompts/get` handler from an async closure that returns anything
/// [`IntoPromptResult`], or an error (such as a missing argument).
pub fn get_handler<R, F, Fut>(f: F) -> PromptFn<R, F>
where
    R: IntoPromptResult + 'static,
    F: Fn(RequestContext, GetPromptRequestParams) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
{
    PromptFn {
        f,
        result: PhantomData,
    }
}

/// A prompt handler; see [`get_handler`].
pub struct PromptFn<R, F> {
    f: F,
    result: PhantomData<fn() -> R>,
}

impl<R, F> std::fmt::Debug for PromptFn<R, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PromptFn")
            .field("returns", &std::any::type_name::<R>())
            .finish_non_exhaustive()
    }
}

impl<R, F, Fut> Handler<GetPrompt> for PromptFn<R, F>
where
    R: IntoPromptResult + 'static,
    F: Fn(RequestContext, GetPromptRequestParams) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
{
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: GetPromptRequestParams,
    ) -> BoxFuture<'a, HandlerResult<GetPromptResult>> {
        let future = (self.f)(ctx.clone(), params);
        Box::pin(async move { future.await?.into_prompt_result().map(Into::into) })
    }
}
