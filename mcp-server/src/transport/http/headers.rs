//! The standard headers of a 2026-07-28 request, checked against its body:
//! `MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` for the methods
//! that name their target. A mismatch is `-32020` with HTTP 400.

use std::borrow::Cow;
use std::fmt::Display;

use axum::http::header::AsHeaderName;
use axum::http::{HeaderMap, HeaderName};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use mcp_core::error::ErrorObject;
use mcp_core::json::{JsonObject, JsonValue};

use crate::tool::ParamHeader;

// As names a [`HeaderMap`] finds without parsing them first.
pub(crate) static PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
pub(crate) static METHOD: HeaderName = HeaderName::from_static("mcp-method");
pub(crate) static NAME: HeaderName = HeaderName::from_static("mcp-name");
pub(crate) static SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
pub(crate) static LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");
/// The prefix of the headers that mirror `tools/call` arguments.
pub(crate) const PARAM_PREFIX: &str = "mcp-param-";

/// A header's value as text; `Err` when it holds bytes a header may not.
pub(crate) fn text<N: AsHeaderName + Display + Copy>(
    headers: &HeaderMap,
    name: N,
) -> Result<Option<&str>, ErrorObject> {
    match headers.get(name) {
        None => Ok(None),
        Some(value) => value.to_str().map(|v| Some(v.trim())).map_err(|_| {
            ErrorObject::header_mismatch(format!(
                "Header mismatch: the {name} header holds characters a header may not"
            ))
        }),
    }
}

/// The protocol version the headers name, which must be present.
pub(crate) fn protocol_version(headers: &HeaderMap) -> Result<&str, ErrorObject> {
    text(headers, &PROTOCOL_VERSION)?.ok_or_else(|| missing("MCP-Protocol-Version"))
}

/// Checks `Mcp-Method` and, where the method names a target, `Mcp-Name`.
pub(crate) fn check_method_and_name(
    headers: &HeaderMap,
    method: &str,
    target: Option<&JsonValue>,
) -> Result<(), ErrorObject> {
    let header = text(headers, &METHOD)?.ok_or_else(|| missing("Mcp-Method"))?;
    if header != method {
        return Err(ErrorObject::header_mismatch(format!(
            "Header mismatch: Mcp-Method header value '{header}' does not match body value '{method}'"
        )));
    }
    let Some(target) = target.filter(|t| !t.is_null()) else {
        return Ok(());
    };
    let header = text(headers, &NAME)?.ok_or_else(|| missing("Mcp-Name"))?;
    if same_value(&decode(header)?, target) {
        Ok(())
    } else {
        Err(ErrorObject::header_mismatch(format!(
            "Header mismatch: Mcp-Name header value '{header}' does not match body value {target}"
        )))
    }
}

/// Checks the `Mcp-Param-*` headers of a `tools/call` against the
/// arguments they mirror: present exactly when the argument is present and
/// not null, and equal to it.
pub(crate) fn check_params(
    headers: &HeaderMap,
    mirrored: &[ParamHeader],
    arguments: Option<&JsonObject>,
) -> Result<(), ErrorObject> {
    for ParamHeader { header, argument } in mirrored {
        let name = format!("{PARAM_PREFIX}{}", header.to_ascii_lowercase());
        let sent = text(headers, name.as_str())?;
        let body = arguments
            .and_then(|a| a.get(argument))
            .filter(|v| !v.is_null());
        match (sent, body) {
            (None, None) => {}
            (Some(sent), Some(body)) if same_value(&decode(sent)?, body) => {}
            (None, Some(_)) => return Err(missing(&format!("Mcp-Param-{header}"))),
            (Some(sent), _) => {
                return Err(ErrorObject::header_mismatch(format!(
                    "Header mismatch: Mcp-Param-{header} header value '{sent}' does not match argument `{argument}`"
                )));
            }
        }
    }
    Ok(())
}

/// Whether a decoded header value says what a body value says: strings
/// equal, numbers equal as numbers, booleans as `true` or `false`.
fn same_value(header: &str, body: &JsonValue) -> bool {
    match body {
        JsonValue::String(body) => header == body,
        JsonValue::Number(body) => header.parse::<f64>().ok() == body.as_f64(),
        JsonValue::Bool(body) => header == if *body { "true" } else { "false" },
        _ => false,
    }
}

/// A header value as sent: literal, or `=?base64?…?=` around the Base64 of
/// its UTF-8 bytes.
pub(crate) fn decode(value: &str) -> Result<Cow<'_, str>, ErrorObject> {
    let Some(encoded) = value
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    else {
        return Ok(Cow::Borrowed(value));
    };
    STANDARD
        .decode(encoded)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(Cow::Owned)
        .ok_or_else(|| {
            ErrorObject::header_mismatch(format!(
                "Header mismatch: `{value}` is not valid Base64 of UTF-8 text"
            ))
        })
}

fn missing(header: &str) -> ErrorObject {
    ErrorObject::header_mismatch(format!("Header mismatch: the {header} header is required"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.insert(*name, value.parse().unwrap());
        }
        headers
    }

    #[test]
    fn base64_values_decode_and_literal_ones_pass_through() {
        assert_eq!(
            decode("=?base64?SGVsbG8sIOS4lueVjA==?=").unwrap(),
            "Hello, 世界"
        );
        assert_eq!(decode("=?base64?IHBhZGRlZCA=?=").unwrap(), " padded ");
        assert_eq!(decode("plain").unwrap(), "plain");
        assert_eq!(decode("=?base64?SGVsbG8=").unwrap(), "=?base64?SGVsbG8=");
    }

    #[test]
    fn malformed_base64_is_a_header_mismatch() {
        for bad in ["=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?="] {
            assert_eq!(decode(bad).unwrap_err().code.0, -32020, "{bad}");
        }
    }

    #[test]
    fn mcp_name_must_match_the_body_after_decoding() {
        let sent = headers(&[
            ("mcp-method", "tools/call"),
            ("mcp-name", "=?base64?ZWNobw==?="),
        ]);
        assert!(check_method_and_name(&sent, "tools/call", Some(&json!("echo"))).is_ok());
        let error = check_method_and_name(&sent, "tools/call", Some(&json!("other"))).unwrap_err();
        assert_eq!(error.code.0, -32020);
    }

    #[test]
    fn a_missing_or_different_method_header_is_a_mismatch() {
        let none = headers(&[]);
        assert_eq!(
            check_method_and_name(&none, "tools/list", None)
                .unwrap_err()
                .code
                .0,
            -32020
        );
        let upper = headers(&[("mcp-method", "TOOLS/LIST")]);
        assert_eq!(
            check_method_and_name(&upper, "tools/list", None)
                .unwrap_err()
                .code
                .0,
            -32020
        );
    }

    #[test]
    fn param_headers_mirror_present_arguments_only() {
        let mirrored = [ParamHeader {
            header: "Region".into(),
            argument: "region".into(),
        }];
        let args = json!({"region": "Hello"});
        let args = args.as_object();
        let sent = headers(&[("mcp-param-region", "=?base64?SGVsbG8=?=")]);
        assert!(check_params(&sent, &mirrored, args).is_ok());
        let missing = check_params(&headers(&[]), &mirrored, args).unwrap_err();
        assert_eq!(missing.code.0, -32020);
        let stray = headers(&[("mcp-param-region", "x")]);
        let none = json!({});
        assert_eq!(
            check_params(&stray, &mirrored, none.as_object())
                .unwrap_err()
                .code
                .0,
            -32020
        );
        assert!(check_params(&headers(&[]), &mirrored, none.as_object()).is_ok());
    }

    #[test]
    fn numeric_names_compare_as_numbers() {
        let sent = headers(&[("mcp-method", "vendor/get"), ("mcp-name", "42.0")]);
        assert!(check_method_and_name(&sent, "vendor/get", Some(&json!(42))).is_ok());
    }
}
