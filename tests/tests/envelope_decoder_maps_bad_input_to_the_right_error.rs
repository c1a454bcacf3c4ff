//! The envelope decoder never panics, and every input it refuses maps to the
//! JSON-RPC error the sender should get: `-32700` for bytes that are not
//! JSON, `-32600` for JSON that is not one JSON-RPC message, `-32602` for
//! params that do not fit the method.
//!
//! An independent oracle, written from the JSON-RPC 2.0 and MCP rules rather
//! than from the decoder, states what each input should become.

use mcp_core::error::ErrorCode;
use mcp_core::jsonrpc::{self, Message, Response};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// What an input should decode to.
#[derive(Debug, PartialEq)]
enum Expect {
    Request,
    Notification,
    Response,
    Error(ErrorCode),
}

fn classify(result: &Result<Message, jsonrpc::DecodeError>) -> Expect {
    match result {
        Ok(Message::Request(_)) => Expect::Request,
        Ok(Message::Notification(_)) => Expect::Notification,
        Ok(Message::Response(_)) => Expect::Response,
        Err(e) => Expect::Error(e.error.code),
    }
}

/// The oracle: what JSON-RPC 2.0, as MCP restricts it, makes of a JSON value.
fn expected(value: &Value) -> Expect {
    let invalid = Expect::Error(ErrorCode::INVALID_REQUEST);
    let Some(object) = value.as_object() else {
        return invalid;
    };
    let id = object.get("id");
    let id_is_valid = |id: &Value| id.is_string() || id.is_i64();
    if id.is_some_and(|id| !id.is_null() && !id_is_valid(id)) {
        return invalid;
    }
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return invalid;
    }
    if let Some(method) = object.get("method") {
        if !method.is_string() || object.contains_key("result") || object.contains_key("error") {
            return invalid;
        }
        match object.get("params") {
            None | Some(Value::Null | Value::Object(_)) => {}
            Some(Value::Array(_)) => return Expect::Error(ErrorCode::INVALID_PARAMS),
            Some(_) => return invalid,
        }
        return match id {
            None => Expect::Notification,
            Some(Value::Null) => invalid,
            Some(_) => Expect::Request,
        };
    }
    match (object.get("result"), object.get("error")) {
        (Some(_), None) if id.is_some_and(id_is_valid) => Expect::Response,
        (None, Some(Value::Object(error)))
            if error.get("code").is_some_and(Value::is_i64)
                && error.get("message").is_some_and(Value::is_string) =>
        {
            Expect::Response
        }
        _ => invalid,
    }
}

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        ".{0,8}".prop_map(Value::from),
        Just(json!("2.0")),
    ]
}

fn any_json() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(".{0,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Objects that look like JSON-RPC messages, each member present or not, right or wrong.
fn envelope_like() -> impl Strategy<Value = Value> {
    let member = |good: Value| {
        prop_oneof![
            3 => Just(Some(good)),
            1 => Just(None),
            1 => json_leaf().prop_map(Some),
        ]
    };
    (
        member(json!("2.0")),
        member(json!(7)),
        member(json!("tools/call")),
        prop_oneof![
            Just(None),
            Just(Some(json!({"name": "echo"}))),
            json_leaf().prop_map(Some),
            Just(Some(json!([1])))
        ],
        prop_oneof![3 => Just(None), 1 => Just(Some(json!({}))), 1 => json_leaf().prop_map(Some)],
        prop_oneof![
            3 => Just(None),
            1 => Just(Some(json!({"code": -32601, "message": "Method not found"}))),
            1 => Just(Some(json!({"code": 1.5, "message": "x"}))),
            1 => json_leaf().prop_map(Some),
        ],
    )
        .prop_map(|(jsonrpc, id, method, params, result, error)| {
            let mut object = Map::new();
            for (key, value) in [
                ("jsonrpc", jsonrpc),
                ("id", id),
                ("method", method),
                ("params", params),
                ("result", result),
                ("error", error),
            ] {
                if let Some(value) = value {
                    object.insert(key.into(), value);
                }
            }
            Value::Object(object)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    /// Random bytes: never a panic; not JSON is always `-32700`.
    #[test]
    fn arbitrary_bytes_never_panic_and_non_json_is_a_parse_error(bytes in prop::collection::vec(any::<u8>(), 0..128)) {
        let result = jsonrpc::decode(&bytes);
        if serde_json::from_slice::<Value>(&bytes).is_err() {
            prop_assert_eq!(classify(&result), Expect::Error(ErrorCode::PARSE_ERROR));
        } else {
            let value: Value = serde_json::from_slice(&bytes).unwrap();
            prop_assert_eq!(classify(&result), expected(&value));
        }
    }

    /// Random JSON of any shape decodes exactly as the oracle says.
    #[test]
    fn arbitrary_json_maps_to_the_right_message_or_error(value in any_json()) {
        let bytes = serde_json::to_vec(&value).unwrap();
        prop_assert_eq!(classify(&jsonrpc::decode(&bytes)), expected(&value));
    }

    /// Near-miss envelopes decode exactly as the oracle says, and keep the id when readable.
    #[test]
    fn envelope_like_json_maps_to_the_right_message_or_error(value in envelope_like()) {
        let bytes = serde_json::to_vec(&value).unwrap();
        let result = jsonrpc::decode(&bytes);
        prop_assert_eq!(classify(&result), expected(&value));
        if let (Err(error), Some(id)) = (&result, value.get("id").filter(|id| id.is_string() || id.is_i64())) {
            prop_assert_eq!(serde_json::to_value(&error.id).unwrap(), id.clone());
        }
    }

    /// Random params for a typed method give the params or `-32602`, never a panic.
    #[test]
    fn arbitrary_params_decode_or_give_invalid_params(params in any_json().prop_filter("an object", Value::is_object)) {
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
        let Ok(Message::Request(request)) = jsonrpc::decode(&serde_json::to_vec(&request).unwrap()) else {
            return Err(TestCaseError::fail("an object params makes a request"));
        };
        check_params::<mcp_core::tools::CallToolRequestParams>(&request)?;
        check_params::<mcp_core::prompts::GetPromptRequestParams>(&request)?;
        check_params::<mcp_core::resources::ReadResourceRequestParams>(&request)?;
        check_params::<mcp_core::completion::CompleteRequestParams>(&request)?;
        check_params::<mcp_core::subscriptions::SubscriptionsListenRequestParams>(&request)?;
        check_params::<mcp_core::pagination::PaginatedRequestParams>(&request)?;
    }
}

fn check_params<T: serde::de::DeserializeOwned>(
    request: &jsonrpc::Request,
) -> Result<(), TestCaseError> {
    if let Err(error) = request.params_as::<T>() {
        prop_assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        prop_assert!(error.message.starts_with("Invalid params"));
    }
    Ok(())
}

#[test]
fn id_zero_is_a_valid_request_id() {
    let message = jsonrpc::decode(br#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#).unwrap();
    assert!(matches!(message, Message::Request(r) if r.id == 0.into()));
}

#[test]
fn a_null_request_id_is_an_invalid_request() {
    let error = jsonrpc::decode(br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#).unwrap_err();
    assert_eq!(error.error.code, ErrorCode::INVALID_REQUEST);
    assert_eq!(error.id, None);
}

#[test]
fn a_decimal_request_id_is_an_invalid_request() {
    let error = jsonrpc::decode(br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#).unwrap_err();
    assert_eq!(error.error.code, ErrorCode::INVALID_REQUEST);
}

#[test]
fn a_batch_is_an_invalid_request() {
    let error = jsonrpc::decode(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#).unwrap_err();
    assert_eq!(error.error.code, ErrorCode::INVALID_REQUEST);
    assert!(error.error.message.contains("batch"));
}

#[test]
fn truncated_json_is_a_parse_error_even_when_it_starts_like_a_batch() {
    let error = jsonrpc::decode(br#"[{"jsonrpc":"2.0""#).unwrap_err();
    assert_eq!(error.error.code, ErrorCode::PARSE_ERROR);
}

#[test]
fn invalid_utf8_is_a_parse_error() {
    let error = jsonrpc::decode(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}").unwrap_err();
    assert_eq!(error.error.code, ErrorCode::PARSE_ERROR);
}

#[test]
fn an_invalid_request_keeps_its_id_for_the_error_response() {
    let error = jsonrpc::decode(br#"{"jsonrpc":"1.0","id":"abc","method":"ping"}"#).unwrap_err();
    assert_eq!(error.error.code, ErrorCode::INVALID_REQUEST);
    let response = serde_json::to_value(error.into_response()).unwrap();
    assert_eq!(response["id"], "abc");
    assert_eq!(response["jsonrpc"], "2.0");
}

#[test]
fn an_error_response_without_an_id_leaves_the_id_out() {
    let error = jsonrpc::decode(b"not json").unwrap_err();
    let response = serde_json::to_value(error.into_response()).unwrap();
    assert_eq!(
        response,
        json!({"jsonrpc": "2.0", "error": response["error"].clone()})
    );
    assert_eq!(response["error"]["code"], -32700);
}

#[test]
fn array_params_are_invalid_params() {
    let error = jsonrpc::decode(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[1]}"#)
        .unwrap_err();
    assert_eq!(error.error.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(error.id, Some(3.into()));
}

#[test]
fn params_of_the_wrong_shape_are_invalid_params_that_say_why() {
    let message =
        jsonrpc::decode(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}"#)
            .unwrap();
    let Message::Request(request) = message else {
        panic!("a request")
    };
    let error = request
        .params_as::<mcp_core::tools::CallToolRequestParams>()
        .unwrap_err();
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert!(
        error.message.contains("expected a string"),
        "{}",
        error.message
    );
}

#[test]
fn an_error_response_with_a_null_id_decodes() {
    let message = jsonrpc::decode(
        br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
    )
    .unwrap();
    assert!(matches!(message, Message::Response(Response::Error(e)) if e.id.is_none()));
}

/// `levels` arrays, one inside the other, around `inner`.
fn nested(levels: usize, inner: &str) -> String {
    format!("{}{inner}{}", "[".repeat(levels), "]".repeat(levels))
}

#[test]
fn nesting_too_deep_is_a_parse_error_without_an_id() {
    let objects = format!("{}1{}", r#"{"a":"#.repeat(100_000), "}".repeat(100_000));
    let in_params = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"x","arguments":{{"a":{}}}}}}}"#,
        nested(100_000, "")
    );
    for bytes in [nested(100_000, ""), objects, in_params] {
        let error = jsonrpc::decode(bytes.as_bytes()).unwrap_err();
        assert_eq!(
            error.error.code,
            ErrorCode::PARSE_ERROR,
            "{}",
            error.error.message
        );
        assert!(
            error.error.message.contains("nest"),
            "{}",
            error.error.message
        );
        assert_eq!(error.id, None);
    }
}

#[test]
fn a_message_just_within_the_nesting_limit_decodes_and_so_do_its_params() {
    // The message and `params` are two levels: the arrays make up the rest.
    let message = |levels: usize| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"x","params":{{"a":{}}}}}"#,
            nested(levels - 2, "0")
        )
    };
    let deepest = message(jsonrpc::NESTING_LIMIT - 1);
    assert!(serde_json::from_str::<Value>(&deepest).is_ok());
    let Ok(Message::Request(request)) = jsonrpc::decode(deepest.as_bytes()) else {
        panic!("127 levels are a request")
    };
    assert!(request.params_as::<Value>().is_ok());
    let error = jsonrpc::decode(message(jsonrpc::NESTING_LIMIT).as_bytes()).unwrap_err();
    assert_eq!(error.error.code, ErrorCode::PARSE_ERROR);
}

#[test]
fn the_nesting_limit_is_the_one_serde_json_applies_to_a_whole_message() {
    let within = nested(jsonrpc::NESTING_LIMIT - 1, "");
    let beyond = nested(jsonrpc::NESTING_LIMIT, "");
    assert!(serde_json::from_str::<Value>(&within).is_ok());
    assert!(serde_json::from_str::<Value>(&beyond).is_err());
    // Within the limit, an array is refused for what it is: a batch.
    let error = jsonrpc::decode(within.as_bytes()).unwrap_err();
    assert_eq!(error.error.code, ErrorCode::INVALID_REQUEST);
    let error = jsonrpc::decode(beyond.as_bytes()).unwrap_err();
    assert_eq!(error.error.code, ErrorCode::PARSE_ERROR);
}

#[test]
fn brackets_inside_strings_do_not_count_as_nesting() {
    let brackets = format!(r#"\"{}\\"#, "[{".repeat(1_000));
    let message = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{brackets}"}}}}"#
    );
    assert!(
        serde_json::from_str::<Value>(&message).is_ok(),
        "valid JSON"
    );
    assert!(matches!(
        jsonrpc::decode(message.as_bytes()),
        Ok(Message::Request(_))
    ));
}
