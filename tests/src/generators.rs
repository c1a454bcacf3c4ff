//! Generators for definitions whose Rust type is wider than the definition:
//! the error codes, the envelope unions, and the generic JSON types.
//!
//! Each takes an [`Unstructured`] and returns a value the definition accepts.

use arbitrary::{Arbitrary, Result, Unstructured};
use mcp_core::error::{
    ErrorCode, ErrorObject, MissingRequiredClientCapabilityData, UnsupportedProtocolVersionData,
};
use mcp_core::json::{JsonArray, JsonObject, JsonValue};
use mcp_core::jsonrpc::{ErrorResponse, Message, Notification, Request, Response, ResultResponse};
use mcp_core::result::EmptyResult;

/// A `JSONValue` as `schema.json` types it (no `null`, no decimals).
pub fn json_value(u: &mut Unstructured<'_>) -> Result<JsonValue> {
    mcp_core::arb::schema_json_value(u)
}

/// A `JSONObject` as `schema.json` types it.
pub fn json_object(u: &mut Unstructured<'_>) -> Result<JsonObject> {
    mcp_core::arb::schema_json_object(u)
}

/// A `JSONArray` as `schema.json` types it.
pub fn json_array(u: &mut Unstructured<'_>) -> Result<JsonArray> {
    (0..u.int_in_range(0..=3u8)?)
        .map(|_| json_value(u))
        .collect()
}

/// An error object with `code` (`ParseError`, `InvalidParamsError`, …).
pub fn error_with_code(code: i64) -> impl Fn(&mut Unstructured<'_>) -> Result<ErrorObject> {
    move |u| {
        Ok(ErrorObject {
            code: ErrorCode(code),
            ..ErrorObject::arbitrary(u)?
        })
    }
}

/// An error response whose error has `code` (`HeaderMismatchError`).
pub fn error_response(code: i64) -> impl Fn(&mut Unstructured<'_>) -> Result<ErrorResponse> {
    move |u| {
        Ok(ErrorResponse::new(
            u.arbitrary()?,
            error_with_code(code)(u)?,
        ))
    }
}

/// An `UnsupportedProtocolVersionError` response: code `-32022` with its data.
pub fn unsupported_protocol_version_error(u: &mut Unstructured<'_>) -> Result<ErrorResponse> {
    let data = UnsupportedProtocolVersionData::arbitrary(u)?;
    let error = ErrorObject {
        message: u.arbitrary()?,
        ..ErrorObject::from(data)
    };
    Ok(ErrorResponse::new(u.arbitrary()?, error))
}

/// A `MissingRequiredClientCapabilityError` response: code `-32021` with its data.
pub fn missing_required_client_capability_error(u: &mut Unstructured<'_>) -> Result<ErrorResponse> {
    let data = MissingRequiredClientCapabilityData::arbitrary(u)?;
    let error = ErrorObject::new(
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        String::arbitrary(u)?,
    )
    .with_typed_data(&data);
    Ok(ErrorResponse::new(u.arbitrary()?, error))
}

/// A `JSONRPCResponse`: a result response (carrying an [`EmptyResult`]) or an
/// error response.
pub fn jsonrpc_response(u: &mut Unstructured<'_>) -> Result<Response> {
    Ok(if u.arbitrary()? {
        let response = ResultResponse::<EmptyResult>::arbitrary(u)?;
        let result = serde_json::to_value(&response.result).expect("a result encodes");
        Response::Result(ResultResponse::new(response.id, result))
    } else {
        Response::Error(ErrorResponse::arbitrary(u)?)
    })
}

/// A `JSONRPCMessage`: a request, a notification or a response.
pub fn jsonrpc_message(u: &mut Unstructured<'_>) -> Result<Message> {
    Ok(match u.int_in_range(0..=2u8)? {
        0 => Message::Request(Request::arbitrary(u)?),
        1 => Message::Notification(Notification::arbitrary(u)?),
        _ => Message::Response(jsonrpc_response(u)?),
    })
}

/// A 2025-11-25 `URLElicitationRequiredError` response: code `-32042` with its data.
pub fn url_elicitation_required_error(u: &mut Unstructured<'_>) -> Result<ErrorResponse> {
    let data = mcp_core::legacy::elicitation::UrlElicitationRequiredData::arbitrary(u)?;
    Ok(ErrorResponse::new(
        u.arbitrary()?,
        data.into_error(String::arbitrary(u)?),
    ))
}
