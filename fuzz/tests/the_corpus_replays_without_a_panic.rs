//! Every input in `fuzz/corpus/` (failures the fuzzer found, and hand-picked
//! hostile messages) replays through the envelope decoder and the demo
//! server's dispatch, by every kind of caller, without a panic, within the
//! time limit, and with the reply it should get.

use mcp_fuzz::corpus;
use mcp_fuzz::judge::{self, replay};
use mcp_fuzz::target::Target;

#[tokio::test]
async fn every_corpus_input_replays_without_a_panic_and_with_a_valid_reply() {
    let target = Target::demo();
    let inputs = corpus::load(&corpus::dir()).expect("the corpus reads");
    assert!(
        inputs.len() >= 50,
        "the corpus holds its hand-picked inputs"
    );
    let mut failures = Vec::new();
    for (path, bytes) in &inputs {
        for (caller, verdict) in replay(&target, bytes, judge::LIMIT).await {
            failures.push(format!("{} ({}): {verdict}", path.display(), caller.name()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
