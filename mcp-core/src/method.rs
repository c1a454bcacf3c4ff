//! The catalogue of methods: each spec method is a type that names its wire
//! string, its params type, its result type and the eras it exists in.
//!
//! Extensions declare their own methods the same way, so a framework can route,
//! decode and type-check every method alike.
//!
//! ```
//! use mcp_core::method::{Method, TypedRequest};
//! use mcp_core::tools::{CallTool, CallToolRequestParams};
//! use mcp_core::version::Era;
//!
//! assert_eq!(CallTool::NAME, "tools/call");
//! assert_eq!(CallTool::ERAS, Era::ALL);
//!
//! let request: TypedRequest<CallTool> = serde_json::from_value(serde_json::json!({
//!     "jsonrpc": "2.0", "id": 1, "method": "tools/call",
//!     "params": {"name": "echo", "arguments": {"text": "hi"}}
//! })).unwrap();
//! assert_eq!(request.params.name, "echo");
//! // A request for another method is not a `TypedRequest<CallTool>`.
//! assert!(serde_json::from_value::<TypedRequest<CallTool>>(serde_json::json!({
//!     "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"name": "echo"}
//! })).is_err());
//! ```
//!
//! An extension declares a method by implementing the trait on a tag type:
//!
//! ```
//! use mcp_core::method::{Method, Params};
//! use mcp_core::version::Era;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
//! #[serde(into = "&str", try_from = "&str")]
//! struct Forecast;
//! impl From<Forecast> for &'static str { fn from(_: Forecast) -> Self { "weather/forecast" } }
//! impl TryFrom<&str> for Forecast {
//!     type Error = String;
//!     fn try_from(s: &str) -> Result<Self, String> {
//!         if s == "weather/forecast" { Ok(Forecast) } else { Err(format!("not weather/forecast: {s}")) }
//!     }
//! }
//!
//! #[derive(Debug, Serialize, Deserialize)]
//! struct ForecastParams { city: String }
//! impl Params for ForecastParams {}
//!
//! impl Method for Forecast {
//!     const NAME: &'static str = "weather/forecast";
//!     const ERAS: &'static [Era] = Era::ALL;
//!     type Params = ForecastParams;
//!     type Result = mcp_core::result::EmptyResult;
//! }
//! ```

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::jsonrpc::{JsonRpcVersion, RequestId};
use crate::version::Era;

/// A params type: what a request or notification carries in `params`.
///
/// `Option<P>` is a params type too, for methods whose params may be left out.
pub trait Params: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// Whether the value is left out of the wire entirely (an absent `params`).
    fn is_omitted(&self) -> bool {
        false
    }
}

impl<P: Params> Params for Option<P> {
    fn is_omitted(&self) -> bool {
        self.is_none()
    }
}

/// A JSON-RPC request method: its wire name, params, result and eras.
///
/// The implementing type is a tag that serializes to [`Method::NAME`], so a
/// [`TypedRequest`] of it carries exactly that `method`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an MCP method",
    note = "declare a method by implementing `mcp_core::method::Method` on a tag type that serializes to its wire name"
)]
pub trait Method:
    Copy + Default + Serialize + DeserializeOwned + Send + Sync + std::fmt::Debug + 'static
{
    /// The wire name, such as `tools/call`.
    const NAME: &'static str;
    /// The protocol eras in which the method exists.
    const ERAS: &'static [Era];
    /// The `params` type.
    type Params: Params;
    /// The `result` type of a complete answer.
    type Result: Serialize + DeserializeOwned + Send + Sync + 'static;
    /// The member of `params` that names the request's target (`name` for
    /// `tools/call`, `uri` for `resources/read`, `taskId` for the tasks
    /// extension's methods), which Streamable HTTP mirrors in `Mcp-Name`;
    /// `None` for methods without one.
    const TARGET: Option<&'static str> = None;
}

/// A JSON-RPC notification method: its wire name, params and eras.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an MCP notification",
    note = "declare a notification by implementing `mcp_core::method::NotificationMethod` on a tag type"
)]
pub trait NotificationMethod:
    Copy + Default + Serialize + DeserializeOwned + Send + Sync + std::fmt::Debug + 'static
{
    /// The wire name, such as `notifications/progress`.
    const NAME: &'static str;
    /// The protocol eras in which the notification exists.
    const ERAS: &'static [Era];
    /// The `params` type.
    type Params: Params;
}

/// A request for one method, with typed params (`CallToolRequest`, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "", deserialize = ""))]
pub struct TypedRequest<M: Method> {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The request id.
    pub id: RequestId,
    /// The method tag.
    pub method: M,
    /// The params.
    #[serde(skip_serializing_if = "Params::is_omitted")]
    pub params: M::Params,
}

impl<M: Method> TypedRequest<M> {
    /// A request with id `id` and `params`.
    pub fn new(id: impl Into<RequestId>, params: M::Params) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            id: id.into(),
            method: M::default(),
            params,
        }
    }
}

/// A notification of one kind, with typed params (`ProgressNotification`, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "", deserialize = ""))]
pub struct TypedNotification<N: NotificationMethod> {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The notification tag.
    pub method: N,
    /// The params.
    #[serde(skip_serializing_if = "Params::is_omitted")]
    pub params: N::Params,
}

impl<N: NotificationMethod> TypedNotification<N> {
    /// A notification with `params`.
    pub fn new(params: N::Params) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            method: N::default(),
            params,
        }
    }
}

/// A method call without envelope, as the server embeds it in MRTR input
/// requests (`{ "method": ..., "params": ... }`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "", deserialize = ""))]
pub struct MethodCall<M: Method> {
    /// The method tag.
    pub method: M,
    /// The params.
    #[serde(skip_serializing_if = "Params::is_omitted")]
    pub params: M::Params,
}

impl<M: Method> MethodCall<M> {
    /// A call with `params`.
    pub fn new(params: M::Params) -> Self {
        Self {
            method: M::default(),
            params,
        }
    }
}

#[cfg(feature = "arbitrary")]
mod arbitrary_impls {
    use arbitrary::{Arbitrary, Result, Unstructured};

    use super::{Method, MethodCall, NotificationMethod, TypedNotification, TypedRequest};

    impl<'a, M: Method> Arbitrary<'a> for TypedRequest<M>
    where
        M::Params: Arbitrary<'a>,
    {
        fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
            Ok(Self::new(
                u.arbitrary::<crate::jsonrpc::RequestId>()?,
                u.arbitrary()?,
            ))
        }
    }

    impl<'a, N: NotificationMethod> Arbitrary<'a> for TypedNotification<N>
    where
        N::Params: Arbitrary<'a>,
    {
        fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
            Ok(Self::new(u.arbitrary()?))
        }
    }

    impl<'a, M: Method> Arbitrary<'a> for MethodCall<M>
    where
        M::Params: Arbitrary<'a>,
    {
        fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
            Ok(Self::new(u.arbitrary()?))
        }
    }
}

/// Declares method tags and their [`Method`] implementations.
macro_rules! methods {
    ($(
        $(#[$attr:meta])*
        $name:ident = $wire:literal {
            params: $params:ty,
            result: $result:ty,
            eras: $eras:expr
            $(, target: $target:literal)? $(,)?
        }
    )*) => {$(
        $crate::tag::wire_tag!($(#[$attr])* $name = $wire);

        impl $crate::method::Method for $name {
            const NAME: &'static str = $wire;
            const ERAS: &'static [$crate::version::Era] = $eras;
            type Params = $params;
            type Result = $result;
            $(const TARGET: Option<&'static str> = Some($target);)?
        }
    )*};
}
pub(crate) use methods;

/// Declares notification tags and their [`NotificationMethod`] implementations.
macro_rules! notifications {
    ($(
        $(#[$attr:meta])*
        $name:ident = $wire:literal {
            params: $params:ty,
            eras: $eras:expr $(,)?
        }
    )*) => {$(
        $crate::tag::wire_tag!($(#[$attr])* $name = $wire);

        impl $crate::method::NotificationMethod for $name {
            const NAME: &'static str = $wire;
            const ERAS: &'static [$crate::version::Era] = $eras;
            type Params = $params;
        }
    )*};
}
pub(crate) use notifications;

/// Marks types as [`Params`].
macro_rules! params {
    ($($ty:ty),* $(,)?) => {$(
        impl $crate::method::Params for $ty {}
    )*};
}
pub(crate) use params;
