//! `tools/call` through the in-memory path, with 0, 1 and 10 interceptors of
//! each kind, and the JSON work alone for comparison.
//!
//! Run with `cargo bench -p mcp-server --bench dispatch`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group};
use mcp_server::BoxFuture;
use mcp_server::context::RequestContext;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonObject;
use mcp_server::core::jsonrpc::{self, Message, ResultResponse};
use mcp_server::core::tools::{CallTool, CallToolRequestParams, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::Item;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::interceptor::Scope;
use mcp_server::seam::interceptor::{
    Answer, HandlerCall, HandlerInterceptor, HandlerNext, RawAnswer, RawCall, RawInterceptor,
    RawNext, Settled, Stratum, TypedInterceptor, TypedNext,
};
use mcp_server::transport::Peer;
use mcp_server::{Server, origin};

struct PassRaw;
impl RawInterceptor for PassRaw {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        next.run(call)
    }
}

struct PassTyped;
impl TypedInterceptor<CallTool> for PassTyped {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        params: CallToolRequestParams,
        next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        next.run(params)
    }
}

struct PassStep;
impl HandlerInterceptor for PassStep {
    fn intercept<'a>(
        &'a self,
        call: HandlerCall<'a>,
        next: HandlerNext<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        next.run(call)
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Raw,
    Typed,
    Chain,
}

fn server(kind: Kind, count: usize) -> Server {
    let mut builder = Server::builder().without_linked().contributor(
        origin!(),
        "echo",
        contributor_fn(|c| {
            let mut schema = JsonObject::new();
            schema.insert("type".into(), "object".into());
            let tool = Tool {
                name: "echo".into(),
                input_schema: schema,
                ..Default::default()
            };
            c.tool(
                tool,
                handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("hi")) }),
            );
        }),
    );
    for i in 0..count {
        let item = match kind {
            Kind::Raw => Item::raw_interceptor(PassRaw),
            Kind::Typed => Item::typed::<CallTool>(PassTyped),
            Kind::Chain => Item::handler_interceptor(Stratum::Audit, Scope::All, PassStep),
        };
        builder = builder.register(origin!(), format!("pass-{i}"), i as i32, item);
    }
    builder.build()
}

/// A tool that sends 100 progress notifications before its result, with
/// `senders` sending interceptors that let every message pass.
fn progress_server(senders: usize) -> Server {
    let mut builder = Server::builder().without_linked().contributor(
        origin!(),
        "progress",
        contributor_fn(|c| {
            let mut schema = JsonObject::new();
            schema.insert("type".into(), "object".into());
            let tool = Tool {
                name: "progress".into(),
                input_schema: schema,
                ..Default::default()
            };
            c.tool(
                tool,
                handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                    for i in 0..100u32 {
                        ctx.progress().report(f64::from(i), Some(100.0), None);
                    }
                    Ok(CallToolResult::text("done"))
                }),
            );
        }),
    );
    for i in 0..senders {
        builder = builder.register(
            origin!(),
            format!("pass-{i}"),
            i as i32,
            Item::sending_interceptor(PassSending),
        );
    }
    builder.build()
}

struct PassSending;
impl mcp_server::seam::interceptor::SendingInterceptor for PassSending {}

/// Counts what it is sent, as a transport's sink would take it.
struct CountingSink(std::sync::atomic::AtomicUsize);
impl mcp_server::seam::sink::NotificationSink for CountingSink {
    fn send(&self, notification: jsonrpc::Notification) {
        black_box(notification);
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

const PROGRESS_REQUEST: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p"},"name":"progress","arguments":{}}}"#;

const REQUEST: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"echo","arguments":{"text":"hi"}}}"#;

fn dispatch(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let peer = Peer::modern();
    let mut group = c.benchmark_group("tools_call");
    for (label, kind) in [
        ("raw", Kind::Raw),
        ("typed", Kind::Typed),
        ("chain", Kind::Chain),
    ] {
        for count in [0usize, 1, 10] {
            if count == 0 && !matches!(kind, Kind::Raw) {
                continue;
            }
            let server = server(kind, count);
            let id = if count == 0 {
                "none/0".to_owned()
            } else {
                format!("{label}/{count}")
            };
            group.bench_function(BenchmarkId::from_parameter(id), |b| {
                b.iter(|| {
                    runtime.block_on(async {
                        black_box(server.handle(black_box(REQUEST), &peer).await)
                    })
                })
            });
        }
    }
    group.bench_function(BenchmarkId::from_parameter("json-only"), |b| {
        let result = CallToolResult::text("hi");
        b.iter(|| black_box(json_only(&result)))
    });
    group.finish();
}

/// The JSON work every call does, without the framework: decode the
/// envelope and the params, encode the result.
fn json_only(result: &CallToolResult) -> Vec<u8> {
    let Ok(Message::Request(request)) = jsonrpc::decode(black_box(REQUEST)) else {
        unreachable!()
    };
    let params: CallToolRequestParams = request.params_as().unwrap();
    black_box(params);
    let raw = serde_json::value::to_raw_value(result).unwrap();
    serde_json::to_vec(&ResultResponse::new(request.id, raw)).unwrap()
}

fn parts(c: &mut Criterion) {
    let mut group = c.benchmark_group("parts");
    let Ok(Message::Request(request)) = jsonrpc::decode(REQUEST) else {
        unreachable!()
    };
    let params = request.params.unwrap();
    group.bench_function("envelope", |b| {
        b.iter(|| black_box(jsonrpc::decode(black_box(REQUEST)).is_ok()))
    });
    group.bench_function("params", |b| {
        b.iter(|| black_box(serde_json::from_str::<CallToolRequestParams>(params.get()).unwrap()))
    });
    group.bench_function("meta", |b| {
        b.iter(|| black_box(serde_json::from_str::<mcp_server::core::meta::RequestMeta>(r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#).unwrap()))
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    group.bench_function("block_on", |b| {
        b.iter(|| runtime.block_on(async { black_box(1) }))
    });
    group.finish();
}

criterion_group!(benches, dispatch, parts);

/// `MCP_BENCH_LOOP=<raw|typed|chain|json|progress>:<interceptors>:<calls>`
/// runs that many calls and nothing else (`progress`: a tool that sends 100
/// progress notifications, with that many sending interceptors), for an instruction count under
/// `valgrind --tool=callgrind` (the difference of two call counts is the
/// cost of the calls alone; criterion's timings vary with the machine).
fn calls(spec: &str) {
    let parts: Vec<&str> = spec.split(':').collect();
    let (count, calls): (usize, usize) = (parts[1].parse().unwrap(), parts[2].parse().unwrap());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    if parts[0] == "progress" {
        let server = progress_server(count);
        let sink = std::sync::Arc::new(CountingSink(std::sync::atomic::AtomicUsize::new(0)));
        let peer = Peer::modern().with_notifications(sink.clone());
        for _ in 0..calls {
            runtime.block_on(async {
                black_box(server.handle(black_box(PROGRESS_REQUEST), &peer).await)
            });
        }
        assert_eq!(
            sink.0.load(std::sync::atomic::Ordering::Relaxed),
            calls * 100
        );
        return;
    }
    let peer = Peer::modern();
    if parts[0] == "json" {
        let result = CallToolResult::text("hi");
        for _ in 0..calls {
            black_box(json_only(&result));
        }
        return;
    }
    let kind = match parts[0] {
        "raw" => Kind::Raw,
        "typed" => Kind::Typed,
        _ => Kind::Chain,
    };
    let server = server(kind, count);
    for _ in 0..calls {
        runtime.block_on(async { black_box(server.handle(black_box(REQUEST), &peer).await) });
    }
}

fn main() {
    if let Ok(spec) = std::env::var("MCP_BENCH_LOOP") {
        calls(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
