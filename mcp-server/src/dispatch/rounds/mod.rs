//! Multi round-trip requests (2026-07-28): how a handler's questions to the
//! client become an `InputRequiredResult`, and how the client's retry
//! brings the answers back to the handler, which runs again from the start.
//!
//! One [`Exchange`] belongs to each modern `tools/call`, `prompts/get` and
//! `resources/read`. It holds the answers the retry carries (those sealed in
//! its `requestState` by earlier rounds, and the new `inputResponses`), and
//! records what the handler asks for that has no answer yet. When the
//! handler ends with questions open, the request is answered with them and a
//! freshly sealed `requestState` (see [`seal`]).

pub(crate) mod seal;

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_core::error::ErrorObject;
use mcp_core::json::{JsonObject, JsonValue};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use self::seal::{Refusal, StateBody};
use crate::context::exchange::{Bound, Exchange};
use crate::seam::store::UsedStateStore;
use crate::seam::strategy::KeyStrategy;
use crate::vocabulary::lock;

/// The methods that may answer `input_required`.
pub(crate) const INPUT_METHODS: [&str; 3] = ["tools/call", "prompts/get", "resources/read"];

/// What multi round-trip requests need from boot.
pub(crate) struct Rounds {
    pub(crate) keys: Arc<dyn KeyStrategy>,
    pub(crate) used: Arc<dyn UsedStateStore>,
    pub(crate) ttl: Duration,
}

/// The caller-facing parts of a request an exchange is bound to.
pub(crate) struct Binding<'a> {
    pub(crate) method: &'a str,
    /// The params member that names the target (`name`, `uri`).
    pub(crate) target_member: Option<&'static str>,
    pub(crate) principal: Option<&'a str>,
    pub(crate) params: Option<&'a RawValue>,
}

/// The exchange of a request: the answers its retry carries, once its
/// `requestState` verifies and is claimed. Refuses malformed
/// `inputResponses` and every state that is not this request's.
pub(crate) async fn begin(binding: &Binding<'_>, rounds: &Rounds) -> Result<Exchange, ErrorObject> {
    let mut exchange = Exchange::first();
    let Some(params) = binding.params else {
        return Ok(exchange);
    };
    // Most requests are first rounds: skip the parse when neither member
    // can be there.
    let text = params.get();
    if !retry_members(text.as_bytes()) {
        return Ok(exchange);
    }
    let mut object: JsonObject = serde_json::from_str(text)
        .map_err(|e| ErrorObject::invalid_params(format!("Invalid params: {e}")))?;
    let bound = bind(&object, binding.target_member);
    let responses = match object.remove("inputResponses") {
        None => JsonObject::new(),
        Some(JsonValue::Object(responses)) => {
            let mut checked = JsonObject::new();
            for (key, response) in responses {
                if !response.is_object() {
                    return Err(ErrorObject::invalid_params(format!(
                        "Invalid inputResponses: the response under \"{key}\" is not an object"
                    )));
                }
                checked.insert(key, response);
            }
            checked
        }
        Some(_) => {
            return Err(ErrorObject::invalid_params(
                "Invalid inputResponses: expected an object of responses by key",
            ));
        }
    };
    let state = match object.remove("requestState") {
        None => None,
        Some(JsonValue::String(state)) => Some(state),
        Some(_) => {
            return Err(ErrorObject::invalid_params(
                "Invalid requestState: expected the string the server sent",
            ));
        }
    };
    let Some(state) = state else {
        // No state: a first round, or a client answering what it
        // guessed; the handler uses only the keys it asks for.
        exchange.answers = responses;
        exchange.bound = Some(bound);
        return Ok(exchange);
    };
    let body = seal::open(&*rounds.keys, &state, SystemTime::now()).map_err(|r| r.error())?;
    check(&body, binding, &bound).map_err(|r| r.error())?;
    exchange.bound = Some(bound);
    let expires = SystemTime::UNIX_EPOCH + Duration::from_secs(body.expires);
    match rounds.used.claim(&body.id, expires).await {
        Ok(true) => {}
        Ok(false) => return Err(Refusal::Used.error()),
        Err(unavailable) => {
            return Err(ErrorObject::internal_error(format!(
                "Internal error: the request state cannot be checked now (the used-state store: {unavailable}); retry later"
            )));
        }
    }
    let mut answers = body.answers;
    // Only answers to what was asked count; other keys are ignored.
    for key in body.asked {
        if let Some(response) = responses.get(&key) {
            answers.insert(key, response.clone());
        }
    }
    exchange.answers = answers;
    exchange.carried = body.carried;
    Ok(exchange)
}

/// The `InputRequiredResult` a run ends with, if it asked for anything
/// without an answer or asked the client to come back.
pub(crate) fn outcome(
    exchange: &Exchange,
    binding: &Binding<'_>,
    rounds: &Rounds,
) -> Option<Box<RawValue>> {
    let round = std::mem::take(&mut *lock(&exchange.round));
    if round.asked.is_empty() && !round.later {
        return None;
    }
    // A first round's params are read only now that a state is sealed.
    let read;
    let bound = match &exchange.bound {
        Some(bound) => bound,
        None => {
            let params = binding
                .params
                .and_then(|params| serde_json::from_str::<JsonObject>(params.get()).ok())
                .unwrap_or_default();
            read = bind(&params, binding.target_member);
            &read
        }
    };
    let answers = exchange
        .answers
        .iter()
        .filter(|(key, _)| round.used.contains(key))
        .map(|(key, answer)| (key.clone(), answer.clone()))
        .collect();
    let body = StateBody {
        id: random_id(),
        method: binding.method.to_owned(),
        target: bound.target.clone(),
        digest: bound.digest.clone(),
        principal: binding.principal.map(str::to_owned),
        answers,
        asked: round.asked.iter().map(|(key, _)| key.clone()).collect(),
        carried: round.carry.or_else(|| exchange.carried.clone()),
        expires: seal::unix_seconds(SystemTime::now() + rounds.ttl),
    };
    let state = seal::seal(&*rounds.keys, &body);
    let mut result = serde_json::json!({
        "resultType": "input_required",
        "requestState": state,
    });
    if !round.asked.is_empty() {
        result["inputRequests"] = JsonValue::Object(round.asked.into_iter().collect());
    }
    serde_json::value::to_raw_value(&result).ok()
}

/// What a state binds of `params`: the target its member names, and the
/// digest of the rest.
fn bind(params: &JsonObject, target_member: Option<&str>) -> Bound {
    Bound {
        target: target_member
            .and_then(|m| params.get(m))
            .and_then(JsonValue::as_str)
            .unwrap_or_default()
            .to_owned(),
        digest: digest(params),
    }
}

/// Whether params may hold `inputResponses` or `requestState` (a member
/// name, or the same text inside a string: then the parse decides).
fn retry_members(params: &[u8]) -> bool {
    use std::sync::LazyLock;
    // Both names hold a capital (`R`, `S`); params without either, most of
    // them, are passed over in one vectorized scan.
    if memchr::memchr2(b'R', b'S', params).is_none() {
        return false;
    }
    static RESPONSES: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(b"\"inputResponses\""));
    static STATE: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(b"\"requestState\""));
    RESPONSES.find(params).is_some() || STATE.find(params).is_some()
}

/// Refuses a state issued for another request or caller.
fn check(body: &StateBody, binding: &Binding<'_>, bound: &Bound) -> Result<(), Refusal> {
    if body.method != binding.method || body.target != bound.target {
        return Err(Refusal::OtherRequest {
            issued_for: format!("{} `{}`", body.method, body.target),
        });
    }
    if body.digest != bound.digest {
        return Err(Refusal::OtherArguments);
    }
    if body.principal.as_deref() != binding.principal {
        return Err(Refusal::OtherPrincipal);
    }
    Ok(())
}

/// SHA-256 over the params, canonical (members sorted at every depth),
/// without `_meta` and the members of a retry: the same request whatever
/// round it is in.
fn digest(params: &JsonObject) -> String {
    let mut canonical = String::new();
    write_object(
        &mut canonical,
        params,
        &["_meta", "inputResponses", "requestState"],
    );
    URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes()))
}

/// Writes `value` as JSON with object members sorted by name.
fn write_canonical(out: &mut String, value: &JsonValue) {
    match value {
        JsonValue::Object(object) => write_object(out, object, &[]),
        JsonValue::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(out, item);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// Writes `object` without the members named in `skip`, sorted by name.
fn write_object(out: &mut String, object: &JsonObject, skip: &[&str]) {
    let mut members: Vec<(&String, &JsonValue)> = object
        .iter()
        .filter(|(key, _)| !skip.contains(&key.as_str()))
        .collect();
    members.sort_by(|a, b| a.0.cmp(b.0));
    out.push('{');
    for (i, (key, value)) in members.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&JsonValue::from(key.as_str()).to_string());
        out.push(':');
        write_canonical(out, value);
    }
    out.push('}');
}

/// 128 random bits, base64url.
fn random_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system provides randomness");
    URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_ignores_member_order_and_meta() {
        let a: JsonObject =
            serde_json::from_str(r#"{"name":"t","arguments":{"x":1,"y":[{"b":2,"a":1}]}}"#)
                .unwrap();
        let b: JsonObject = serde_json::from_str(
            r#"{"_meta":{"k":1},"arguments":{"y":[{"a":1,"b":2}],"x":1},"name":"t"}"#,
        )
        .unwrap();
        assert_eq!(digest(&a), digest(&b));
        let c: JsonObject =
            serde_json::from_str(r#"{"name":"t","arguments":{"x":2,"y":[{"b":2,"a":1}]}}"#)
                .unwrap();
        assert_ne!(digest(&a), digest(&c));
    }
}
