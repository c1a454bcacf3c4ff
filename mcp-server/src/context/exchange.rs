//! What one run of a handler knows of its multi round-trip exchange
//! (2026-07-28): the answers the client's retry carries, the handler's
//! state from the last round, and what the handler asks that has no
//! answer yet. The dispatcher opens the exchange from the retry's
//! `requestState` and seals what is left open (`dispatch::rounds`).

use std::sync::Mutex;

use mcp_core::json::{JsonObject, JsonValue};

use crate::vocabulary::lock;

/// What one run of a handler knows of its multi round-trip exchange.
pub(crate) struct Exchange {
    /// The answers this run may use, by key.
    pub(crate) answers: JsonObject,
    /// The handler's state from the last round.
    pub(crate) carried: Option<JsonValue>,
    /// The target and params digest, when the retry's params were read.
    pub(crate) bound: Option<Bound>,
    pub(crate) round: Mutex<Round>,
}

/// What a state binds of the request's params.
pub(crate) struct Bound {
    /// The tool or prompt name, or the resource URI.
    pub(crate) target: String,
    /// The digest of the params (`dispatch::rounds`).
    pub(crate) digest: String,
}

/// What one run asked and used. Most runs ask nothing: vectors, which cost
/// nothing until something is pushed.
#[derive(Default)]
pub(crate) struct Round {
    /// Questions without an answer yet, in the order asked: key and
    /// `{method, params}` (a key asked again replaces its question).
    pub(crate) asked: Vec<(String, JsonValue)>,
    /// The keys whose answers the handler used.
    pub(crate) used: Vec<String>,
    /// Keys handed out so far, per kind of input.
    counters: Vec<(&'static str, u32)>,
    /// The handler's state for the next round, when it set one.
    pub(crate) carry: Option<JsonValue>,
    /// The handler asked the client to come back later.
    pub(crate) later: bool,
}

impl Exchange {
    /// An exchange with nothing carried yet: a first round.
    pub(crate) fn first() -> Self {
        Self {
            answers: JsonObject::new(),
            carried: None,
            bound: None,
            round: Mutex::new(Round::default()),
        }
    }

    /// The next key for an input of `kind` (`elicitation-1`, `sampling-2`…).
    pub(crate) fn next_key(&self, kind: &'static str) -> String {
        let mut round = lock(&self.round);
        let n = match round.counters.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                round.counters.push((kind, 1));
                1
            }
        };
        format!("{kind}-{n}")
    }

    /// The answer under `key`, if the client gave one.
    pub(crate) fn answer(&self, key: &str) -> Option<JsonValue> {
        let answer = self.answers.get(key)?.clone();
        let mut round = lock(&self.round);
        if !round.used.iter().any(|k| k == key) {
            round.used.push(key.to_owned());
        }
        Some(answer)
    }

    /// Records a question without an answer.
    pub(crate) fn ask(&self, key: String, method: &'static str, params: JsonValue) {
        let request = serde_json::json!({ "method": method, "params": params });
        let mut round = lock(&self.round);
        match round.asked.iter_mut().find(|(k, _)| *k == key) {
            Some((_, asked)) => *asked = request,
            None => round.asked.push((key, request)),
        }
    }

    /// The handler's state from the last round.
    pub(crate) fn carried(&self) -> Option<&JsonValue> {
        self.carried.as_ref()
    }

    /// Sets the handler's state for the next round.
    pub(crate) fn carry(&self, value: JsonValue) {
        lock(&self.round).carry = Some(value);
    }

    /// Ends the request with a state-only result: the client retries later.
    pub(crate) fn retry_later(&self) {
        lock(&self.round).later = true;
    }
}
