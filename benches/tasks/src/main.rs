//! `tasks-bench`: the task stores of `mcp-tasks` (memory, then SQLite) in
//! process, through `MemoryClient`, with a client that declares the tasks
//! extension, against ordinary `tools/call`s measured in the same run.
//!
//! ```text
//! tasks-bench [SECONDS_PER_RATE [CALLERS [TASKS [NAP_MS]]]]   # or those variables
//! ```
//!
//! For each store it reports, with `CALLERS` (default 32) concurrent
//! callers for `SECONDS_PER_RATE` (default 2) each:
//!
//! - ordinary `tools/call`s per second of a tool that answers at once: the
//!   baseline every rate is divided by;
//! - tasks created per second: `tools/call`s of the same tool marked
//!   `mcp_tasks::task!`, each answered with a task handle (every task is
//!   then polled until it completed);
//! - `tasks/get`s per second on those tasks;
//!
//! then `TASKS` (default 1,000) `tools/call`s of a tool that sleeps
//! `NAP_MS` (default 1,000) started at once, as tasks polled with
//! `tasks/get` until all completed, against the same number of ordinary
//! calls of the same sleep: wall times, and their ratio.
//!
//! `STORES` (default `memory,sqlite`) names the stores, in order; the
//! SQLite file is in a temporary directory. It exits with failure when any
//! call failed or any task did not complete.

use std::future::Future;
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_server::testing::MemoryClient;
use mcp_server::{Server, tool};
use mcp_tasks::store::TaskStore;
use serde_json::{Value, json};

/// Answers at once; runs as a task.
#[tool]
async fn quick() -> String {
    "done".into()
}
mcp_tasks::task!(quick);

/// Answers at once; an ordinary tool.
#[tool]
async fn quick_plain() -> String {
    "done".into()
}

/// Sleeps `millis`, then answers; runs as a task.
#[tool]
async fn nap(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    "done".into()
}
mcp_tasks::task!(nap);

/// Sleeps `millis`, then answers; an ordinary tool.
#[tool]
async fn nap_plain(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    "done".into()
}

/// How long a task may take to be seen completed before it counts as failed.
const SETTLE_LIMIT: Duration = Duration::from_secs(60);

/// What one run measures.
#[derive(Debug, Clone, Copy)]
struct Plan {
    /// How long each rate is measured.
    duration: Duration,
    /// The concurrent callers of each rate, and the concurrent pollers.
    callers: usize,
    /// The tasks started at once.
    tasks: usize,
    /// How long each of those sleeps, in milliseconds.
    nap_ms: u64,
}

/// Calls made in a rate measurement.
#[derive(Debug, Clone, Copy)]
struct Rate {
    /// Calls answered as expected.
    calls: usize,
    /// Calls that were not.
    failed: usize,
    /// Calls (of either kind) per second.
    per_second: f64,
}

/// What polling a set of tasks to their end saw.
#[derive(Debug, Default)]
struct Settled {
    /// Tasks completed with their tool's answer.
    completed: usize,
    /// Tasks that failed, were cancelled, answered otherwise, or did not
    /// end within [`SETTLE_LIMIT`].
    failed: usize,
    /// Tasks still working at the first poll.
    working_at_first: usize,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        eprintln!(
            "usage: tasks-bench [SECONDS_PER_RATE [CALLERS [TASKS [NAP_MS]]]] (or those variables)"
        );
        return ExitCode::from(2);
    }
    let plan = Plan {
        duration: Duration::from_secs_f64(
            setting(args.first(), "SECONDS_PER_RATE", 2.0_f64).max(0.1),
        ),
        callers: setting(args.get(1), "CALLERS", 32).max(1),
        tasks: setting(args.get(2), "TASKS", 1_000).max(1),
        nap_ms: setting(args.get(3), "NAP_MS", 1_000),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime starts");
    let workers = runtime.metrics().num_workers();
    println!(
        "tasks-bench: {} callers, {:.1} s per rate, {} tasks of {} ms; {workers} runtime workers",
        plan.callers,
        plan.duration.as_secs_f64(),
        plan.tasks,
        plan.nap_ms
    );
    println!("ratio: a rate over its baseline's rate; a wall time over its baseline's wall time");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let sqlite_path = dir.path().join("tasks.db");
    let stores = std::env::var("STORES").unwrap_or_else(|_| "memory,sqlite".into());
    let mut ok = true;
    for name in stores.split(',').map(str::trim) {
        let server = match name {
            "memory" => Server::builder().build(),
            "sqlite" => Server::builder()
                .setting("tasks.store", "sqlite")
                .setting("tasks.sqlite_path", sqlite_path.display().to_string())
                .build(),
            other => {
                eprintln!("tasks-bench: unknown store `{other}` in STORES (memory, sqlite)");
                return ExitCode::from(2);
            }
        };
        ok &= runtime.block_on(bench_store(name, &server, plan));
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        eprintln!("tasks-bench: some calls failed or some tasks did not complete");
        ExitCode::FAILURE
    }
}

/// Measures one server's store; whether every call and task succeeded.
async fn bench_store(name: &str, server: &Server, plan: Plan) -> bool {
    let selected = server
        .report()
        .selections
        .iter()
        .find(|s| s.seam == "TaskStore")
        .map_or_else(|| "none".to_owned(), |s| s.winner.clone());
    let describe = server
        .active::<dyn TaskStore>()
        .map_or_else(|| "none".to_owned(), |s| s.describe());
    println!("\nstore `{name}`: TaskStore = {selected} ({describe})");
    println!("  {:<56} {:>16} {:>8}", "", "figure", "ratio");
    let client = Arc::new(
        MemoryClient::new(server).with_capabilities(
            serde_json::from_value(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
                .expect("client capabilities"),
        ),
    );

    let baseline = rate(plan, {
        let client = client.clone();
        move |_| {
            let client = client.clone();
            async move {
                let result = client
                    .request_raw("tools/call", json!({"name": "quick_plain"}))
                    .await;
                result.is_ok_and(|r| answered(&r))
            }
        }
    })
    .await;
    print_rate("tools/call, ordinary (baseline)", baseline, baseline);

    let ids = Arc::new(Mutex::new(Vec::new()));
    let created = rate(plan, {
        let (client, ids) = (client.clone(), ids.clone());
        move |_| {
            let (client, ids) = (client.clone(), ids.clone());
            async move {
                let handle = client
                    .request_raw("tools/call", json!({"name": "quick"}))
                    .await;
                match handle.ok().as_ref().and_then(|h| h["taskId"].as_str()) {
                    Some(id) => {
                        ids.lock().expect("ids").push(id.to_owned());
                        true
                    }
                    None => false,
                }
            }
        }
    })
    .await;
    print_rate("tools/call, task created", created, baseline);
    let ids: Arc<Vec<String>> = Arc::new(std::mem::take(&mut *ids.lock().expect("ids")));
    let settled = settle(&client, &ids, plan.callers).await;
    println!(
        "    (then polled to their end: {} of {} completed, {} failed)",
        settled.completed,
        ids.len(),
        settled.failed
    );

    let got = rate(plan, {
        let (client, ids) = (client.clone(), ids.clone());
        move |n| {
            let (client, ids) = (client.clone(), ids.clone());
            async move {
                let Some(id) = ids.get(n % ids.len().max(1)) else {
                    return false;
                };
                let task = client.request_raw("tasks/get", json!({"taskId": id})).await;
                task.is_ok_and(|t| t["status"] == "completed")
            }
        }
    })
    .await;
    print_rate("tasks/get, completed tasks", got, baseline);

    let (plain_wall, plain_failed) = ordinary_naps(&client, plan).await;
    let naps = format!("{} × {} ms", plan.tasks, plan.nap_ms);
    line(
        &format!("{naps}, ordinary tools/call at once (baseline)"),
        &format!("{:.3} s", plain_wall.as_secs_f64()),
        1.0,
        &format!("{plain_failed} failed"),
    );
    let (created_in, task_wall, at_once) = task_naps(&client, plan).await;
    line(
        &format!("{naps}, tasks at once, polled to their end"),
        &format!("{:.3} s", task_wall.as_secs_f64()),
        task_wall.as_secs_f64() / plain_wall.as_secs_f64(),
        &format!(
            "all created in {:.3} s, {} in flight at once, {} completed, {} failed",
            created_in.as_secs_f64(),
            at_once.working_at_first,
            at_once.completed,
            at_once.failed
        ),
    );

    [
        baseline.failed,
        created.failed,
        settled.failed,
        got.failed,
        plain_failed,
        at_once.failed,
    ]
    .iter()
    .all(|&f| f == 0)
        && settled.completed == ids.len()
        && at_once.completed == plan.tasks
}

/// Runs `plan.callers` concurrent loops of `call` (given a sequence number;
/// `true` when answered as expected) for `plan.duration`.
async fn rate<F, Fut>(plan: Plan, call: F) -> Rate
where
    F: Fn(usize) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = bool> + Send,
{
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let deadline = start + plan.duration;
    let loops: Vec<_> = (0..plan.callers)
        .map(|_| {
            let (call, next) = (call.clone(), next.clone());
            tokio::spawn(async move {
                let mut failed = 0;
                while Instant::now() < deadline {
                    if !call(next.fetch_add(1, Ordering::Relaxed)).await {
                        failed += 1;
                    }
                }
                failed
            })
        })
        .collect();
    let mut failed = 0;
    for caller in loops {
        failed += caller.await.expect("a caller does not panic");
    }
    let total = next.load(Ordering::Relaxed);
    Rate {
        calls: total - failed,
        failed,
        per_second: total as f64 / start.elapsed().as_secs_f64(),
    }
}

/// Polls every task in `ids` with `callers` concurrent pollers, 50 ms
/// between rounds, until each ended (or [`SETTLE_LIMIT`] passed).
async fn settle(client: &Arc<MemoryClient>, ids: &Arc<Vec<String>>, callers: usize) -> Settled {
    let start = Instant::now();
    let mut settled = Settled::default();
    let mut pending = ids.clone();
    let mut first = true;
    while !pending.is_empty() {
        let next = Arc::new(AtomicUsize::new(0));
        let pollers: Vec<_> = (0..callers)
            .map(|_| {
                let (client, pending, next) = (client.clone(), pending.clone(), next.clone());
                tokio::spawn(async move {
                    let mut seen = Vec::new();
                    while let Some(id) = pending.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let task = client.request_raw("tasks/get", json!({"taskId": id})).await;
                        seen.push((id.clone(), task.unwrap_or(Value::Null)));
                    }
                    seen
                })
            })
            .collect();
        let mut working = Vec::new();
        for poller in pollers {
            for (id, task) in poller.await.expect("a poller does not panic") {
                match task["status"].as_str() {
                    Some("working" | "input_required") => working.push(id),
                    Some("completed") if answered(&task["result"]) => settled.completed += 1,
                    _ => settled.failed += 1,
                }
            }
        }
        if first {
            settled.working_at_first = working.len();
            first = false;
        }
        if start.elapsed() > SETTLE_LIMIT {
            settled.failed += working.len();
            break;
        }
        pending = Arc::new(working);
        if !pending.is_empty() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    settled
}

/// `plan.tasks` ordinary calls of `nap_plain` at once: the wall time until
/// all answered, and how many did not answer as expected.
async fn ordinary_naps(client: &Arc<MemoryClient>, plan: Plan) -> (Duration, usize) {
    let start = Instant::now();
    let calls: Vec<_> = (0..plan.tasks)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move {
                let params = json!({"name": "nap_plain", "arguments": {"millis": plan.nap_ms}});
                client
                    .request_raw("tools/call", params)
                    .await
                    .is_ok_and(|r| answered(&r))
            })
        })
        .collect();
    let mut failed = 0;
    for call in calls {
        if !call.await.expect("a call does not panic") {
            failed += 1;
        }
    }
    (start.elapsed(), failed)
}

/// `plan.tasks` task calls of `nap` at once, polled until all ended: the
/// time until every call answered, the wall time until all ended, and what
/// polling saw (a call answered
/// without a task handle counts as a failed task).
async fn task_naps(client: &Arc<MemoryClient>, plan: Plan) -> (Duration, Duration, Settled) {
    let start = Instant::now();
    let calls: Vec<_> = (0..plan.tasks)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move {
                let params = json!({"name": "nap", "arguments": {"millis": plan.nap_ms}});
                let handle = client.request_raw("tools/call", params).await.ok()?;
                handle["taskId"].as_str().map(str::to_owned)
            })
        })
        .collect();
    let mut ids = Vec::new();
    for call in calls {
        ids.extend(call.await.expect("a call does not panic"));
    }
    let created_in = start.elapsed();
    let refused = plan.tasks - ids.len();
    let mut settled = settle(client, &Arc::new(ids), plan.callers).await;
    settled.failed += refused;
    (created_in, start.elapsed(), settled)
}

/// Whether a tool result is the tools' answer, `done`, and not an error.
fn answered(result: &Value) -> bool {
    result["content"][0]["text"] == "done" && result["isError"] != true
}

/// Prints one rate with its ratio to `baseline`.
fn print_rate(what: &str, rate: Rate, baseline: Rate) {
    line(
        what,
        &format!("{:.0} calls/s", rate.per_second),
        rate.per_second / baseline.per_second,
        &format!("{} calls, {} failed", rate.calls, rate.failed),
    );
}

/// Prints one figure with its ratio to its baseline, and a note.
fn line(what: &str, figure: &str, ratio: f64, note: &str) {
    println!("  {what:<56} {figure:>16} {ratio:>7.2}×   {note}");
}

/// A setting from the command line, else from the environment variable
/// `var`, else `default`.
fn setting<T: FromStr>(arg: Option<&String>, var: &str, default: T) -> T {
    arg.cloned()
        .or_else(|| std::env::var(var).ok())
        .and_then(|n| n.trim().replace('_', "").parse().ok())
        .unwrap_or(default)
}
