//! Typed tools: arguments decoded into a Rust type whose JSON Schema is the
//! tool's input schema, checked before the handler runs, and return values
//! turned into a `CallToolResult`.
//!
//! This is what `#[tool]` expands to; it is also usable by hand.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! use mcp_server::handler::tool::{self, Structured};
//! use mcp_server::core::tools::{CallTool, CallToolRequestParams, Tool};
//! use mcp_server::handler::Handler;
//! use mcp_server::RequestContext;
//! use mcp_server::handler::Reply;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Add { a: i64, b: i64 }
//! #[derive(serde::Serialize, schemars::JsonSchema)]
//! struct Sum { sum: i64 }
//!
//! let tool = tool::describe::<Add, Structured<Sum>>(Tool { name: "add".into(), ..Default::default() });
//! assert_eq!(tool.input_schema["properties"]["a"]["type"], "integer");
//! assert!(tool.output_schema.is_some());
//!
//! let add = tool::handler::<Add, _, _, _>(&tool, |_ctx, args: Add| async move { Structured(Sum { sum: args.a + args.b }) });
//! let params = CallToolRequestParams {
//!     name: "add".into(),
//!     arguments: serde_json::json!({"a": 2, "b": "three"}).as_object().cloned(),
//!     ..Default::default()
//! };
//! let Reply::Complete(result) = add.handle(&RequestContext::for_tests(), params).await.unwrap() else { panic!() };
//! assert_eq!(result.is_error, Some(true)); // `b` is not an integer: the model is told, not the transport
//! # });
//! ```

use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;

use mcp_core::content::ContentBlock;
use mcp_core::error::ErrorObject;
use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::tools::{CallTool, CallToolRequestParams, CallToolResult, Tool};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::context::RequestContext;
use crate::handler::schema::{Schema, undecodable};
use crate::handler::{Handler, HandlerResult};
use crate::vocabulary::BoxFuture;

/// What a tool function may return.
///
/// Text, content blocks and `CallToolResult` are sent as they are;
/// [`Structured`] also sends `structuredContent` and declares an output
/// schema; a `Result` sends its error as an `isError: true` result, so the
/// model sees it, rather than as a JSON-RPC error.
#[diagnostic::on_unimplemented(
    message = "a tool cannot return `{Self}`",
    note = "return text, a `ContentBlock`, a `Vec<ContentBlock>`, a `CallToolResult`, `Structured<T>` (T: Serialize + JsonSchema), or a `Result` of one of these"
)]
pub trait IntoToolResult {
    /// The output schema this return type declares, if any.
    fn output_schema() -> Option<JsonObject> {
        None
    }

    /// The result to send.
    fn into_tool_result(self) -> CallToolResult;
}

impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> CallToolResult {
        self
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoToolResult for &'static str {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoToolResult for ContentBlock {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult {
            content: vec![self],
            ..CallToolResult::default()
        }
    }
}

impl IntoToolResult for Vec<ContentBlock> {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult {
            content: self,
            ..CallToolResult::default()
        }
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::default()
    }
}

impl<T: IntoToolResult, E: Display> IntoToolResult for Result<T, E> {
    fn output_schema() -> Option<JsonObject> {
        T::output_schema()
    }

    fn into_tool_result(self) -> CallToolResult {
        match self {
            Ok(value) => value.into_tool_result(),
            Err(error) => CallToolResult::error(error.to_string()),
        }
    }
}

/// A structured tool result: sent as `structuredContent`, mirrored as JSON
/// text in `content`, and described by a generated output schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Structured<T>(pub T);

impl<T: Serialize + JsonSchema> IntoToolResult for Structured<T> {
    fn output_schema() -> Option<JsonObject> {
        Some(schema_of::<T>())
    }

    fn into_tool_result(self) -> CallToolResult {
        match serde_json::to_value(&self.0) {
            Ok(value) => CallToolResult {
                content: vec![ContentBlock::text(value.to_string())],
                structured_content: Some(value),
                ..CallToolResult::default()
            },
            Err(e) => CallToolResult::error(format!("the tool's result did not serialize: {e}")),
        }
    }
}

/// The JSON Schema (2020-12) of `T`, as an object.
pub fn schema_of<T: JsonSchema>() -> JsonObject {
    match schemars::schema_for!(T).to_value() {
        JsonValue::Object(object) => object,
        other => {
            let mut object = JsonObject::new();
            object.insert("allOf".into(), JsonValue::Array(vec![other]));
            object
        }
    }
}

/// Completes a tool descriptor with the input schema of `A` and the output
/// schema of `R`, unless the descriptor already has its own.
pub fn describe<A: JsonSchema, R: IntoToolResult>(mut tool: Tool) -> Tool {
    if tool.input_schema.is_empty() {
        tool.input_schema = schema_of::<A>();
        // The struct the macro gathers separate arguments into is not a
        // name for the wire.
        if tool.input_schema.get("title").and_then(JsonValue::as_str) == Some("__Arguments") {
            tool.input_schema.remove("title");
        }
    }
    tool.input_schema
        .entry("type")
        .or_insert_with(|| "object".into());
    if tool.output_schema.is_none() {
        tool.output_schema = R::output_schema();
    }
    tool
}

/// A tool handler that checks the arguments against the tool's input
/// schema, decodes them into `A`, calls `f`, and checks a structured result
/// against the output schema.
///
/// The schema checks need the `validate` feature; without it the arguments
/// are only decoded into `A`, which still refuses a wrong type or a missing
/// field but not a schema's own constraints, and schemas are not compiled.
///
/// # Panics
///
/// With `validate`, when the tool's input or output schema is not a valid
/// JSON Schema (a programming error, found at boot).
pub fn handler<A, F, Fut, R>(tool: &Tool, f: F) -> TypedTool<A, F>
where
    A: DeserializeOwned + Send + 'static,
    F: Fn(RequestContext, A) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
    R: IntoToolResult,
{
    try_handler(tool, f).unwrap_or_else(|why| panic!("{why}"))
}

/// The same as [`handler`], for a tool described by data: a schema that is
/// not a valid JSON Schema is an error to report, not a panic. Without the
/// `validate` feature, nothing checks the arguments of a tool that takes a
/// [`JsonObject`]: its handler checks them itself.
///
/// ```
/// use mcp_server::core::json::JsonObject;
/// use mcp_server::core::tools::Tool;
/// use mcp_server::handler::tool;
/// use mcp_server::RequestContext;
///
/// let mut described = Tool { name: "broken".into(), ..Default::default() };
/// described.input_schema.insert("type".into(), 7.into());
/// let made = tool::try_handler(&described, |_: RequestContext, _: JsonObject| async { "ok" });
/// assert!(made.unwrap_err().starts_with("the input schema of tool `broken` is invalid"));
/// ```
///
/// # Errors
///
/// Which schema is invalid, and why.
pub fn try_handler<A, F, Fut, R>(tool: &Tool, f: F) -> Result<TypedTool<A, F>, String>
where
    A: DeserializeOwned + Send + 'static,
    F: Fn(RequestContext, A) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
    R: IntoToolResult,
{
    let compile = |schema: &JsonObject, which: &str| {
        Schema::compile(schema)
            .map(Arc::new)
            .map_err(|e| format!("the {which} schema of tool `{}` is invalid: {e}", tool.name))
    };
    Ok(TypedTool {
        input: compile(&tool.input_schema, "input")?,
        output: tool
            .output_schema
            .as_ref()
            .map(|s| compile(s, "output"))
            .transpose()?,
        f,
        args: PhantomData,
    })
}

/// A typed tool handler; see [`handler`].
pub struct TypedTool<A, F> {
    input: Arc<Schema>,
    output: Option<Arc<Schema>>,
    f: F,
    args: PhantomData<fn() -> A>,
}

impl<A, F> std::fmt::Debug for TypedTool<A, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedTool")
            .field("args", &std::any::type_name::<A>())
            .finish_non_exhaustive()
    }
}

impl<A, F, Fut, R> Handler<CallTool> for TypedTool<A, F>
where
    A: DeserializeOwned + Send + 'static,
    F: Fn(RequestContext, A) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
    R: IntoToolResult,
{
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: CallToolRequestParams,
    ) -> BoxFuture<'a, HandlerResult<CallToolResult>> {
        let arguments = JsonValue::Object(params.arguments.unwrap_or_default());
        if let Some(problems) = self.input.problems(&arguments) {
            return Box::pin(async move {
                Ok(CallToolResult::error(format!("Invalid arguments: {problems}")).into())
            });
        }
        let args = match A::deserialize(&arguments) {
            Ok(args) => args,
            Err(_) => {
                let problem = undecodable::<A>(&arguments);
                return Box::pin(async move {
                    Ok(CallToolResult::error(format!("Invalid arguments: {problem}")).into())
                });
            }
        };
        let future = (self.f)(ctx.clone(), args);
        Box::pin(async move {
            let result = future.await.into_tool_result();
            let mismatch = match (&self.output, &result.structured_content) {
                (Some(schema), Some(structured)) => schema.problems(structured),
                _ => None,
            };
            if let Some(problems) = mismatch {
                return Err(ErrorObject::internal_error(format!(
                    "the tool's structured result does not match its output schema: {problems}"
                )));
            }
            Ok(result.into())
        })
    }
}

/// A tool argument a 2026-07-28 client mirrors in an `Mcp-Param-{header}`
/// header, because its input schema marks it with `x-mcp-header`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    /// The header name after `Mcp-Param-`, as the schema gives it.
    pub header: String,
    /// The argument it mirrors.
    pub argument: String,
}

/// The arguments of `tool` that its input schema marks with `x-mcp-header`.
pub fn param_headers(tool: &Tool) -> Vec<ParamHeader> {
    let Some(JsonValue::Object(properties)) = tool.input_schema.get("properties") else {
        return Vec::new();
    };
    properties
        .iter()
        .filter_map(|(argument, schema)| {
            let header = schema.get("x-mcp-header")?.as_str()?;
            Some(ParamHeader {
                header: header.to_owned(),
                argument: argument.clone(),
            })
        })
        .collect()
}
