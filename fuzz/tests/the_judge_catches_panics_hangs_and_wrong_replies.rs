//! The judge fails an input whose handler panics (although the framework
//! answers it with `-32603`), an input that gets no reply within the time
//! limit, and a reply that does not answer what was sent; the driver gives
//! up on a worker thread that a handler blocks, counting its inputs as
//! timeouts and writing them out.

use std::path::Path;
use std::time::Duration;

use mcp_fuzz::check;
use mcp_fuzz::driver::{self, Config};
use mcp_fuzz::generate::Generator;
use mcp_fuzz::judge::{Verdict, judge};
use mcp_fuzz::panics;
use mcp_fuzz::seeds::{Seed, Seeds};
use mcp_fuzz::target::{PeerKind, Target};
use mcp_server::core::error::ErrorObject;
use mcp_server::core::jsonrpc;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::{Server, origin};
use serde_json::{Value, json};

/// A server with three broken tools: `boom` panics, `stuck` never answers
/// and `blocking` blocks its thread for three seconds; and `fine`, which
/// answers.
fn broken_server() -> Server {
    let tool = |name: &str| Tool {
        name: name.into(),
        ..Default::default()
    };
    Server::builder()
        .without_linked()
        .without_environment()
        .named("broken", "1")
        .contributor(
            origin!(),
            "tools",
            contributor_fn(move |c| {
                c.tool(
                    tool("fine"),
                    handler_fn::<CallTool, _, _, _>(|_, _| async {
                        Ok(CallToolResult::text("fine"))
                    }),
                );
                c.tool(
                    tool("boom"),
                    handler_fn::<CallTool, _, _, _>(|_, _| async { broken() }),
                );
                c.tool(
                    tool("stuck"),
                    handler_fn::<CallTool, _, _, _>(|_, _| async {
                        std::future::pending::<Result<CallToolResult, ErrorObject>>().await
                    }),
                );
                c.tool(
                    tool("blocking"),
                    handler_fn::<CallTool, _, _, _>(|_, _| async {
                        std::thread::sleep(Duration::from_secs(3));
                        Ok(CallToolResult::text("late"))
                    }),
                );
            }),
        )
        .build()
}

/// What `boom` does.
fn broken() -> Result<CallToolResult, ErrorObject> {
    panic!("the tool broke")
}

fn call(name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": name,
        "arguments": {},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        }
    }})
}

async fn verdict(name: &str, limit: Duration) -> Verdict {
    let target = Target::new(broken_server());
    let bytes = serde_json::to_vec(&call(name)).unwrap();
    let id = panics::reserve(1);
    judge(&target, id, &bytes, PeerKind::Stateless, limit)
        .await
        .0
}

#[tokio::test]
async fn a_handler_that_panics_fails_its_input_with_the_place_of_the_panic() {
    let Verdict::Panicked(panics) = verdict("boom", Duration::from_secs(2)).await else {
        panic!("a panic in a handler fails the input");
    };
    assert_eq!(panics.len(), 1);
    assert!(
        panics[0].message.contains("the tool broke"),
        "{:?}",
        panics[0]
    );
    assert!(panics[0].location.contains(file!()), "{:?}", panics[0]);
}

#[tokio::test]
async fn a_handler_that_never_answers_times_its_input_out() {
    let verdict = verdict("stuck", Duration::from_millis(300)).await;
    assert!(matches!(verdict, Verdict::TimedOut(_)), "{verdict}");
}

#[tokio::test]
async fn a_handler_that_answers_passes() {
    for name in ["fine", "no-such-tool"] {
        let verdict = verdict(name, Duration::from_secs(2)).await;
        assert!(verdict.passed(), "{name}: {verdict}");
    }
}

#[test]
fn a_reply_that_does_not_answer_what_was_sent_is_invalid() {
    let request = jsonrpc::decode(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#);
    let notification =
        jsonrpc::decode(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let not_json = jsonrpc::decode(b"{");
    let answer = br#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
    assert!(check::reply(&request, Some(answer)).is_ok());
    assert!(check::reply(&notification, None).is_ok());
    let parse_error =
        br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
    assert!(check::reply(&not_json, Some(parse_error)).is_ok());

    let wrong = [
        (&request, None),
        (
            &request,
            Some(&br#"{"jsonrpc":"2.0","id":8,"result":{}}"#[..]),
        ),
        (&request, Some(&b""[..])),
        (&request, Some(&br#"{"jsonrpc":"2.0","id":7}"#[..])),
        (
            &request,
            Some(&br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#[..]),
        ),
        (&notification, Some(&answer[..])),
        (&not_json, None),
        (
            &not_json,
            Some(&br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#[..]),
        ),
    ];
    for (decoded, reply) in wrong {
        assert!(
            check::reply(decoded, reply).is_err(),
            "{decoded:?} answered with {:?}",
            reply.map(String::from_utf8_lossy)
        );
    }
}

#[test]
fn a_handler_that_blocks_its_thread_counts_its_inputs_as_timeouts() {
    let target = Target::new(broken_server());
    let seeds = Seeds {
        messages: vec![Seed {
            message: call("blocking"),
            caller: PeerKind::Stateless,
        }],
        ..Seeds::default()
    };
    let mut config = Config::new(200, 1);
    config.jobs = 1;
    config.in_flight = 4;
    config.limit = Duration::from_millis(300);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-fuzz-blocked");
    config.corpus = Some(dir.clone());
    let totals = driver::run_with(&config, target, Generator::new(seeds, 1));
    assert!(totals.timeouts >= 1, "{totals:?}");
    assert_eq!(totals.panics, 0, "{totals:?}");
    let written = totals.failures[0]
        .saved
        .as_ref()
        .expect("the input is written");
    assert!(written.starts_with(&dir), "{}", written.display());
    let bytes = std::fs::read(written).expect("the written input reads");
    assert!(
        String::from_utf8_lossy(&bytes).contains("blocking"),
        "{bytes:?}"
    );
}
