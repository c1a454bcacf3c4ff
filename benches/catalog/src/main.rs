//! `catalog-bench`: the runtime catalog against the catalog of boot, in
//! process through `MemoryClient`, both measured in the same run.
//!
//! ```text
//! catalog-bench [SECONDS_PER_RATE [TOOLS [CALLERS [CHANGES]]]]   # or those variables
//! ```
//!
//! Two servers serve `TOOLS` (default 10,000) tools that answer at once:
//! one assembled them at boot, the other added them at runtime with one
//! catalog change. For `SECONDS_PER_RATE` (default 3) each, with `CALLERS`
//! (default 32) concurrent callers, it measures:
//!
//! - full `tools/list` walks per second (every page, following cursors) on
//!   each server: the runtime list's rate over the boot list's (goal: at
//!   least 0.5);
//! - `tools/call`s per second on the runtime server while nothing changes,
//!   then while a task replaces one of its tools `CHANGES` (default 100)
//!   times a second: the rate under changes over the rate without (goal:
//!   at least 0.8); the boot server's rate is printed beside them.
//!
//! It exits with failure when any call failed.

use std::future::Future;
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcp_server::catalog::CatalogChange;
use mcp_server::core::json::JsonObject;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::{Handler, handler_fn};
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::testing::MemoryClient;
use mcp_server::{Server, origin};
use serde_json::json;

/// What one run measures.
#[derive(Debug, Clone, Copy)]
struct Plan {
    duration: Duration,
    tools: usize,
    callers: usize,
    changes: u32,
}

fn setting<T: FromStr>(arg: Option<&String>, variable: &str, default: T) -> T {
    arg.cloned()
        .or_else(|| std::env::var(variable).ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn tool(name: &str) -> Tool {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "object".into());
    Tool {
        name: name.into(),
        input_schema: schema,
        ..Tool::default()
    }
}

fn answer() -> impl Handler<CallTool> {
    handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("ok")) })
}

fn name(i: usize) -> String {
    format!("tool_{i:05}")
}

fn builder() -> mcp_server::server::Builder {
    Server::builder()
        .named("catalog-bench", "0.1.0")
        .without_linked()
}

/// `tools` tools assembled at boot.
fn of_boot(tools: usize) -> Server {
    builder()
        .contributor(
            origin!(),
            "tools",
            contributor_fn(move |c| {
                for i in 0..tools {
                    c.tool(tool(&name(i)), answer());
                }
            }),
        )
        .build()
}

/// One tool of boot, and `tools` tools added at runtime in one change.
fn of_runtime(tools: usize) -> Server {
    let server = builder()
        .contributor(
            origin!(),
            "ping",
            contributor_fn(|c| {
                c.tool(tool("ping"), answer());
            }),
        )
        .build();
    let mut change = CatalogChange::new(origin!());
    for i in 0..tools {
        change = change.add_tool(tool(&name(i)), answer());
    }
    server
        .catalog()
        .apply(change)
        .expect("the runtime tools are added");
    server
}

/// Operations per second of `callers` concurrent callers running `op`
/// for `duration`; `None` when an operation failed.
async fn rate<F, Fut>(server: &Server, plan: Plan, op: F) -> Option<f64>
where
    F: Fn(Arc<MemoryClient>, usize) -> Fut + Send + Sync + Copy + 'static,
    Fut: Future<Output = bool> + Send,
{
    let done = Arc::new(AtomicUsize::new(0));
    let failed = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let deadline = started + plan.duration;
    let mut callers = Vec::with_capacity(plan.callers);
    for caller in 0..plan.callers {
        let client = Arc::new(MemoryClient::new(server));
        let (done, failed) = (done.clone(), failed.clone());
        callers.push(tokio::spawn(async move {
            let mut n = caller;
            while Instant::now() < deadline {
                if !op(client.clone(), n).await {
                    failed.store(true, Ordering::Relaxed);
                    return;
                }
                done.fetch_add(1, Ordering::Relaxed);
                n += plan.callers;
            }
        }));
    }
    for caller in callers {
        caller.await.expect("a caller does not panic");
    }
    let elapsed = started.elapsed().as_secs_f64();
    (!failed.load(Ordering::Relaxed)).then(|| done.load(Ordering::Relaxed) as f64 / elapsed)
}

async fn walk(client: Arc<MemoryClient>, tools: usize) -> bool {
    matches!(client.list_tools().await, Ok(listed) if listed.len() >= tools)
}

async fn call(client: Arc<MemoryClient>, n: usize, tools: usize) -> bool {
    let result = client.call_tool(&name(n % tools), json!({})).await;
    matches!(result, Ok(r) if r.is_error != Some(true))
}

/// Replaces one runtime tool `per_second` times a second until `stop`, on
/// a thread of its own (as an administrator's change arrives from outside
/// the callers' runtime); how many changes were applied.
fn churn(server: Server, tools: usize, per_second: u32, stop: Arc<AtomicBool>) -> usize {
    let every = Duration::from_secs(1) / per_second.max(1);
    let started = Instant::now();
    let mut applied = 0;
    while !stop.load(Ordering::Relaxed) {
        let change =
            CatalogChange::new(origin!()).replace_tool(tool(&name(applied % tools)), answer());
        server
            .catalog()
            .apply(change)
            .expect("a replacement is applied");
        applied += 1;
        let next = started + every * u32::try_from(applied).unwrap_or(u32::MAX);
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
    }
    applied
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        eprintln!(
            "usage: catalog-bench [SECONDS_PER_RATE [TOOLS [CALLERS [CHANGES]]]] (or those variables)"
        );
        return ExitCode::from(2);
    }
    let plan = Plan {
        duration: Duration::from_secs_f64(
            setting(args.first(), "SECONDS_PER_RATE", 3.0_f64).max(0.1),
        ),
        tools: setting(args.get(1), "TOOLS", 10_000).max(1),
        callers: setting(args.get(2), "CALLERS", 32).max(1),
        changes: setting(args.get(3), "CHANGES", 100).max(1),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime starts");
    println!(
        "catalog-bench: {} tools, {} callers, {:.1} s per rate, {} changes/s; {} runtime workers",
        plan.tools,
        plan.callers,
        plan.duration.as_secs_f64(),
        plan.changes,
        runtime.metrics().num_workers()
    );
    let ok = runtime.block_on(bench(plan));
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

async fn bench(plan: Plan) -> bool {
    let tools = plan.tools;
    let boot = of_boot(tools);
    let added = of_runtime(tools);
    let walks = |server: Server| async move {
        rate(&server, plan, move |client, _| walk(client, tools)).await
    };
    let (Some(boot_walks), Some(added_walks)) =
        (walks(boot.clone()).await, walks(added.clone()).await)
    else {
        eprintln!("a tools/list walk failed");
        return false;
    };
    println!(
        "tools/list, full walks/s: boot {boot_walks:.1}, runtime {added_walks:.1}: {:.2}x (goal >= 0.5x)",
        added_walks / boot_walks
    );

    let calls = |server: Server| async move {
        rate(&server, plan, move |client, n| call(client, n, tools)).await
    };
    let Some(boot_calls) = calls(boot.clone()).await else {
        eprintln!("a call to a tool of boot failed");
        return false;
    };
    let Some(still) = calls(added.clone()).await else {
        eprintln!("a call to a runtime tool failed");
        return false;
    };
    let stop = Arc::new(AtomicBool::new(false));
    let churning = {
        let (server, stop) = (added.clone(), stop.clone());
        std::thread::spawn(move || churn(server, tools, plan.changes, stop))
    };
    let changing = calls(added.clone()).await;
    stop.store(true, Ordering::Relaxed);
    let applied = churning.join().expect("the churn does not panic");
    let Some(changing) = changing else {
        eprintln!("a call failed while the catalog changed");
        return false;
    };
    println!(
        "tools/call/s: boot {boot_calls:.0}; runtime, unchanged {still:.0}; runtime, {:.0} changes/s {changing:.0}: {:.2}x (goal >= 0.8x)",
        applied as f64 / plan.duration.as_secs_f64(),
        changing / still
    );
    true
}
