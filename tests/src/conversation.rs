//! Conversations every line transport holds as stdio holds them: one
//! JSON-RPC message per line each way, both protocol eras, cancellation,
//! listen streams that interleave with responses, questions to a legacy
//! client, and bad input answered while the next line is served.
//!
//! Each conversation is a function of the transport, so one set of test
//! bodies runs over stdio and over any other transport:
//! [`conversations!`](crate::conversations) writes a `#[tokio::test]` for
//! each, in the test file of a transport.
//!
//! ```ignore
//! mcp_tests::conversations!(mcp_tests::conversation::Stdio);
//! ```

use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_server::BoxFuture;
use mcp_server::Server;
use mcp_server::core::elicitation::{ElicitAction, ElicitRequestParams, ElicitValue};
use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonObject;
use mcp_server::core::logging::LoggingLevel;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::{Contributions, contributor_fn};
use mcp_server::seam::interceptor::{RawAnswer, RawCall, RawInterceptor, RawNext};
use mcp_server::seam::sink::Change;
use mcp_server::seam::{Item, Origin};
use mcp_server::server::Builder;
use mcp_server::transport::stdio;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, Lines};
use tokio::task::JoinHandle;

/// A transport that serves one client on a pair of byte streams, one
/// JSON-RPC message per line.
pub trait LineTransport: Sync {
    /// Starts serving `server` to one client; the client's ends.
    fn connect(&self, server: Server) -> impl Future<Output = Pipe> + Send;
}

/// The client's ends of a transport serving one client.
pub struct Pipe {
    /// What the client writes.
    pub input: Box<dyn AsyncWrite + Send + Unpin>,
    /// What the client reads, line by line.
    pub output: Lines<BufReader<Box<dyn AsyncRead + Send + Unpin>>>,
    /// The transport serving, until the client's input ends.
    pub serving: JoinHandle<io::Result<()>>,
}

impl std::fmt::Debug for Pipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipe").finish_non_exhaustive()
    }
}

impl Pipe {
    /// Writes `message` on a line of its own.
    pub async fn send(&mut self, message: Value) {
        let mut line = serde_json::to_vec(&message).expect("JSON encodes");
        line.push(b'\n');
        self.input
            .write_all(&line)
            .await
            .expect("the transport reads");
    }

    /// Writes `bytes` as they are, a newline after them.
    pub async fn send_line(&mut self, bytes: &[u8]) {
        self.input
            .write_all(bytes)
            .await
            .expect("the transport reads");
        self.input
            .write_all(b"\n")
            .await
            .expect("the transport reads");
    }

    /// The next line the transport writes, as JSON, within 5 s.
    pub async fn receive(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(5), self.output.next_line())
            .await
            .expect("a line within 5 s")
            .expect("the output reads")
            .expect("the transport goes on");
        serde_json::from_str(&line).expect("a line is JSON")
    }
}

/// Stdio (`mcp_server::transport::stdio`) on in-memory pipes.
#[derive(Debug, Clone, Copy)]
pub struct Stdio;

impl LineTransport for Stdio {
    fn connect(&self, server: Server) -> impl Future<Output = Pipe> + Send {
        let (client, transport) = tokio::io::duplex(64 * 1024);
        let (transport_in, transport_out) = tokio::io::split(transport);
        let serving = tokio::spawn(stdio::serve(server, transport_in, transport_out));
        let (output, input) = tokio::io::split(client);
        std::future::ready(Pipe {
            input: Box::new(input),
            output: BufReader::new(Box::new(output) as Box<dyn AsyncRead + Send + Unpin>).lines(),
            serving,
        })
    }
}

/// Writes a `#[tokio::test]` that runs every conversation over the
/// transport `$transport` (a value of a [`LineTransport`]).
#[macro_export]
macro_rules! conversations {
    ($transport:expr) => {
        $crate::conversations!(@each $transport;
            a_modern_request_is_answered_on_its_own_line,
            a_line_that_is_not_json_gets_a_parse_error_and_the_next_line_is_served,
            a_line_nested_too_deep_gets_a_parse_error_and_the_next_line_is_served,
            a_batch_gets_an_invalid_request_and_the_next_line_is_served,
            initialize_makes_the_process_a_legacy_session,
            an_unsupported_initialize_version_is_answered_with_the_newest_legacy_one,
            notifications_cancelled_cancels_the_request_it_names_which_then_answers_nothing,
            end_of_input_returns_promptly_even_with_a_request_running,
            a_request_written_right_behind_initialize_belongs_to_the_session,
            listen_notifications_interleave_and_cancelled_ends_the_stream,
            a_legacy_session_hears_that_the_tool_list_changed,
            a_legacy_client_answers_the_question_its_tool_asks,
        );
    };
    (@each $transport:expr; $($name:ident),* $(,)?) => {$(
        #[tokio::test]
        async fn $name() {
            $crate::conversation::$name(&$transport).await;
        }
    )*};
}

/// Set when `wait_flagged` sees its request cancelled.
static SAW_CANCELLATION: AtomicBool = AtomicBool::new(false);

/// A builder isolated from linked registrations, named `test`.
fn builder() -> Builder {
    Server::builder().named("test", "1.0.0").without_linked()
}

/// A fixed origin.
fn origin(crate_name: &'static str, line: u32) -> Origin {
    Origin {
        crate_name,
        crate_version: "0.1.0",
        module: crate_name,
        file: "src/lib.rs",
        line,
    }
}

/// A tool named `name` with an object input schema.
fn tool(name: &str) -> Tool {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "object".into());
    Tool {
        name: name.into(),
        input_schema: schema,
        ..Default::default()
    }
}

/// A server with what `contribute` adds.
fn server_with(contribute: impl Fn(&mut Contributions) + Send + Sync + 'static) -> Builder {
    builder().contributor(origin("app", 1), "tools", contributor_fn(contribute))
}

/// The server of the both-eras conversations: a tool that logs, and two
/// that wait for their cancellation.
fn both_eras() -> Builder {
    server_with(|c| {
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
    })
}

/// A server whose tool `echo` answers with its name.
fn echo() -> Builder {
    server_with(|c| {
        c.tool(
            tool("echo"),
            handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("echo")) }),
        );
    })
}

/// A server whose tool `touch` changes the tool list.
fn touching() -> Builder {
    server_with(|c| {
        c.tool(
            tool("touch"),
            handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                ctx.changes().publish(Change::tools_list_changed());
                Ok(CallToolResult::text("touched"))
            }),
        );
    })
}

/// `_meta` of a 2026-07-28 request.
fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// The params of a 2026-07-28 request naming `name`.
fn modern(name: &str) -> Value {
    json!({"name": name, "_meta": meta()})
}

/// A 2025-11-25 `initialize` of version `version`, asking for the client
/// capabilities `capabilities`.
fn initialize(version: &str, capabilities: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": capabilities,
        "clientInfo": {"name": "old", "version": "1"}}})
}

/// A modern `tools/call` of `name`, as one line.
fn call(name: &str, id: i64) -> Vec<u8> {
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": modern(name)}))
    .expect("JSON encodes")
}

/// Sends `line`, expects an error with `code` and no id, then checks that
/// the next request is served.
async fn refused_then_served(pipe: &mut Pipe, line: &[u8], code: i64) {
    pipe.send_line(line).await;
    let answer = pipe.receive().await;
    assert_eq!(answer["jsonrpc"], "2.0", "{answer}");
    assert_eq!(answer["error"]["code"], code, "{answer}");
    assert!(answer.get("id").is_none(), "{answer}");
    pipe.send_line(&call("echo", 9)).await;
    let answer = pipe.receive().await;
    assert_eq!(answer["id"], 9, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "echo", "{answer}");
}

/// `levels` arrays, one inside the other.
fn nested_arrays(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

/// A 2026-07-28 request gets its response on a line of its own.
pub async fn a_modern_request_is_answered_on_its_own_line(transport: &impl LineTransport) {
    let mut pipe = transport.connect(both_eras().build()).await;
    pipe.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": modern("chatty")}),
    )
    .await;
    let answer = pipe.receive().await;
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["content"][0]["text"], "said");
}

/// A line that is not JSON (or not UTF-8) gets `-32700` without an id.
pub async fn a_line_that_is_not_json_gets_a_parse_error_and_the_next_line_is_served(
    transport: &impl LineTransport,
) {
    let mut pipe = transport.connect(echo().build()).await;
    refused_then_served(&mut pipe, b"{oops", -32700).await;
    refused_then_served(&mut pipe, b"\xff\xfe", -32700).await;
}

/// JSON nested deeper than the decoder goes gets `-32700`, wherever the
/// nesting is.
pub async fn a_line_nested_too_deep_gets_a_parse_error_and_the_next_line_is_served(
    transport: &impl LineTransport,
) {
    let mut pipe = transport.connect(echo().build()).await;
    let deep = 100_000;
    refused_then_served(&mut pipe, nested_arrays(deep).as_bytes(), -32700).await;
    let objects = format!("{}1{}", r#"{"a":"#.repeat(deep), "}".repeat(deep));
    refused_then_served(&mut pipe, objects.as_bytes(), -32700).await;
    let in_arguments = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","arguments":{{"a":{}}}}}}}"#,
        nested_arrays(deep)
    );
    refused_then_served(&mut pipe, in_arguments.as_bytes(), -32700).await;
}

/// A batch is not a message of either era: `-32600`.
pub async fn a_batch_gets_an_invalid_request_and_the_next_line_is_served(
    transport: &impl LineTransport,
) {
    let mut pipe = transport.connect(echo().build()).await;
    let batch = [b"[".as_slice(), &call("echo", 1), b"]"].concat();
    refused_then_served(&mut pipe, &batch, -32600).await;
}

/// `initialize` makes the connection a 2025-11-25 session: its later
/// requests carry no `_meta`, and its log level holds.
pub async fn initialize_makes_the_process_a_legacy_session(transport: &impl LineTransport) {
    let mut pipe = transport.connect(both_eras().build()).await;
    pipe.send(initialize("2025-11-25", json!({}))).await;
    let answer = pipe.receive().await;
    assert_eq!(answer["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(answer["result"]["serverInfo"]["name"], "test");
    // A legacy session hears of list changes.
    assert_eq!(
        answer["result"]["capabilities"]["tools"],
        json!({"listChanged": true})
    );
    pipe.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    pipe.send(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
        .await;
    assert_eq!(pipe.receive().await["result"], json!({}));
    // Legacy requests carry no `_meta`: the session supplies version and capabilities.
    pipe.send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}))
        .await;
    assert_eq!(
        pipe.receive().await["result"]["tools"]
            .as_array()
            .expect("a list of tools")
            .len(),
        3
    );
    pipe.send(json!({"jsonrpc": "2.0", "id": 4, "method": "logging/setLevel", "params": {"level": "warning"}}))
        .await;
    assert_eq!(pipe.receive().await["id"], 4);
    pipe.send(
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "chatty"}}),
    )
    .await;
    let log = pipe.receive().await;
    assert_eq!(log["method"], "notifications/message");
    assert_eq!(log["params"]["data"], "careful");
    assert_eq!(pipe.receive().await["result"]["content"][0]["text"], "said");
}

/// A version the server does not speak is answered with the newest
/// legacy one.
pub async fn an_unsupported_initialize_version_is_answered_with_the_newest_legacy_one(
    transport: &impl LineTransport,
) {
    let mut pipe = transport.connect(both_eras().build()).await;
    pipe.send(initialize("1999-01-01", json!({}))).await;
    assert_eq!(
        pipe.receive().await["result"]["protocolVersion"],
        "2025-11-25"
    );
}

/// `notifications/cancelled` fires the handler's cancellation, and the
/// cancelled request is answered with nothing.
pub async fn notifications_cancelled_cancels_the_request_it_names_which_then_answers_nothing(
    transport: &impl LineTransport,
) {
    let mut pipe = transport.connect(both_eras().build()).await;
    pipe.send(json!({"jsonrpc": "2.0", "id": "w", "method": "tools/call", "params": modern("wait_flagged")}))
        .await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    pipe.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "w"}}))
        .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(
        SAW_CANCELLATION.load(Ordering::SeqCst),
        "the handler's token fired"
    );
    // The next line out answers the next request: nothing came for `w`.
    pipe.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": modern("x")}))
        .await;
    assert_eq!(pipe.receive().await["id"], 2);
}

/// The end of the client's input ends the transport, whatever still runs:
/// at the latest when the drain deadline (here 1 s) cuts what never ends.
pub async fn end_of_input_returns_promptly_even_with_a_request_running(
    transport: &impl LineTransport,
) {
    let server = both_eras().setting("server.drain_timeout_s", 1).build();
    let mut pipe = transport.connect(server).await;
    pipe.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": modern("wait")}))
        .await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    pipe.input.shutdown().await.expect("the input closes");
    let served = tokio::time::timeout(Duration::from_secs(5), pipe.serving).await;
    assert!(
        matches!(served, Ok(Ok(Ok(())))),
        "serving returns once input ends: {served:?}"
    );
}

/// Takes its time over `initialize`, as a slow audit would.
struct SlowInitialize;

impl RawInterceptor for SlowInitialize {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        Box::pin(async move {
            if call.method() == "initialize" {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            next.run(call).await
        })
    }
}

/// A request read before `initialize` is answered still belongs to the
/// session `initialize` makes.
pub async fn a_request_written_right_behind_initialize_belongs_to_the_session(
    transport: &impl LineTransport,
) {
    let server = both_eras()
        .register(
            origin("audit", 1),
            "slow-initialize",
            0,
            Item::raw_interceptor(SlowInitialize),
        )
        .build();
    let mut pipe = transport.connect(server).await;
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    // Both lines in one write: the second is read before the first is answered.
    let mut lines = serde_json::to_vec(&initialize("2025-11-25", json!({}))).expect("JSON encodes");
    lines.push(b'\n');
    lines.extend(serde_json::to_vec(&ping).expect("JSON encodes"));
    lines.push(b'\n');
    pipe.input
        .write_all(&lines)
        .await
        .expect("the transport reads");
    assert_eq!(pipe.receive().await["id"], 1);
    let pong = pipe.receive().await;
    assert_eq!(
        (&pong["id"], &pong["result"]),
        (&json!(2), &json!({})),
        "{pong}"
    );
}

/// A `subscriptions/listen` stream's notifications interleave with other
/// responses, and `notifications/cancelled` ends it without a response.
pub async fn listen_notifications_interleave_and_cancelled_ends_the_stream(
    transport: &impl LineTransport,
) {
    let server = touching().build();
    let mut pipe = transport.connect(server.clone()).await;
    pipe.send(
        json!({"jsonrpc": "2.0", "id": "l1", "method": "subscriptions/listen",
        "params": {"_meta": meta(), "notifications": {"toolsListChanged": true}}}),
    )
    .await;
    let ack = pipe.receive().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "l1"
    );
    pipe.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"_meta": meta(), "name": "touch"}}))
        .await;
    let mut seen = [pipe.receive().await, pipe.receive().await];
    seen.sort_by_key(|m| m.get("id").is_some());
    assert_eq!(seen[0]["method"], "notifications/tools/list_changed");
    assert_eq!(
        seen[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "l1"
    );
    assert_eq!(seen[1]["id"], 2);
    pipe.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": "l1", "reason": "done listening"}}),
    )
    .await;
    for _ in 0..100 {
        if server.listeners() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(server.listeners(), 0);
    // The next line is the next request's answer: the cancelled stream answers nothing.
    pipe.send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"_meta": meta(), "name": "touch"}}))
        .await;
    let answer = pipe.receive().await;
    assert_eq!(answer["id"], 3, "{answer}");
}

/// A 2025-11-25 session hears of a change to the tool list, on the same
/// connection as the response to the call that made it.
pub async fn a_legacy_session_hears_that_the_tool_list_changed(transport: &impl LineTransport) {
    let mut pipe = transport.connect(touching().build()).await;
    pipe.send(initialize("2025-11-25", json!({}))).await;
    assert_eq!(pipe.receive().await["id"], 1);
    pipe.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    pipe.send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "touch"}}),
    )
    .await;
    let mut seen = [pipe.receive().await, pipe.receive().await];
    seen.sort_by_key(|m| m.get("id").is_some());
    assert_eq!(
        seen[0]["method"], "notifications/tools/list_changed",
        "{seen:?}"
    );
    assert_eq!(seen[1]["result"]["content"][0]["text"], "touched");
}

/// A tool asks a 2025-11-25 client for input: the question goes out as a
/// request on the connection, and the client's response answers it.
pub async fn a_legacy_client_answers_the_question_its_tool_asks(transport: &impl LineTransport) {
    let server = server_with(|c| {
        c.tool(
            tool("ask"),
            handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                let params: ElicitRequestParams = serde_json::from_value(json!({
                    "mode": "form",
                    "message": "Your name?",
                    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
                }))
                .expect("a form elicitation");
                let answer = ctx
                    .elicit(params)
                    .await
                    .map_err(|e| ErrorObject::internal_error(e.to_string()))?;
                let name = match (answer.action, answer.content) {
                    (ElicitAction::Accept, Some(content)) => match content.get("name") {
                        Some(ElicitValue::String(name)) => Some(name.clone()),
                        _ => None,
                    },
                    _ => None,
                };
                Ok(CallToolResult::text(format!(
                    "hello {}",
                    name.unwrap_or_default()
                )))
            }),
        );
    })
    .build();
    let mut pipe = transport.connect(server).await;
    pipe.send(initialize("2025-11-25", json!({"elicitation": {}})))
        .await;
    assert_eq!(pipe.receive().await["id"], 1);
    pipe.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    pipe.send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "ask"}}),
    )
    .await;
    let question = pipe.receive().await;
    assert_eq!(question["method"], "elicitation/create", "{question}");
    pipe.send(json!({"jsonrpc": "2.0", "id": question["id"],
        "result": {"action": "accept", "content": {"name": "Ada"}}}))
        .await;
    let answer = pipe.receive().await;
    assert_eq!(answer["id"], 2, "{answer}");
    assert_eq!(
        answer["result"]["content"][0]["text"], "hello Ada",
        "{answer}"
    );
}
