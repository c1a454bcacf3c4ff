//! Running one interceptor once: within its time limit, a panic caught as
//! a failure, the outcome recorded as a `tracing` event.

use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

use futures_util::FutureExt;
use mcp_server::core::json::JsonValue;
use mcp_server::core::result::ResultType;

use crate::declare::{Interceptor, Run};
use crate::invocation::Invocation;
use crate::outcome::{Mutation, Validation};
use crate::wire::{InterceptorType, InvokeResult, MutationResult, ValidationResult};

/// What one run gave.
pub(crate) enum Ran {
    /// A validator's verdict.
    Validated(Validation),
    /// A mutator's answer.
    Mutated(Mutation),
    /// It failed or panicked, for this reason.
    Failed(String),
    /// It ran out of this much time.
    TimedOut(Duration),
}

impl Ran {
    fn outcome(&self) -> &'static str {
        match self {
            Ran::Validated(v) if v.is_valid() => "valid",
            Ran::Validated(_) => "invalid",
            Ran::Mutated(m) if m.is_modified() => "modified",
            Ran::Mutated(_) => "unmodified",
            Ran::Failed(_) => "failed",
            Ran::TimedOut(_) => "timeout",
        }
    }
}

/// Runs `interceptor` on `invocation` within `limit`.
pub(crate) async fn run(
    interceptor: &Interceptor,
    invocation: &Invocation,
    limit: Duration,
) -> (Ran, Duration) {
    let started = Instant::now();
    let running = async {
        match &interceptor.run {
            Run::Validate(v) => v.validate(invocation).await.map(Ran::Validated),
            Run::Mutate(m) => m.mutate(invocation).await.map(Ran::Mutated),
        }
    };
    let ran = match tokio::time::timeout(limit, AssertUnwindSafe(running).catch_unwind()).await {
        Ok(Ok(Ok(ran))) => ran,
        Ok(Ok(Err(failure))) => Ran::Failed(failure.0),
        Ok(Err(_)) => Ran::Failed("the interceptor panicked".to_owned()),
        Err(_) => Ran::TimedOut(limit),
    };
    let took = started.elapsed();
    tracing::info!(
        target: "mcp_interceptors",
        interceptor = interceptor.name(),
        event = invocation.event(),
        phase = invocation.phase().as_str(),
        mode = if interceptor.is_audit() { "audit" } else { "active" },
        outcome = ran.outcome(),
        duration_ms = millis(took),
        "interceptor ran"
    );
    (ran, took)
}

/// Whole milliseconds, saturating.
pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// The wire result of a run that gave a verdict or a rewrite; `given` is
/// the payload the interceptor was handed, sent back when it changed nothing.
pub(crate) fn wire_result(
    interceptor: &Interceptor,
    invocation: Invocation,
    ran: Ran,
    took: Duration,
    result_type: Option<ResultType>,
) -> Option<InvokeResult> {
    let name = interceptor.name().to_owned();
    let phase = invocation.phase;
    let duration_ms = Some(millis(took));
    match ran {
        Ran::Validated(v) => Some(InvokeResult::Validation(ValidationResult {
            result_type,
            interceptor: name,
            kind: InterceptorType::Validation,
            phase,
            duration_ms,
            severity: v.severity(),
            info: v.info,
            valid: v.valid,
            messages: (!v.messages.is_empty()).then_some(v.messages),
            suggestions: (!v.suggestions.is_empty()).then_some(v.suggestions),
        })),
        Ran::Mutated(m) => {
            let modified = m.payload.is_some();
            let payload: JsonValue = m.payload.unwrap_or(invocation.payload);
            Some(InvokeResult::Mutation(MutationResult {
                result_type,
                interceptor: name,
                kind: InterceptorType::Mutation,
                phase,
                duration_ms,
                info: m.info,
                modified,
                payload,
            }))
        }
        Ran::Failed(_) | Ran::TimedOut(_) => None,
    }
}
