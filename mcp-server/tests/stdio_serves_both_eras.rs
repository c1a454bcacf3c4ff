//! The stdio transport: one message per line, both eras, cancellation by
//! `notifications/cancelled`, and a prompt exit at end of input.

mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_server::contributor::contributor_fn;
use mcp_server::core::logging::LoggingLevel;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::transport::stdio;
use serde_json::{Value, json};
use support::{builder, origin, tool};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use tokio::task::JoinHandle;

/// Set when `wait_flagged` sees its request cancelled.
static SAW_CANCELLATION: AtomicBool = AtomicBool::new(false);

struct Client {
    input: WriteHalf<DuplexStream>,
    output: Lines<BufReader<ReadHalf<DuplexStream>>>,
    serving: JoinHandle<std::io::Result<()>>,
}

impl Client {
    fn start() -> Self {
        Self::serving(builder())
    }

    /// A client of the server `builder` makes, with this file's tools.
    fn serving(builder: mcp_server::Builder) -> Self {
        let server = builder
            .contributor(
                origin("app", 1),
                "tools",
                contributor_fn(|c| {
                    c.tool(
                        tool("chatty"),
                        handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                            ctx.log().log(LoggingLevel::Warning, None, "careful");
                            Ok(CallToolResult::text("said"))
                        }),
                    );
                    c.tool(
                        tool("wait_flagged"),
                        handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                            ctx.cancellation().cancelled().await;
                            SAW_CANCELLATION.store(true, Ordering::SeqCst);
                            Ok(CallToolResult::text("cancelled"))
                        }),
                    );
                    c.tool(
                        tool("wait"),
                        handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                            ctx.cancellation().cancelled().await;
                            Ok(CallToolResult::text("cancelled"))
                        }),
                    );
                }),
            )
            .build();
        let (client, transport) = tokio::io::duplex(64 * 1024);
        let (transport_in, transport_out) = tokio::io::split(transport);
        let serving = tokio::spawn(stdio::serve(server, transport_in, transport_out));
        let (output, input) = tokio::io::split(client);
        Self {
            input,
            output: BufReader::new(output).lines(),
            serving,
        }
    }

    async fn send(&mut self, message: Value) {
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        self.input.write_all(&line).await.unwrap();
    }

    async fn receive(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(5), self.output.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        serde_json::from_str(&line).unwrap()
    }
}

fn modern(name: &str) -> Value {
    json!({"name": name, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    }})
}

#[tokio::test]
async fn a_modern_request_is_answered_on_its_own_line() {
    let mut client = Client::start();
    client
        .send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": modern("chatty")}),
        )
        .await;
    let answer = client.receive().await;
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["content"][0]["text"], "said");
}

#[tokio::test]
async fn a_line_that_is_not_json_gets_a_parse_error() {
    let mut client = Client::start();
    client.input.write_all(b"{oops\n").await.unwrap();
    let answer = client.receive().await;
    assert_eq!(answer["error"]["code"], -32700);
    assert!(answer.get("id").is_none());
}

#[tokio::test]
async fn initialize_makes_the_process_a_legacy_session() {
    let mut client = Client::start();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}});
    client.send(initialize).await;
    let answer = client.receive().await;
    assert_eq!(answer["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(answer["result"]["serverInfo"]["name"], "test");
    // A legacy connection hears of list changes.
    assert_eq!(
        answer["result"]["capabilities"]["tools"],
        json!({"listChanged": true})
    );
    client
        .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
        .await;
    assert_eq!(client.receive().await["result"], json!({}));
    // Legacy requests carry no `_meta`: the session supplies version and capabilities.
    client
        .send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}))
        .await;
    assert_eq!(
        client.receive().await["result"]["tools"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    client.send(json!({"jsonrpc": "2.0", "id": 4, "method": "logging/setLevel", "params": {"level": "warning"}})).await;
    assert_eq!(client.receive().await["id"], 4);
    client.send(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "chatty"}})).await;
    let log = client.receive().await;
    assert_eq!(log["method"], "notifications/message");
    assert_eq!(log["params"]["data"], "careful");
    assert_eq!(
        client.receive().await["result"]["content"][0]["text"],
        "said"
    );
}

#[tokio::test]
async fn an_unsupported_initialize_version_is_answered_with_the_newest_legacy_one() {
    let mut client = Client::start();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}});
    client.send(initialize).await;
    assert_eq!(
        client.receive().await["result"]["protocolVersion"],
        "2025-11-25"
    );
}

#[tokio::test]
async fn notifications_cancelled_cancels_the_request_it_names_which_then_answers_nothing() {
    let mut client = Client::start();
    client
        .send(json!({"jsonrpc": "2.0", "id": "w", "method": "tools/call", "params": modern("wait_flagged")}))
        .await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    client.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "w"}})).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(
        SAW_CANCELLATION.load(Ordering::SeqCst),
        "the handler's token fired"
    );
    // The next line out answers the next request: nothing came for `w`.
    client
        .send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": modern("x")}))
        .await;
    assert_eq!(client.receive().await["id"], 2);
}

#[tokio::test]
async fn end_of_input_returns_promptly_even_with_a_request_running() {
    let mut client = Client::start();
    client
        .send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": modern("wait")}))
        .await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    client.input.shutdown().await.unwrap();
    let served = tokio::time::timeout(Duration::from_secs(5), client.serving).await;
    assert!(
        matches!(served, Ok(Ok(Ok(())))),
        "serve returns once input ends: {served:?}"
    );
}

#[tokio::test]
async fn a_line_over_the_limit_is_refused_and_the_next_one_served() {
    let mut client = Client::start();
    let mut huge = vec![b' '; stdio::MAX_LINE + 10];
    huge.push(b'\n');
    // Written while the server reads, as a pipe would carry it.
    let (written, answer) = tokio::join!(
        client.input.write_all(&huge),
        tokio::time::timeout(Duration::from_secs(10), client.output.next_line())
    );
    written.unwrap();
    let answer: Value = serde_json::from_str(&answer.unwrap().unwrap().unwrap()).unwrap();
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("too large")
    );
    let modern = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}}});
    client.send(modern).await;
    assert_eq!(client.receive().await["id"], 2);
}

/// Takes its time over `initialize`, as a slow audit would.
struct SlowInitialize;

impl mcp_server::interceptor::RawInterceptor for SlowInitialize {
    fn intercept<'a>(
        &'a self,
        call: &'a mcp_server::interceptor::RawCall<'a>,
        next: mcp_server::interceptor::RawNext<'a>,
    ) -> mcp_server::BoxFuture<
        'a,
        Result<mcp_server::interceptor::RawAnswer, mcp_server::core::error::ErrorObject>,
    > {
        Box::pin(async move {
            if call.method() == "initialize" {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            next.run(call).await
        })
    }
}

#[tokio::test]
async fn a_request_written_right_behind_initialize_belongs_to_the_session() {
    let mut client = Client::serving(builder().register(
        origin("audit", 1),
        "slow-initialize",
        0,
        mcp_server::Item::RawInterceptor(std::sync::Arc::new(SlowInitialize)),
    ));
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}});
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    // Both lines in one write: the second is read before the first is answered.
    let mut lines = serde_json::to_vec(&initialize).unwrap();
    lines.push(b'\n');
    lines.extend(serde_json::to_vec(&ping).unwrap());
    lines.push(b'\n');
    client.input.write_all(&lines).await.unwrap();
    assert_eq!(client.receive().await["id"], 1);
    let pong = client.receive().await;
    assert_eq!(
        (&pong["id"], &pong["result"]),
        (&json!(2), &json!({})),
        "{pong}"
    );
}
