//! The protocol conformance fixtures of the interceptors extension
//! (`modelcontextprotocol/experimental-ext-interceptors`, `conformance/`),
//! replayed against this crate as the suite's adapter contract says
//! (`conformance/ADAPTER.md`): each fixture's interceptors are declared on a
//! fresh server, its steps run in order, and every step's actual is scrubbed
//! of the fixture's volatile keys, put in RFC 8785 (JCS) canonical form and
//! compared, as one string, with the fixture's precomputed expectation.
//!
//! The fixtures are test data, copied unchanged under
//! `tests/fixtures/ext-interceptors/` (see `SOURCE.md` there).
//!
//! How the adapter maps the contract onto this crate:
//!
//! - `list` and `invoke` are `interceptors/list` and `interceptor/invoke`,
//!   sent by a [`MemoryClient`] of a 2025-11-25 session (see [`Era`]);
//! - `apply` (the contract's `chain`) is an [`Executor`] on the invoker's
//!   side, which is the client's: a request is `Sending` (mutate, then
//!   validate), a response is `Receiving` (validate, then mutate); `allow`
//!   iff it answers `Ok`, and the final payload is what it gives back;
//! - a fixture interceptor is a runtime [`Interceptor`]: `phases: "both"`
//!   hooks its events in both phases, `mode: "audit"` is [`Mode::Audit`]
//!   (`active`, and the legacy `enforce`, are the default and are left
//!   unset, so they stay off the wire as the fixtures' "defaults omitted"
//!   asks), `failOpen: true` is `.fail_open(true)`;
//! - the fixtures' payloads are `tools/call` params themselves
//!   (`{"name", "arguments"}`), so the behaviors read `arguments.note` from
//!   the payload's root.

mod support;

use std::path::{Path, PathBuf};

use mcp_interceptors::wire::{Mode, Phase};
use mcp_interceptors::{
    Executor, Failure, Interceptor, Invocation, Mutate, Mutation, Side, Validate, Validation,
};
use mcp_server::testing::MemoryClient;
use mcp_server::{BoxFuture, Server};
use serde_json::{Map, Value, json};

// ── the fixtures ─────────────────────────────────────────────────────────────

/// Where the protocol fixtures are.
fn protocol_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ext-interceptors/protocol")
}

/// Every protocol fixture this file replays, by file stem.
const REPLAYED: &[&str] = &[
    "list-all",
    "list-filtered-by-event",
    "invoke-validation-pass",
    "invoke-validation-deny",
    "invoke-mutation-modified",
    "invoke-mutation-unmodified",
    "invoke-unknown-name",
    "chain-request-order-mutate-then-validate",
    "chain-response-order-validate-then-mutate",
    "chain-validation-blocks",
    "chain-audit-never-blocks",
    "chain-audit-mutation-shadowed",
    "chain-fail-closed",
    "chain-fail-open",
];

fn load(stem: &str) -> Value {
    let path = protocol_fixtures().join(format!("{stem}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("fixture {} is not JSON: {e}", path.display()))
}

fn str_of<'a>(value: &'a Value, key: &str, what: &str) -> Result<&'a str, String> {
    value
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{what} has no string `{key}`"))
}

// ── RFC 8785 (JCS) canonical form, and scrubbing ─────────────────────────────

/// The JCS canonical form of `value`: object members sorted by the UTF-16
/// code units of their names, at every depth, no whitespace, strings with
/// ECMAScript `JSON.stringify`'s minimal escapes, numbers as ECMAScript
/// prints them. It does not depend on the order `serde_json` keeps.
fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&canonical_number(n)),
        Value::String(s) => write_canonical_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut names: Vec<&String> = members.keys().collect();
            names.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (i, name) in names.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical_string(name, out);
                out.push(':');
                write_canonical(&members[name], out);
            }
            out.push('}');
        }
    }
}

fn write_canonical_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A number as ECMAScript's `Number.prototype.toString` prints it (the
/// shortest round-trip digits; exponent form below 1e-6 and from 1e21).
fn canonical_number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    if f == 0.0 {
        return "0".to_owned();
    }
    let magnitude = f.abs();
    if (1e-6..1e21).contains(&magnitude) {
        return format!("{f}");
    }
    let exponential = format!("{f:e}");
    match exponential.split_once('e') {
        Some((digits, exponent)) if !exponent.starts_with('-') => format!("{digits}e+{exponent}"),
        _ => exponential,
    }
}

/// `value` without the members named in `volatile`, at every depth.
fn scrub(value: &Value, volatile: &[String]) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(|v| scrub(v, volatile)).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .filter(|(k, _)| !volatile.iter().any(|v| v == *k))
                .map(|(k, v)| (k.clone(), scrub(v, volatile)))
                .collect::<Map<_, _>>(),
        ),
        other => other.clone(),
    }
}

#[test]
fn the_canonical_form_is_rfc_8785s() {
    let value = json!({"b": [1, -2, 0.5, 1e21, 1e-7, "é\n\"\\\u{1}"], "a": {"z": null, "é": true, "A": false}});
    assert_eq!(
        canonical(&value),
        r#"{"a":{"A":false,"z":null,"é":true},"b":[1,-2,0.5,1e+21,1e-7,"é\n\"\\\u0001"]}"#
    );
}

// ── the behavior vocabulary ──────────────────────────────────────────────────

/// The named behaviors of `ADAPTER.md` this crate can bind; the security
/// behaviors (`cross-boundary-guard`, `secretless-redactor`) are not shipped.
#[derive(Clone, Copy, Debug)]
enum Behavior {
    AllowAll,
    DenyAll,
    RequireNote,
    RequireUppercaseNote,
    UppercaseNote,
    Crash,
}

impl Behavior {
    fn named(name: &str) -> Result<Self, String> {
        Ok(match name {
            "allow-all" => Behavior::AllowAll,
            "deny-all" => Behavior::DenyAll,
            "require-note" => Behavior::RequireNote,
            "require-uppercase-note" => Behavior::RequireUppercaseNote,
            "uppercase-note" => Behavior::UppercaseNote,
            "crash" => Behavior::Crash,
            other => return Err(format!("behavior `{other}` is not bound by this adapter")),
        })
    }
}

/// `arguments.note` of a payload that is a `tools/call`'s params.
fn note(invocation: &Invocation) -> Option<&str> {
    invocation
        .payload()
        .pointer("/arguments/note")
        .and_then(Value::as_str)
}

impl Validate for Behavior {
    fn validate<'a>(&'a self, i: &'a Invocation) -> BoxFuture<'a, Result<Validation, Failure>> {
        Box::pin(async move {
            match self {
                Behavior::AllowAll => Ok(Validation::valid()),
                Behavior::DenyAll => Ok(Validation::invalid("denied by policy")),
                Behavior::RequireNote => Ok(match note(i) {
                    Some(n) if !n.is_empty() => Validation::valid(),
                    _ => Validation::invalid("note is required"),
                }),
                Behavior::RequireUppercaseNote => Ok(match note(i) {
                    Some(n) if n == n.to_uppercase() => Validation::valid(),
                    _ => Validation::invalid("note must be uppercase"),
                }),
                Behavior::Crash => Err(Failure::new("interceptor crashed")),
                Behavior::UppercaseNote => Err(Failure::new("uppercase-note is a mutator")),
            }
        })
    }
}

impl Mutate for Behavior {
    fn mutate<'a>(&'a self, i: &'a Invocation) -> BoxFuture<'a, Result<Mutation, Failure>> {
        Box::pin(async move {
            match self {
                Behavior::UppercaseNote => {
                    let Some(upper) = note(i).map(str::to_uppercase) else {
                        return Ok(Mutation::unchanged());
                    };
                    let mut payload = i.payload_owned();
                    if let Some(slot) = payload.pointer_mut("/arguments/note") {
                        *slot = Value::String(upper);
                    }
                    Ok(Mutation::modified(payload))
                }
                Behavior::Crash => Err(Failure::new("interceptor crashed")),
                other => Err(Failure::new(format!("{other:?} is a validator"))),
            }
        })
    }
}

/// The runtime declaration of one fixture interceptor.
fn declare(fixture: &Value) -> Result<Interceptor, String> {
    let name = str_of(fixture, "name", "an interceptor")?;
    let behavior = Behavior::named(str_of(fixture, "behavior", name)?)?;
    let origin = support::origin(line!());
    let mut interceptor = match (str_of(fixture, "type", name)?, behavior) {
        ("validation", Behavior::UppercaseNote)
        | ("mutation", Behavior::AllowAll)
        | ("mutation", Behavior::DenyAll)
        | ("mutation", Behavior::RequireNote)
        | ("mutation", Behavior::RequireUppercaseNote) => {
            return Err(format!(
                "`{name}`: behavior {behavior:?} does not fit its type"
            ));
        }
        ("validation", behavior) => Interceptor::validator(origin, name, behavior),
        ("mutation", behavior) => Interceptor::mutator(origin, name, behavior),
        (other, _) => return Err(format!("`{name}`: unknown type `{other}`")),
    };
    let events: Vec<String> = fixture
        .get("events")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("`{name}` has no events"))?
        .iter()
        .map(|e| {
            e.as_str()
                .map(str::to_owned)
                .ok_or("an event is not a string")
        })
        .collect::<Result<_, _>>()?;
    let phases: &[Phase] = match str_of(fixture, "phases", name)? {
        "request" => &[Phase::Request],
        "response" => &[Phase::Response],
        "both" => &[Phase::Request, Phase::Response],
        other => return Err(format!("`{name}`: unknown phases `{other}`")),
    };
    for phase in phases {
        interceptor = interceptor.hook(*phase, events.iter().cloned());
    }
    match fixture.get("mode").and_then(Value::as_str) {
        None | Some("active" | "enforce") => {}
        Some("audit") => interceptor = interceptor.mode(Mode::Audit),
        Some(other) => return Err(format!("`{name}`: unknown mode `{other}`")),
    }
    match fixture.get("failOpen") {
        None | Some(Value::Bool(false)) => {}
        Some(Value::Bool(true)) => interceptor = interceptor.fail_open(true),
        Some(other) => return Err(format!("`{name}`: failOpen is {other}")),
    }
    Ok(interceptor)
}

// ── the adapter session ──────────────────────────────────────────────────────

/// The protocol era the session speaks.
///
/// The fixtures draw results in SEP-2624's shape alone. A 2026-07-28 result
/// also carries the base protocol's `resultType` and `_meta` members, which
/// the fixtures do not know; 2025-11-25 has neither, so the conformance
/// tests speak 2025-11-25 (as the suite's reference SDKs do).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Era {
    Legacy,
    Modern,
}

struct Session {
    client: MemoryClient,
    executor: Executor,
}

impl Session {
    async fn create(interceptors: &[Value], era: Era) -> Result<Self, String> {
        let mut builder = Server::builder().named("conformance", "0.1.0");
        for fixture in interceptors {
            let interceptor = declare(fixture)?;
            let name = interceptor.name().to_owned();
            builder = builder.register(
                interceptor.origin(),
                name,
                0,
                mcp_interceptors::declared(interceptor),
            );
        }
        let server = builder.build();
        let client = match era {
            Era::Modern => MemoryClient::new(&server),
            Era::Legacy => {
                let client = MemoryClient::new(&server).connected();
                client
                    .initialize("2025-11-25")
                    .await
                    .map_err(|e| format!("initialize failed: {} {}", e.code.0, e.message))?;
                client
            }
        };
        Ok(Self {
            client,
            executor: Executor::of(&server),
        })
    }

    async fn list(&self, event: Option<&str>) -> Result<Value, String> {
        let params = match event {
            Some(event) => json!({"event": event}),
            None => json!({}),
        };
        self.client
            .request_raw("interceptors/list", params)
            .await
            .map_err(|e| format!("interceptors/list failed: {} {}", e.code.0, e.message))
    }

    async fn invoke(&self, params: &Value) -> Result<Value, i64> {
        self.client
            .request_raw("interceptor/invoke", params.clone())
            .await
            .map_err(|e| e.code.0)
    }

    /// `(allowed, final payload)`; the payload is `null` when denied.
    async fn chain(&self, event: &str, phase: Phase, payload: Value) -> (bool, Value) {
        let side = match phase {
            Phase::Request => Side::Sending,
            Phase::Response => Side::Receiving,
        };
        match self.executor.run(event, phase, side, payload, None).await {
            Ok(executed) => (true, executed.payload),
            Err(_) => (false, Value::Null),
        }
    }
}

// ── the replay ───────────────────────────────────────────────────────────────

/// Replays one fixture in `era`, scrubbing `also_scrub` besides the
/// fixture's volatile keys; the failures, one per failing step.
async fn replay(fixture: &Value, era: Era, also_scrub: &[&str]) -> Vec<String> {
    let mut volatile: Vec<String> = fixture["volatile"]
        .as_array()
        .map(|v| {
            v.iter()
                .filter_map(|k| k.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    volatile.extend(also_scrub.iter().map(|k| (*k).to_owned()));
    let interceptors = fixture["interceptors"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let session = match Session::create(&interceptors, era).await {
        Ok(session) => session,
        Err(e) => return vec![format!("session: {e}")],
    };
    let mut failures = Vec::new();
    for (index, step) in fixture["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let op = step["op"].as_str().unwrap_or("?");
        if let Err(detail) = run_step(&session, step, &volatile).await {
            failures.push(format!("step {index} ({op}): {detail}"));
        }
    }
    failures
}

async fn run_step(session: &Session, step: &Value, volatile: &[String]) -> Result<(), String> {
    let expect = &step["expect"];
    match step["op"].as_str() {
        Some("list") => {
            let actual = session.list(step["event"].as_str()).await?;
            compare(
                &actual,
                expected_canonical(expect, "canonical", "result")?,
                volatile,
            )
        }
        Some("invoke") => {
            let outcome = session.invoke(&step["params"]).await;
            if let Some(code) = expect.get("errorCode").and_then(Value::as_i64) {
                return match outcome {
                    Err(got) if got == code => Ok(()),
                    Err(got) => Err(format!("expected error {code}, got error {got}")),
                    Ok(result) => Err(format!(
                        "expected error {code}, got a result {}",
                        canonical(&scrub(&result, volatile))
                    )),
                };
            }
            match outcome {
                Err(code) => Err(format!("expected a result, got error {code}")),
                Ok(actual) => compare(
                    &actual,
                    expected_canonical(expect, "canonical", "result")?,
                    volatile,
                ),
            }
        }
        // `apply` in the fixtures; `chain` in one version of the suite's types.
        Some("apply" | "chain") => {
            if !step["context"].is_null() {
                return Err("a sessionId context cannot be passed to `Executor::run`".into());
            }
            let event = str_of(step, "event", "the step")?;
            let phase = match str_of(step, "phase", "the step")? {
                "request" => Phase::Request,
                "response" => Phase::Response,
                other => return Err(format!("unknown phase `{other}`")),
            };
            let (allowed, payload) = session.chain(event, phase, step["payload"].clone()).await;
            let decision = if allowed { "allow" } else { "deny" };
            let wanted = str_of(expect, "decision", "the expectation")?;
            if decision != wanted {
                return Err(format!("expected decision '{wanted}', got '{decision}'"));
            }
            let actual = canonical(&scrub(&payload, volatile));
            if expect.get("finalPayload").is_some() {
                let expected = expected_canonical(expect, "finalPayloadCanonical", "finalPayload")?;
                if actual != expected {
                    return Err(format!(
                        "final payload mismatch:\n      expected {expected}\n      actual   {actual}"
                    ));
                }
            }
            for forbidden in expect["forbids"].as_array().into_iter().flatten() {
                let forbidden = forbidden.as_str().unwrap_or_default();
                if actual.contains(forbidden) {
                    return Err(format!("forbidden content present: {forbidden}"));
                }
            }
            for required in expect["requires"].as_array().into_iter().flatten() {
                let required = required.as_str().unwrap_or_default();
                if !actual.contains(required) {
                    return Err(format!("required content absent: {required}"));
                }
            }
            Ok(())
        }
        other => Err(format!("unknown op {other:?}")),
    }
}

/// The fixture's precomputed canonical string, after checking that this
/// file's canonical form of the expectation agrees with it.
fn expected_canonical(
    expect: &Value,
    canonical_key: &str,
    value_key: &str,
) -> Result<String, String> {
    let ours = expect.get(value_key).map(canonical);
    match (expect.get(canonical_key).and_then(Value::as_str), ours) {
        (Some(theirs), Some(ours)) if theirs != ours => Err(format!(
            "this file's canonical form disagrees with the fixture's:\n      fixture {theirs}\n      ours    {ours}"
        )),
        (Some(theirs), _) => Ok(theirs.to_owned()),
        (None, Some(ours)) => Ok(ours),
        (None, None) => Err(format!(
            "the expectation has neither `{canonical_key}` nor `{value_key}`"
        )),
    }
}

fn compare(actual: &Value, expected: String, volatile: &[String]) -> Result<(), String> {
    let actual = canonical(&scrub(actual, volatile));
    if actual == expected {
        Ok(())
    } else {
        Err(format!(
            "\n      expected {expected}\n      actual   {actual}"
        ))
    }
}

/// Replays the fixture `stem` and fails with every failing step.
async fn passes(stem: &str) {
    let fixture = load(stem);
    let id = fixture["id"].as_str().unwrap_or(stem).to_owned();
    let requirement = fixture["requirement"].as_str().unwrap_or("?").to_owned();
    let failures = replay(&fixture, Era::Legacy, &[]).await;
    assert!(
        failures.is_empty(),
        "FAIL {id} [{requirement}]\n  {}",
        failures.join("\n  ")
    );
}

// ── one test per fixture ─────────────────────────────────────────────────────

#[tokio::test]
async fn list_all_passes() {
    passes("list-all").await;
}

#[tokio::test]
async fn list_filtered_by_event_passes() {
    passes("list-filtered-by-event").await;
}

#[tokio::test]
async fn invoke_validation_pass_passes() {
    passes("invoke-validation-pass").await;
}

#[tokio::test]
async fn invoke_validation_deny_passes() {
    passes("invoke-validation-deny").await;
}

#[tokio::test]
async fn invoke_mutation_modified_passes() {
    passes("invoke-mutation-modified").await;
}

#[tokio::test]
async fn invoke_mutation_unmodified_passes() {
    passes("invoke-mutation-unmodified").await;
}

#[tokio::test]
async fn invoke_unknown_name_passes() {
    passes("invoke-unknown-name").await;
}

#[tokio::test]
async fn chain_request_order_mutate_then_validate_passes() {
    passes("chain-request-order-mutate-then-validate").await;
}

#[tokio::test]
async fn chain_response_order_validate_then_mutate_passes() {
    passes("chain-response-order-validate-then-mutate").await;
}

#[tokio::test]
async fn chain_validation_blocks_passes() {
    passes("chain-validation-blocks").await;
}

#[tokio::test]
async fn chain_audit_never_blocks_passes() {
    passes("chain-audit-never-blocks").await;
}

#[tokio::test]
async fn chain_audit_mutation_shadowed_passes() {
    passes("chain-audit-mutation-shadowed").await;
}

#[tokio::test]
async fn chain_fail_closed_passes() {
    passes("chain-fail-closed").await;
}

#[tokio::test]
async fn chain_fail_open_passes() {
    passes("chain-fail-open").await;
}

/// A fixture added to the directory without a test here fails this one.
#[test]
fn every_protocol_fixture_on_disk_has_a_test() {
    let mut on_disk: Vec<String> = std::fs::read_dir(protocol_fixtures())
        .expect("the protocol fixtures directory")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            (path.extension()? == "json").then(|| path.file_stem()?.to_str().map(str::to_owned))?
        })
        .collect();
    on_disk.sort();
    let mut replayed: Vec<String> = REPLAYED.iter().map(|s| (*s).to_owned()).collect();
    replayed.sort();
    assert_eq!(on_disk, replayed);
}

/// Not a conformance claim: in a 2026-07-28 session every result also
/// carries the base protocol's `resultType` and `_meta` (the server's
/// info), which the fixtures do not draw; without those two members the
/// results agree with every fixture.
#[tokio::test]
async fn a_modern_session_differs_only_by_the_base_protocols_result_members() {
    let mut failures = Vec::new();
    for stem in REPLAYED {
        for failure in replay(&load(stem), Era::Modern, &["resultType", "_meta"]).await {
            failures.push(format!("{stem}: {failure}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
