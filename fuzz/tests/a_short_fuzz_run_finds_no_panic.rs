//! A short fuzz run from a fixed seed, in CI: twenty thousand inputs
//! through the envelope decoder and the demo server's dispatch, twelve
//! thousand requests through its Streamable HTTP router and five thousand
//! connections of its stdio transport find no panic, no input past its
//! time limit, and no invalid reply.

use std::path::Path;
use std::time::Duration;

use mcp_fuzz::driver::{self, Config};
use mcp_fuzz::report;
use mcp_fuzz::target::TargetKind;

/// The seed of the CI run; a failure replays with
/// `cargo run -p mcp-fuzz --release -- --target dispatch --inputs 20000 --seed 20260728`
/// (`--target http --inputs 12000`, `--target stdio --inputs 5000` for the transports).
const SEED: u64 = 20_260_728;

fn run(inputs: u64, target: TargetKind, folder: &str) {
    let mut config = Config::new(inputs, SEED).through(&[target]);
    // A debug build shares two cores with the rest of the test suite here:
    // the limit catches a hang, not a slow input, which is the release
    // run's business (2 s there).
    config.limit = Duration::from_secs(10);
    // Failing inputs go to the target directory, not into the repository.
    config.corpus = Some(Path::new(env!("CARGO_TARGET_TMPDIR")).join(folder));
    let totals = driver::run(&config);
    let failures: Vec<String> = totals.failures.iter().map(report::failure).collect();
    assert!(
        totals.passed(),
        "{}\n{}",
        report::totals(&totals),
        failures.join("\n\n")
    );
    assert_eq!(totals.inputs, inputs);
}

#[test]
fn twenty_thousand_inputs_from_a_fixed_seed_find_no_panic_timeout_or_invalid_reply() {
    run(20_000, TargetKind::Dispatch, "mcp-fuzz-failures");
}

#[test]
fn twelve_thousand_http_requests_from_a_fixed_seed_find_no_panic_timeout_or_invalid_answer() {
    run(12_000, TargetKind::Http, "mcp-fuzz-http-failures");
}

#[test]
fn five_thousand_stdio_inputs_from_a_fixed_seed_find_no_panic_timeout_or_invalid_answer() {
    run(5_000, TargetKind::Stdio, "mcp-fuzz-stdio-failures");
}
