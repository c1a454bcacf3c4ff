//! The JSON-RPC 2.0 envelope: requests, notifications, result and error responses.
//!
//! MCP sends one message per HTTP body or stdio line and never batches.
//! [`decode`] turns bytes into a [`Message`] or into the error the sender
//! should get back, refusing excessive nesting ([`NESTING_LIMIT`]) before it
//! decodes anything; a request's `params` stay raw until the method's own type
//! is known ([`Request::params_as`]).
//!
//! ```
//! use mcp_core::jsonrpc::{self, Message, RequestId};
//!
//! let message = jsonrpc::decode(br#"{"jsonrpc":"2.0","id":0,"method":"tools/list"}"#).unwrap();
//! let Message::Request(request) = message else { panic!("a request") };
//! assert_eq!(request.id, RequestId::Number(0));
//! assert_eq!(request.method, "tools/list");
//!
//! let error = jsonrpc::decode(b"{not json").unwrap_err();
//! assert_eq!(error.error.code.0, -32700);
//! ```

mod decode;
mod id;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

pub use decode::{DecodeError, NESTING_LIMIT, decode};
pub use id::{ProgressToken, RequestId};

use crate::error::ErrorObject;
use crate::json::JsonValue;
use crate::tag::wire_tag;

wire_tag!(
    /// The `"jsonrpc": "2.0"` member of every message.
    JsonRpcVersion = "2.0"
);

/// Params of a request or notification, not yet decoded.
pub type RawParams = Box<RawValue>;

/// A JSON-RPC request whose `params` are kept raw (`JSONRPCRequest`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The id the response must carry.
    pub id: RequestId,
    /// The method name.
    pub method: String,
    /// The params object, undecoded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<RawParams>,
}

impl Request {
    /// A request for `method` with `params` serialized to JSON.
    ///
    /// # Errors
    ///
    /// Fails when `params` cannot be serialized.
    pub fn new<P: Serialize>(
        id: impl Into<RequestId>,
        method: impl Into<String>,
        params: &P,
    ) -> Result<Self, serde_json::Error> {
        Ok(Self {
            jsonrpc: JsonRpcVersion,
            id: id.into(),
            method: method.into(),
            params: Some(serde_json::value::to_raw_value(params)?),
        })
    }

    /// Decodes the params into the method's params type; absent params read as `{}`.
    ///
    /// # Errors
    ///
    /// An `Invalid params` (`-32602`) error that says what did not fit.
    pub fn params_as<T: DeserializeOwned>(&self) -> Result<T, ErrorObject> {
        params_as(self.params.as_deref())
    }
}

impl PartialEq for Request {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.method == other.method
            && raw_eq(self.params.as_deref(), other.params.as_deref())
    }
}

/// A JSON-RPC notification whose `params` are kept raw (`JSONRPCNotification`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Notification {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The notification name.
    pub method: String,
    /// The params object, undecoded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<RawParams>,
}

impl Notification {
    /// A notification for `method` with `params` serialized to JSON.
    ///
    /// # Errors
    ///
    /// Fails when `params` cannot be serialized.
    pub fn new<P: Serialize>(
        method: impl Into<String>,
        params: &P,
    ) -> Result<Self, serde_json::Error> {
        Ok(Self {
            jsonrpc: JsonRpcVersion,
            method: method.into(),
            params: Some(serde_json::value::to_raw_value(params)?),
        })
    }

    /// Decodes the params into the notification's params type; absent params read as `{}`.
    ///
    /// # Errors
    ///
    /// An `Invalid params` (`-32602`) error that says what did not fit.
    pub fn params_as<T: DeserializeOwned>(&self) -> Result<T, ErrorObject> {
        params_as(self.params.as_deref())
    }
}

impl PartialEq for Notification {
    fn eq(&self, other: &Self) -> bool {
        self.method == other.method && raw_eq(self.params.as_deref(), other.params.as_deref())
    }
}

/// A successful response (`JSONRPCResultResponse`), generic over its result type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ResultResponse<R> {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The id of the request this answers.
    pub id: RequestId,
    /// The result.
    pub result: R,
}

impl<R> ResultResponse<R> {
    /// A response to request `id`.
    pub fn new(id: RequestId, result: R) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            id,
            result,
        }
    }
}

/// An error response (`JSONRPCErrorResponse`); `id` is absent only when the
/// request's id could not be read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ErrorResponse {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The id of the request this answers, when it could be read.
    #[serde(default, deserialize_with = "null_as_none")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// What went wrong.
    pub error: ErrorObject,
}

impl ErrorResponse {
    /// An error response to request `id`.
    pub fn new(id: Option<RequestId>, error: ErrorObject) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            id,
            error,
        }
    }
}

/// A response: a result or an error (`JSONRPCResponse`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Response<R = JsonValue> {
    /// A successful response.
    Result(ResultResponse<R>),
    /// An error response.
    Error(ErrorResponse),
}

/// Any JSON-RPC message (`JSONRPCMessage`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Message {
    /// A request: has an `id` and a `method`.
    Request(Request),
    /// A notification: a `method` and no `id`.
    Notification(Notification),
    /// A response to a request.
    Response(Response),
}

impl<'de> Deserialize<'de> for Message {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = <&RawValue>::deserialize(deserializer)?;
        decode(raw.get().as_bytes()).map_err(serde::de::Error::custom)
    }
}

fn params_as<T: DeserializeOwned>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    let text = params.map_or("{}", RawValue::get);
    serde_json::from_str(text)
        .map_err(|e| ErrorObject::invalid_params(format!("Invalid params: {e}")))
}

fn raw_eq(a: Option<&RawValue>, b: Option<&RawValue>) -> bool {
    let parse =
        |r: Option<&RawValue>| r.map(|r| serde_json::from_str::<serde_json::Value>(r.get()).ok());
    parse(a) == parse(b)
}

fn null_as_none<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<RequestId>, D::Error> {
    Option::<RequestId>::deserialize(d)
}

#[cfg(feature = "arbitrary")]
mod arbitrary_impls {
    use arbitrary::{Arbitrary, Result, Unstructured};

    use super::{JsonRpcVersion, Notification, Request};

    fn raw_object(u: &mut Unstructured<'_>) -> Result<Option<super::RawParams>> {
        let object = crate::arb::opt_any_json_object(u)?;
        Ok(object.map(|o| serde_json::value::to_raw_value(&o).expect("a JSON object serializes")))
    }

    impl<'a> Arbitrary<'a> for Request {
        fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
            Ok(Self {
                jsonrpc: JsonRpcVersion,
                id: u.arbitrary()?,
                method: u.arbitrary()?,
                params: raw_object(u)?,
            })
        }
    }

    impl<'a> Arbitrary<'a> for Notification {
        fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
            Ok(Self {
                jsonrpc: JsonRpcVersion,
                method: u.arbitrary()?,
                params: raw_object(u)?,
            })
        }
    }
}
