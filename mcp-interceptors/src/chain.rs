//! The interceptors of each event, sorted once at boot, and the passes
//! that run them on the server's own requests and results.
//!
//! What a side receives is validated (every validator at once) and then
//! mutated (one mutator after another, by priority, ties by name); what it
//! sends is mutated and then validated. The mutation
//! pass is atomic: a mutator that blocks discards every rewrite before it.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::join_all;
use mcp_server::auth::Principal;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonValue;
use serde_json::json;

use crate::declare::Interceptor;
use crate::executor::Side;
use crate::invocation::Invocation;
use crate::outcome::Validation;
use crate::run::{Ran, millis, run};
use crate::wire::{EVERY_EVENT, FailureData, InterceptorType, Phase};

/// The interceptors of one phase of one event.
#[derive(Default)]
pub(crate) struct PhaseChain {
    validators: Vec<Interceptor>,
    /// Sorted by priority in the phase, then name.
    mutators: Vec<Interceptor>,
}

impl PhaseChain {
    /// The interceptors of `event` in `phase`; of the `*` hooks alone for `None`.
    fn of(members: &[Interceptor], event: Option<&str>, phase: Phase) -> Self {
        let mut chain = PhaseChain::default();
        let hooked = |m: &&Interceptor| match event {
            Some(event) => m.hooks(event, phase),
            None => m.hooks_every_event(phase),
        };
        for member in members.iter().filter(hooked) {
            match member.descriptor.kind {
                InterceptorType::Validation => chain.validators.push(member.clone()),
                InterceptorType::Mutation => chain.mutators.push(member.clone()),
            }
        }
        chain.validators.sort_by(|a, b| a.name().cmp(b.name()));
        chain.mutators.sort_by(|a, b| {
            (a.priority_in(phase), a.name()).cmp(&(b.priority_in(phase), b.name()))
        });
        chain
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.validators.is_empty() && self.mutators.is_empty()
    }
}

/// Both phases of one event.
#[derive(Default)]
pub(crate) struct EventChain {
    pub(crate) request: PhaseChain,
    pub(crate) response: PhaseChain,
}

impl EventChain {
    fn of(members: &[Interceptor], event: Option<&str>) -> Self {
        Self {
            request: PhaseChain::of(members, event, Phase::Request),
            response: PhaseChain::of(members, event, Phase::Response),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.request.is_empty() && self.response.is_empty()
    }
}

/// Every event's chain, made once.
#[derive(Default)]
pub(crate) struct Chains {
    named: HashMap<String, EventChain>,
    /// The chain of an event no interceptor names: the `*` hooks only.
    every: EventChain,
}

impl Chains {
    pub(crate) fn of(members: &[Interceptor]) -> Self {
        let named: BTreeSet<&str> = members
            .iter()
            .flat_map(|m| &m.descriptor.hooks)
            .flat_map(|h| &h.events)
            .map(String::as_str)
            .filter(|e| *e != EVERY_EVENT && crate::events::is_interceptable(e))
            .collect();
        Self {
            named: named
                .into_iter()
                .map(|event| (event.to_owned(), EventChain::of(members, Some(event))))
                .collect(),
            every: EventChain::of(members, None),
        }
    }

    /// The chain of requests of method `event`: a named event's own, else
    /// the `*` hooks' when the method may be intercepted at all.
    pub(crate) fn of_event(&self, event: &str) -> &EventChain {
        static NONE: std::sync::LazyLock<EventChain> =
            std::sync::LazyLock::new(EventChain::default);
        match self.named.get(event) {
            Some(chain) => chain,
            None if self.every.is_empty() || !crate::events::is_interceptable(event) => &NONE,
            None => &self.every,
        }
    }
}

/// What a pass gives: the payload, and whether it differs from the one given.
pub(crate) struct Passed {
    pub(crate) payload: JsonValue,
    pub(crate) modified: bool,
}

/// Who the pass runs for.
pub(crate) struct For<'a> {
    pub(crate) event: &'a str,
    pub(crate) principal: &'a Principal,
    /// The governed request, for the response phase.
    pub(crate) request: Option<Arc<JsonValue>>,
}

impl For<'_> {
    fn invocation(&self, phase: Phase, payload: JsonValue) -> Invocation {
        let mut invocation = Invocation::new(self.event, phase, payload);
        invocation.principal = self.principal.clone();
        if phase == Phase::Response {
            invocation.request = self.request.clone();
        }
        invocation
    }
}

/// One phase's pass over `payload`: validated and then mutated on the side
/// that receives it, mutated and then validated on the side that sends it.
pub(crate) async fn pass(
    chain: &PhaseChain,
    who: &For<'_>,
    phase: Phase,
    side: Side,
    payload: JsonValue,
) -> Result<Passed, ErrorObject> {
    match side {
        Side::Receiving => {
            let invocation = who.invocation(phase, payload);
            validate(chain, &invocation).await?;
            mutate(chain, who, phase, invocation.payload).await
        }
        Side::Sending => {
            let passed = mutate(chain, who, phase, payload).await?;
            let invocation = who.invocation(phase, passed.payload);
            validate(chain, &invocation).await?;
            Ok(Passed {
                payload: invocation.payload,
                modified: passed.modified,
            })
        }
    }
}

/// Runs every validator at once; the first blocking one, by name, answers.
async fn validate(chain: &PhaseChain, invocation: &Invocation) -> Result<(), ErrorObject> {
    if chain.validators.is_empty() {
        return Ok(());
    }
    let runs = join_all(
        chain
            .validators
            .iter()
            .map(|v| run(v, invocation, v.timeout)),
    )
    .await;
    for (validator, (ran, _)) in chain.validators.iter().zip(runs) {
        if validator.is_audit() {
            continue;
        }
        match ran {
            Ran::Validated(verdict) if verdict.blocks() => {
                return Err(blocked(validator, invocation, &verdict));
            }
            Ran::Failed(_) | Ran::TimedOut(_) if validator.fails_open() => {}
            Ran::Failed(reason) => return Err(failed(validator, reason)),
            Ran::TimedOut(limit) => return Err(timed_out(validator, limit, invocation.phase)),
            _ => {}
        }
    }
    Ok(())
}

/// Runs the mutators one after another on a tentative payload; the payload
/// given is returned untouched unless every blocking mutator succeeded.
async fn mutate(
    chain: &PhaseChain,
    who: &For<'_>,
    phase: Phase,
    payload: JsonValue,
) -> Result<Passed, ErrorObject> {
    let mut tentative = payload;
    let mut modified = false;
    for mutator in &chain.mutators {
        let invocation = who.invocation(phase, tentative);
        let (ran, _) = run(mutator, &invocation, mutator.timeout).await;
        tentative = invocation.payload;
        match ran {
            Ran::Mutated(_) if mutator.is_audit() => {}
            Ran::Mutated(mutation) => {
                if let Some(rewritten) = mutation.payload {
                    if phase == Phase::Request && rewritten.get("method") != tentative.get("method")
                    {
                        let reason = "a request's mutation may not change its method";
                        if mutator.fails_open() {
                            continue;
                        }
                        return Err(failed(mutator, reason.to_owned()));
                    }
                    modified |= rewritten != tentative;
                    tentative = rewritten;
                }
            }
            Ran::Validated(_) => {}
            Ran::Failed(_) | Ran::TimedOut(_) if mutator.fails_open() || mutator.is_audit() => {}
            Ran::Failed(reason) => return Err(failed(mutator, reason)),
            Ran::TimedOut(limit) => return Err(timed_out(mutator, limit, phase)),
        }
    }
    Ok(Passed {
        payload: tentative,
        modified,
    })
}

/// The error for an operation an active validator refused: `-32602` for a
/// request, `-32603` for a result.
fn blocked(validator: &Interceptor, invocation: &Invocation, verdict: &Validation) -> ErrorObject {
    let messages: Vec<&str> = verdict
        .messages
        .iter()
        .map(|m| m.message.as_str())
        .collect();
    let said = if messages.is_empty() {
        "the payload is not valid".to_owned()
    } else {
        messages.join("; ")
    };
    let message = format!("Blocked by interceptor `{}`: {said}", validator.name());
    let error = match invocation.phase {
        Phase::Request => ErrorObject::invalid_params(message),
        Phase::Response => ErrorObject::internal_error(message),
    };
    error.with_data(json!({
        "interceptor": validator.name(),
        "event": invocation.event,
        "phase": invocation.phase,
        "messages": verdict.messages,
    }))
}

/// `-32603` for an interceptor that failed and does not fail open.
pub(crate) fn failed(interceptor: &Interceptor, reason: String) -> ErrorObject {
    ErrorObject::internal_error(format!(
        "Interceptor `{}` failed: {reason}",
        interceptor.name()
    ))
    .with_data(json!(FailureData {
        interceptor: interceptor.name().to_owned(),
        reason,
        timeout_ms: None,
        phase: None,
    }))
}

/// `-32603` for an interceptor that ran out of time.
pub(crate) fn timed_out(interceptor: &Interceptor, limit: Duration, phase: Phase) -> ErrorObject {
    ErrorObject::internal_error(format!(
        "Interceptor `{}` timed out after {} ms",
        interceptor.name(),
        millis(limit)
    ))
    .with_data(json!(FailureData {
        interceptor: interceptor.name().to_owned(),
        reason: "timeout".to_owned(),
        timeout_ms: Some(millis(limit)),
        phase: Some(phase),
    }))
}
