//! Boot with 10,000 contributed tools: time, and the memory the server holds.
//!
//! Run with `cargo bench -p mcp-server --bench boot`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_server::core::json::JsonObject;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::{Server, origin};

const TOOLS: usize = 10_000;

fn build() -> Server {
    Server::builder()
        .without_linked()
        .contributor(
            origin!(),
            "many",
            contributor_fn(|c| {
                for i in 0..TOOLS {
                    let mut schema = JsonObject::new();
                    schema.insert("type".into(), "object".into());
                    let tool = Tool {
                        name: format!("tool_{i:05}"),
                        input_schema: schema,
                        ..Default::default()
                    };
                    c.tool(
                        tool,
                        handler_fn::<CallTool, _, _, _>(|_, _| async {
                            Ok(CallToolResult::text("ok"))
                        }),
                    );
                }
            }),
        )
        .build()
}

/// Resident memory of this process, in KiB (Linux).
fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn boot(c: &mut Criterion) {
    if let (Some(before), server, Some(after)) = (rss_kib(), build(), rss_kib()) {
        println!(
            "boot of {TOOLS} tools: server holds about {} KiB of resident memory",
            after.saturating_sub(before)
        );
        drop(server);
    }
    let mut group = c.benchmark_group("boot");
    group.sample_size(10);
    group.bench_function("10000_tools", |b| b.iter(|| black_box(build())));
    group.finish();
}

criterion_group!(benches, boot);
criterion_main!(benches);
