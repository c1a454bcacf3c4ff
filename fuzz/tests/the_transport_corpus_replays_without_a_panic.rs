//! Every input in `fuzz/corpus/http/` (whole HTTP requests) and
//! `fuzz/corpus/stdio/` (what a stdio client writes): failures the fuzzer
//! found and hand-picked hostile ones, replayed through the demo server's
//! Streamable HTTP router and its stdio transport without a panic, within
//! the time limit, and with the answers they should get. Lines of the
//! stdio limit's size are made here rather than kept in the corpus.

use mcp_fuzz::corpus;
use mcp_fuzz::judge::{self, replay_on};
use mcp_fuzz::target::{Target, TargetKind};
use mcp_server::transport::stdio::MAX_LINE;

async fn replay_dir(target: TargetKind, at_least: usize) -> Vec<String> {
    let demo = Target::demo();
    let dir = corpus::dir_of(&corpus::dir(), target);
    let inputs = corpus::load(&dir).expect("the corpus reads");
    assert!(
        inputs.len() >= at_least,
        "{} holds its hand-picked inputs",
        dir.display()
    );
    let mut failures = Vec::new();
    for (path, bytes) in &inputs {
        for (by, verdict) in replay_on(&demo, target, bytes, judge::LIMIT).await {
            failures.push(format!("{} ({by}): {verdict}", path.display()));
        }
    }
    failures
}

#[tokio::test]
async fn every_http_corpus_input_replays_with_a_valid_answer() {
    let failures = replay_dir(TargetKind::Http, 40).await;
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[tokio::test]
async fn every_stdio_corpus_input_replays_with_valid_answers() {
    let failures = replay_dir(TargetKind::Stdio, 10).await;
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[tokio::test]
async fn lines_at_and_past_the_stdio_limit_get_their_error_and_no_invalid_answer() {
    let demo = Target::demo();
    let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let mut failures = Vec::new();
    for len in [MAX_LINE, MAX_LINE + 1, MAX_LINE + 4096] {
        let mut bytes = vec![b'x'; len];
        bytes.push(b'\n');
        bytes.extend_from_slice(call);
        bytes.push(b'\n');
        for (by, verdict) in replay_on(&demo, TargetKind::Stdio, &bytes, judge::LIMIT).await {
            failures.push(format!("a line of {len} bytes ({by}): {verdict}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
