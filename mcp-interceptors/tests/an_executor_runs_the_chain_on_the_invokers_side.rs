//! `Executor` runs a server's interceptors on payloads its caller holds:
//! the side that sends mutates and then validates, the side that receives
//! validates and then mutates, and a refusal rewrites nothing.

mod support;

use mcp_interceptors::wire::{Mode, Phase};
use mcp_interceptors::{Executor, Side, Validation};
use serde_json::{Value, json};
use support::{Append, Events, Judge, Record, mutator, server_with, validator};

fn request(trail: &str) -> Value {
    json!({"method": "tools/call", "params": {"name": "echo", "arguments": {"trail": trail}}})
}

/// Refuses a trail that a mutator has touched.
fn untouched(invocation: &mcp_interceptors::Invocation) -> Validation {
    match invocation.arguments().and_then(|a| a["trail"].as_str()) {
        Some(trail) if trail.contains('>') => Validation::invalid("the trail was rewritten"),
        _ => Validation::valid(),
    }
}

fn executor() -> Executor {
    Executor::of(&server_with(
        vec![
            mutator("tag", Append("tag")),
            validator("untouched", Judge(untouched)),
        ],
        &Events::default(),
    ))
}

#[tokio::test]
async fn the_sending_side_validates_what_its_mutators_made() {
    let refused = executor()
        .run(
            "tools/call",
            Phase::Request,
            Side::Sending,
            request("x"),
            None,
        )
        .await
        .unwrap_err();
    assert_eq!(refused.code.0, -32602);
    assert_eq!(refused.data.unwrap()["interceptor"], "untouched");
}

#[tokio::test]
async fn the_receiving_side_validates_before_its_mutators_run() {
    let executed = executor()
        .run(
            "tools/call",
            Phase::Request,
            Side::Receiving,
            request("x"),
            None,
        )
        .await
        .unwrap();
    assert!(executed.modified);
    assert_eq!(executed.payload["params"]["arguments"]["trail"], "x>tag");
}

#[tokio::test]
async fn an_event_nobody_hooks_passes_as_given() {
    let executed = executor()
        .run(
            "prompts/get",
            Phase::Request,
            Side::Sending,
            json!({"method": "prompts/get"}),
            None,
        )
        .await
        .unwrap();
    assert!(!executed.modified);
    assert_eq!(executed.payload, json!({"method": "prompts/get"}));
}

#[tokio::test]
async fn an_executor_runs_the_phase_it_is_asked_for_only() {
    let seen = Events::default();
    let executor = Executor::of(&server_with(
        vec![
            validator("requests", Record("requests", seen.clone())),
            mutator("audited", Append("audited")).mode(Mode::Audit),
        ],
        &Events::default(),
    ));
    let executed = executor
        .run(
            "tools/call",
            Phase::Response,
            Side::Receiving,
            json!({"content": []}),
            None,
        )
        .await
        .unwrap();
    assert!(!executed.modified);
    assert!(
        seen.take().is_empty(),
        "a request validator ran on a result"
    );
    let executed = executor
        .run(
            "tools/call",
            Phase::Request,
            Side::Sending,
            request("x"),
            None,
        )
        .await
        .unwrap();
    assert!(!executed.modified, "an audit mutator's rewrite was applied");
    assert_eq!(seen.take().len(), 1);
}
