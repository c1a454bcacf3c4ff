//! Resources and resource templates written as functions: return values
//! turned into a `ReadResourceResult`, template variables parsed into typed
//! parameters.
//!
//! This is what `#[resource]` and `#[resource_template]` expand to; it is
//! also usable by hand.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! use mcp_server::handler::resource;
//! use mcp_server::core::resources::ReadResourceRequestParams;
//! use mcp_server::handler::Handler;
//! use mcp_server::handler::resource::TemplateVariables;
//! use mcp_server::RequestContext;
//! use mcp_server::handler::Reply;
//!
//! let day = resource::read_handler::<String, _, _>(Some("text/plain"), |ctx, _params| async move {
//!     let n: u8 = resource::variable(&ctx, "n")?;
//!     Ok(format!("day {n}"))
//! });
//! let ctx = RequestContext::for_tests();
//! ctx.insert(TemplateVariables([("n".to_owned(), "x".to_owned())].into()));
//! let params = ReadResourceRequestParams { uri: "days://x".into(), ..Default::default() };
//! let error = day.handle(&ctx, params).await.unwrap_err();
//! assert_eq!(error.code.0, -32602); // `x` is not a number
//! # });
//! ```

use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;
use std::str::FromStr;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use mcp_core::error::ErrorObject;
use mcp_core::resources::{
    BlobResourceContents, ReadResource, ReadResourceRequestParams, ReadResourceResult,
    ResourceContents, TextResourceContents,
};
use mcp_core::result::CacheScope;

pub use super::uri_template::{MAX_URI_LEN, TemplateVariables, UriTemplate};
use crate::context::RequestContext;
use crate::handler::{Handler, HandlerResult};
use crate::vocabulary::BoxFuture;

/// What a resource function may return.
///
/// Text is sent as text contents and bytes as a base64 blob, both at the
/// URI read and with the declared MIME type; a `Result` sends its error as
/// a JSON-RPC internal error (`-32603`) with the error's text.
#[diagnostic::on_unimplemented(
    message = "a resource cannot return `{Self}`",
    note = "return a `String` (text), a `Vec<u8>` (bytes), a `ResourceContents`, a `Vec<ResourceContents>`, a `ReadResourceResult`, or a `Result` of one of these"
)]
pub trait IntoReadResourceResult {
    /// The result to send for a read of `uri`, or the error.
    fn into_read_result(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<ReadResourceResult, ErrorObject>;
}

impl IntoReadResourceResult for ReadResourceResult {
    fn into_read_result(self, _: &str, _: Option<&str>) -> Result<ReadResourceResult, ErrorObject> {
        Ok(self)
    }
}

impl IntoReadResourceResult for Vec<ResourceContents> {
    fn into_read_result(self, _: &str, _: Option<&str>) -> Result<ReadResourceResult, ErrorObject> {
        Ok(ReadResourceResult {
            contents: self,
            ..ReadResourceResult::default()
        })
    }
}

impl IntoReadResourceResult for ResourceContents {
    fn into_read_result(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<ReadResourceResult, ErrorObject> {
        vec![self].into_read_result(uri, mime_type)
    }
}

impl IntoReadResourceResult for String {
    fn into_read_result(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<ReadResourceResult, ErrorObject> {
        ResourceContents::Text(TextResourceContents {
            uri: uri.to_owned(),
            mime_type: mime_type.map(str::to_owned),
            text: self,
            ..TextResourceContents::default()
        })
        .into_read_result(uri, mime_type)
    }
}

impl IntoReadResourceResult for Vec<u8> {
    fn into_read_result(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<ReadResourceResult, ErrorObject> {
        ResourceContents::Blob(BlobResourceContents {
            uri: uri.to_owned(),
            mime_type: mime_type.map(str::to_owned),
            blob: STANDARD.encode(self),
            ..BlobResourceContents::default()
        })
        .into_read_result(uri, mime_type)
    }
}

impl<T: IntoReadResourceResult, E: Display> IntoReadResourceResult for Result<T, E> {
    fn into_read_result(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<ReadResourceResult, ErrorObject> {
        match self {
            Ok(value) => value.into_read_result(uri, mime_type),
            Err(error) => Err(ErrorObject::internal_error(error.to_string())),
        }
    }
}

/// A type a template variable may be parsed into: anything `FromStr` whose
/// error is `Display`.
#[diagnostic::on_unimplemented(
    message = "a template variable cannot be parsed into `{Self}`",
    note = "template variables are parsed with `FromStr`: use a type such as `String`, `u32` or your own `FromStr` type whose error is `Display`"
)]
pub trait TemplateVariable: Sized {
    /// Parses one variable's value.
    ///
    /// # Errors
    ///
    /// The parse error's text.
    fn parse_variable(value: &str) -> Result<Self, String>;
}

impl<T> TemplateVariable for T
where
    T: FromStr,
    T::Err: Display,
{
    fn parse_variable(value: &str) -> Result<Self, String> {
        value.parse().map_err(|e: T::Err| e.to_string())
    }
}

/// The template variable `name` of the URI being read, parsed.
///
/// # Errors
///
/// Invalid params (`-32602`) when the variable is not bound or does not parse.
pub fn variable<T: TemplateVariable>(ctx: &RequestContext, name: &str) -> Result<T, ErrorObject> {
    let variables = ctx.get::<TemplateVariables>().unwrap_or_default();
    let value = variables.0.get(name).ok_or_else(|| {
        ErrorObject::invalid_params(format!("the URI binds no template variable `{name}`"))
    })?;
    T::parse_variable(value).map_err(|e| {
        ErrorObject::invalid_params(format!("template variable `{name}` = `{value}`: {e}"))
    })
}

/// A `resources/read` handler from an async closure that returns anything
/// [`IntoReadResourceResult`], or an error; text and bytes get `mime_type`.
pub fn read_handler<R, F, Fut>(mime_type: Option<&str>, f: F) -> ResourceFn<R, F>
where
    R: IntoReadResourceResult + 'static,
    F: Fn(RequestContext, ReadResourceRequestParams) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
{
    ResourceFn {
        mime_type: mime_type.map(str::to_owned),
        f,
        result: PhantomData,
    }
}

/// A resource handler; see [`read_handler`].
pub struct ResourceFn<R, F> {
    mime_type: Option<String>,
    f: F,
    result: PhantomData<fn() -> R>,
}

impl<R, F> std::fmt::Debug for ResourceFn<R, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceFn")
            .field("mime_type", &self.mime_type)
            .field("returns", &std::any::type_name::<R>())
            .finish_non_exhaustive()
    }
}

impl<R, F, Fut> Handler<ReadResource> for ResourceFn<R, F>
where
    R: IntoReadResourceResult + 'static,
    F: Fn(RequestContext, ReadResourceRequestParams) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
{
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: ReadResourceRequestParams,
    ) -> BoxFuture<'a, HandlerResult<ReadResourceResult>> {
        let uri = params.uri.clone();
        let future = (self.f)(ctx.clone(), params);
        Box::pin(async move {
            let mut result = future
                .await?
                .into_read_result(&uri, self.mime_type.as_deref())?;
            // Unless the handler says otherwise, a read is not to be cached
            // and may differ by caller.
            result.ttl_ms.get_or_insert(0);
            result.cache_scope.get_or_insert(CacheScope::Private);
            Ok(result.into())
        })
    }
}
