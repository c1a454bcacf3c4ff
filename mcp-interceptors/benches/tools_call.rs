//! The cost per `tools/call` of declared interceptors, in process: none, the
//! extension linked with no interceptor, five that hook another event, and
//! one validator, one mutator (both phases) and five of them (three
//! validators and two mutators in both phases) on `tools/call`.
//!
//! Run with `cargo bench -p mcp-interceptors --bench tools_call`; divide each
//! case by `unlinked` for the ratio.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use mcp_interceptors::wire::Phase;
use mcp_interceptors::{Failure, Interceptor, Invocation, Mutate, Mutation, Validate, Validation};
use mcp_server::core::json::JsonObject;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::server::Builder;
use mcp_server::transport::Peer;
use mcp_server::{BoxFuture, Server, origin};

/// Passes every payload, after looking at its arguments.
struct Pass;

impl Validate for Pass {
    fn validate<'a>(&'a self, i: &'a Invocation) -> BoxFuture<'a, Result<Validation, Failure>> {
        Box::pin(async move {
            black_box(i.arguments());
            Ok(Validation::valid())
        })
    }
}

/// Leaves every payload as it is, after looking at it.
struct Keep;

impl Mutate for Keep {
    fn mutate<'a>(&'a self, i: &'a Invocation) -> BoxFuture<'a, Result<Mutation, Failure>> {
        Box::pin(async move {
            black_box(i.payload());
            Ok(Mutation::unchanged())
        })
    }
}

fn with_echo(builder: Builder) -> Builder {
    builder.contributor(
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
    )
}

fn validator(i: usize, event: &str) -> Interceptor {
    Interceptor::validator(origin!(), format!("validator-{i}"), Pass).hook(Phase::Request, [event])
}

fn mutator(i: usize, event: &str) -> Interceptor {
    Interceptor::mutator(origin!(), format!("mutator-{i}"), Keep)
        .hook(Phase::Request, [event])
        .hook(Phase::Response, [event])
}

fn server(interceptors: Vec<Interceptor>) -> Server {
    let mut builder = with_echo(Server::builder());
    for interceptor in interceptors {
        let name = interceptor.name().to_owned();
        builder = builder.register(origin!(), name, 0, mcp_interceptors::declared(interceptor));
    }
    builder.build()
}

const REQUEST: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"echo","arguments":{"text":"hi"}}}"#;

fn cases() -> Vec<(&'static str, Server)> {
    let five = |event: &str| {
        vec![
            validator(1, event),
            validator(2, event),
            validator(3, event),
            mutator(4, event),
            mutator(5, event),
        ]
    };
    vec![
        (
            "unlinked",
            with_echo(Server::builder().without_linked()).build(),
        ),
        ("linked/0", server(vec![])),
        ("elsewhere/5", server(five("prompts/get"))),
        ("validator/1", server(vec![validator(1, "tools/call")])),
        ("mutator/1", server(vec![mutator(1, "tools/call")])),
        ("mixed/5", server(five("tools/call"))),
    ]
}

fn tools_call(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime");
    let peer = Peer::modern();
    let mut group = c.benchmark_group("interceptors_tools_call");
    for (label, server) in cases() {
        let answer = runtime.block_on(server.handle(REQUEST, &peer));
        assert!(
            String::from_utf8_lossy(&answer.unwrap_or_default()).contains(r#""text":"hi""#),
            "{label}: the call answers"
        );
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter(|| {
                runtime
                    .block_on(async { black_box(server.handle(black_box(REQUEST), &peer).await) })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, tools_call);
criterion_main!(benches);
