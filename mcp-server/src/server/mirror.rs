//! Headers that mirror a 2026-07-28 request: what a transport carried
//! beside the message (Streamable HTTP's `MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`), checked against its body
//! when the server admits it. A mismatch is `-32020`.

use std::borrow::Cow;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use mcp_core::error::ErrorObject;
use mcp_core::json::{JsonObject, JsonValue};

use crate::handler::tool::ParamHeader;

/// The standard MCP headers a transport carried beside one 2026-07-28
/// request, which must agree with its body: a transport that has headers
/// (Streamable HTTP) hands them to [`Server::admit`](crate::Server::admit),
/// one without (stdio) hands none.
///
/// Each method returns the header's value, trimmed, or `None` when it was
/// not sent; an error when it holds what a header may not.
///
/// ```
/// use mcp_server::core::error::ErrorObject;
/// use mcp_server::transport::Headers;
///
/// /// Headers kept as lowercase name and value pairs.
/// struct Pairs(Vec<(String, String)>);
/// impl Pairs {
///     fn get(&self, name: &str) -> Result<Option<&str>, ErrorObject> {
///         Ok(self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str()))
///     }
/// }
/// impl Headers for Pairs {
///     fn protocol_version(&self) -> Result<Option<&str>, ErrorObject> { self.get("mcp-protocol-version") }
///     fn method(&self) -> Result<Option<&str>, ErrorObject> { self.get("mcp-method") }
///     fn name(&self) -> Result<Option<&str>, ErrorObject> { self.get("mcp-name") }
///     fn param(&self, header: &str) -> Result<Option<&str>, ErrorObject> {
///         self.get(&format!("mcp-param-{}", header.to_ascii_lowercase()))
///     }
/// }
/// ```
pub trait Headers: Send + Sync {
    /// `MCP-Protocol-Version`.
    fn protocol_version(&self) -> Result<Option<&str>, ErrorObject>;
    /// `Mcp-Method`.
    fn method(&self) -> Result<Option<&str>, ErrorObject>;
    /// `Mcp-Name`.
    fn name(&self) -> Result<Option<&str>, ErrorObject>;
    /// `Mcp-Param-<header>`, the header a tool's schema names for one of
    /// its arguments (`x-mcp-header`).
    fn param(&self, header: &str) -> Result<Option<&str>, ErrorObject>;
}

/// The protocol version the headers name, which must be present.
pub(super) fn protocol_version(headers: &dyn Headers) -> Result<&str, ErrorObject> {
    headers
        .protocol_version()?
        .ok_or_else(|| missing("MCP-Protocol-Version"))
}

/// Checks `Mcp-Method` and, where the method names a target, `Mcp-Name`.
pub(super) fn check_method_and_name(
    headers: &dyn Headers,
    method: &str,
    target: Option<&JsonValue>,
) -> Result<(), ErrorObject> {
    let header = headers.method()?.ok_or_else(|| missing("Mcp-Method"))?;
    if header != method {
        return Err(ErrorObject::header_mismatch(format!(
            "Header mismatch: Mcp-Method header value '{header}' does not match body value '{method}'"
        )));
    }
    let Some(target) = target.filter(|t| !t.is_null()) else {
        return Ok(());
    };
    let header = headers.name()?.ok_or_else(|| missing("Mcp-Name"))?;
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
pub(super) fn check_params(
    headers: &dyn Headers,
    mirrored: &[ParamHeader],
    arguments: Option<&JsonObject>,
) -> Result<(), ErrorObject> {
    for ParamHeader { header, argument } in mirrored {
        let sent = headers.param(header)?;
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
fn decode(value: &str) -> Result<Cow<'_, str>, ErrorObject> {
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

    /// Headers as lowercase name and value pairs.
    struct Pairs(Vec<(&'static str, &'static str)>);

    impl Pairs {
        fn get(&self, name: &str) -> Result<Option<&str>, ErrorObject> {
            Ok(self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| *v))
        }
    }

    impl Headers for Pairs {
        fn protocol_version(&self) -> Result<Option<&str>, ErrorObject> {
            self.get("mcp-protocol-version")
        }
        fn method(&self) -> Result<Option<&str>, ErrorObject> {
            self.get("mcp-method")
        }
        fn name(&self) -> Result<Option<&str>, ErrorObject> {
            self.get("mcp-name")
        }
        fn param(&self, header: &str) -> Result<Option<&str>, ErrorObject> {
            self.get(&format!("mcp-param-{}", header.to_ascii_lowercase()))
        }
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> Pairs {
        Pairs(pairs.to_vec())
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
}
