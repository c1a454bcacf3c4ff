//! A short fuzz run from a fixed seed, in CI: twenty thousand inputs
//! through the envelope decoder and the demo server's dispatch find no
//! panic, no input past its time limit, and no invalid reply.

use std::path::Path;

use mcp_fuzz::driver::{self, Config};
use mcp_fuzz::report;

/// The seed of the CI run; a failure replays with
/// `cargo run -p mcp-fuzz --release -- --inputs 20000 --seed 20260728`.
const SEED: u64 = 20_260_728;

#[test]
fn twenty_thousand_inputs_from_a_fixed_seed_find_no_panic_timeout_or_invalid_reply() {
    let mut config = Config::new(20_000, SEED);
    // Failing inputs go to the target directory, not into the repository.
    config.corpus = Some(Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-fuzz-failures"));
    let totals = driver::run(&config);
    let failures: Vec<String> = totals.failures.iter().map(report::failure).collect();
    assert!(
        totals.passed(),
        "{}\n{}",
        report::totals(&totals),
        failures.join("\n\n")
    );
    assert_eq!(totals.inputs, 20_000);
}
