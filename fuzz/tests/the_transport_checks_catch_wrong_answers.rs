//! The transports' inputs and checks: a generated HTTP request reads back
//! from its corpus text as itself and builds; the HTTP check fails a
//! status, body, id or error code the endpoint must not send; the stdio
//! check fails output that is not one JSON-RPC message a line, more
//! answers to an id than lines carrying it, and a refused line left
//! unanswered.

use axum::body::Body;
use axum::http::{Response, StatusCode, header};
use mcp_fuzz::generate::Generator;
use mcp_fuzz::http::check::{self, Sent};
use mcp_fuzz::http::input::{HttpInput, SessionIds};
use mcp_fuzz::http::make;
use mcp_fuzz::seeds::Seeds;
use mcp_fuzz::stdio::expect::Expected;
use mcp_fuzz::target::Target;

#[test]
fn generated_http_requests_read_back_from_their_text_and_build() {
    let target = Target::demo();
    let generator = Generator::new(Seeds::of(target.server()), 7);
    let ids = SessionIds {
        own: Some("0".repeat(32)),
        shared: Some("1".repeat(32)),
        ended: Some("2".repeat(32)),
    };
    for index in 0..2_000 {
        let (input, _, _) = make::input(&generator, target.server(), index);
        let text = input.to_bytes();
        let again = HttpInput::parse(&text)
            .unwrap_or_else(|e| panic!("input #{index} does not read back ({e}): {input:?}"));
        assert_eq!(again, input, "input #{index}");
        if let Err(e) = input.request(&ids) {
            panic!("input #{index} does not build ({e}): {input:?}");
        }
    }
}

/// The `Sent` of a POST of `body`, read from its corpus text as the fuzzer reads it.
fn sent_post(body: &str) -> Sent {
    let input = HttpInput::parse(
        format!("POST /mcp HTTP/1.1\r\ncontent-type: application/json\r\n\r\n{body}").as_bytes(),
    )
    .unwrap();
    let request = input.request(&SessionIds::default()).unwrap();
    Sent::of(&input, &request)
}

fn answer(status: u16, content_type: Option<&str>, body: &str) -> Response<Body> {
    let mut response = Response::new(Body::from(body.to_owned()));
    *response.status_mut() = StatusCode::from_u16(status).unwrap();
    if let Some(content_type) = content_type {
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, content_type.parse().unwrap());
    }
    response
}

#[tokio::test]
async fn the_http_check_fails_what_the_endpoint_must_not_answer() {
    let request = r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#;
    let notification = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let json = Some("application/json");
    let good = [
        (
            request,
            answer(200, json, r#"{"jsonrpc":"2.0","id":7,"result":{}}"#),
        ),
        (
            request,
            answer(
                404,
                json,
                r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"x"}}"#,
            ),
        ),
        (
            request,
            answer(
                415,
                json,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#,
            ),
        ),
        (request, stream()),
        (notification, answer(202, None, "")),
        (
            "{",
            answer(
                400,
                json,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#,
            ),
        ),
    ];
    for (body, response) in good {
        let verdict = check::response(&sent_post(body), response).await;
        assert!(verdict.is_ok(), "{body}: {verdict:?}");
    }
    let wrong = [
        (
            request,
            answer(500, json, r#"{"jsonrpc":"2.0","id":7,"result":{}}"#),
        ),
        (
            request,
            answer(200, json, r#"{"jsonrpc":"2.0","id":8,"result":{}}"#),
        ),
        (
            request,
            answer(400, json, r#"{"jsonrpc":"2.0","id":7,"result":{}}"#),
        ),
        (
            request,
            answer(
                200,
                json,
                r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32650,"message":"x"}}"#,
            ),
        ),
        (request, answer(200, json, "not json")),
        (
            request,
            answer(200, json, r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#),
        ),
        (request, answer(400, Some("text/event-stream"), "")),
        (request, answer(200, Some("text/html"), "<p>")),
        (request, answer(202, None, "")),
        (
            request,
            answer(
                403,
                json,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"x"}}"#,
            ),
        ),
        (
            notification,
            answer(
                200,
                json,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#,
            ),
        ),
        (notification, answer(202, None, "unexpected")),
        (
            "{",
            answer(
                400,
                json,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#,
            ),
        ),
    ];
    for (body, response) in wrong {
        let status = response.status();
        let verdict = check::response(&sent_post(body), response).await;
        assert!(verdict.is_err(), "{body} answered {status} passed");
    }
}

/// A stream, with the header every stream has.
fn stream() -> Response<Body> {
    let mut response = answer(200, Some("text/event-stream"), "");
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, "no-cache".parse().unwrap());
    response
}

#[test]
fn the_stdio_check_fails_output_that_does_not_answer_the_lines() {
    let input = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n\n   \n{\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
    let expected = Expected::of(input);
    assert_eq!(expected.lines, 3, "blank lines are not read");
    assert_eq!(
        expected.due(),
        2,
        "the request and the line that is not JSON"
    );
    let parse_error = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#;
    let answer = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
    let note = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#;
    for good in [
        format!("{parse_error}\n{answer}\n"),
        format!("{answer}\n{note}\n{parse_error}\n"),
        // The request cancelled: no answer.
        format!("{parse_error}\n"),
    ] {
        let checked = expected.check(good.as_bytes());
        assert!(checked.is_ok(), "{good}: {checked:?}");
    }
    for wrong in [
        // The refused line unanswered.
        format!("{answer}\n"),
        // Two answers to one request.
        format!("{parse_error}\n{answer}\n{answer}\n"),
        // An answer to no line.
        format!(
            "{parse_error}\n{}\n",
            answer.replace("\"id\":1", "\"id\":2")
        ),
        // Not JSON-RPC, not JSON, not a whole line.
        format!("{parse_error}\n{{\"id\":1}}\n"),
        format!("{parse_error}\nnot json\n"),
        format!("{parse_error}\n{answer}"),
        // A code nothing defines.
        format!(
            "{parse_error}\n{}\n",
            parse_error.replace("-32700", "-32500")
        ),
    ] {
        assert!(expected.check(wrong.as_bytes()).is_err(), "{wrong} passed");
    }
}
