//! The demo's interceptors (the experimental `mcp-interceptors` extension):
//! a PII redactor and an injection guard, kept to the tools of
//! [`crate::tools::guarded`]. The server runs them on its own requests,
//! lists them with `interceptors/list`, and lets a host run either on any
//! payload with `interceptor/invoke`.

use std::sync::LazyLock;

use mcp_interceptors::schemars::{self, JsonSchema};
use mcp_interceptors::wire::Phase;
use mcp_interceptors::{Invocation, Message, Mutation, Validation, mutator, validator};
use regex::Regex;
use serde::Deserialize;
use serde_json::Value;

use crate::tools::guarded::GUARDED;

static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
        .expect("the e-mail pattern compiles")
});

static PHONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\+?\d[\d ().-]{6,}\d").expect("the phone pattern compiles"));

/// Attacks the injection guard knows, each with what it is called.
static ATTACKS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        (
            r"(?i)\bignore\s+(?:all\s+)?(?:previous|prior|above)\s+instructions\b",
            "a prompt injection",
        ),
        (
            r"(?i);\s*(?:drop|delete|truncate|alter)\s+table\b",
            "SQL injection",
        ),
        (r"(?i)'\s*or\s+'?\d+'?\s*=\s*'?\d+", "SQL injection"),
        (r"(?i)<\s*script\b", "a script tag"),
    ]
    .into_iter()
    .map(|(pattern, what)| {
        (
            Regex::new(pattern).expect("the attack patterns compile"),
            what,
        )
    })
    .collect()
});

/// Whether `invocation` belongs to a call of one of the guarded tools.
fn for_guarded_tool(invocation: &Invocation) -> bool {
    invocation
        .request()
        .and_then(|request| request.pointer("/params/name"))
        .and_then(Value::as_str)
        .is_some_and(|name| GUARDED.contains(&name))
}

/// What the redactor writes in place of what it removes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Masks {
    /// In place of an e-mail address.
    pub email: String,
    /// In place of a phone number.
    pub phone: String,
}

impl Default for Masks {
    fn default() -> Self {
        Self {
            email: "[email]".into(),
            phone: "[phone]".into(),
        }
    }
}

/// Replaces e-mail addresses and phone numbers in every string of `value`;
/// whether it replaced any.
fn redact(value: &mut Value, masks: &Masks) -> bool {
    match value {
        Value::String(text) => {
            let emails = EMAIL.replace_all(text, masks.email.as_str());
            let both = PHONE
                .replace_all(&emails, masks.phone.as_str())
                .into_owned();
            let changed = both != *text;
            *text = both;
            changed
        }
        Value::Array(items) => items.iter_mut().fold(false, |c, v| redact(v, masks) | c),
        Value::Object(members) => members
            .values_mut()
            .fold(false, |c, v| redact(v, masks) | c),
        _ => false,
    }
}

/// Redacts e-mail addresses and phone numbers from the arguments of the
/// guarded tools and from their results, and from the message of every
/// elicitation the server sends its client.
#[mutator(
    name = "pii-redactor",
    version = "1.0.0",
    request = ["tools/call", "elicitation/create"],
    response = ["tools/call"],
    priority(request = -100, response = 100),
    config = Masks
)]
pub async fn pii_redactor(invocation: &Invocation) -> Result<Mutation, mcp_interceptors::Failure> {
    let elicitation = invocation.event() == "elicitation/create";
    if !elicitation && !for_guarded_tool(invocation) {
        return Ok(Mutation::unchanged());
    }
    let masks = invocation.config::<Masks>()?.unwrap_or_default();
    let mut payload = invocation.payload_owned();
    let target = match invocation.phase() {
        Phase::Request if elicitation => payload.pointer_mut("/params/message"),
        Phase::Request => payload.pointer_mut("/params/arguments"),
        Phase::Response => Some(&mut payload),
    };
    let redacted = target.is_some_and(|t| redact(t, &masks));
    Ok(if redacted {
        Mutation::modified(payload)
    } else {
        Mutation::unchanged()
    })
}

/// Refuses arguments of the guarded tools that look like a prompt
/// injection, SQL injection or a script.
#[validator(name = "injection-guard", version = "1.0.0", request = ["tools/call"])]
pub async fn injection_guard(invocation: &Invocation) -> Validation {
    if !for_guarded_tool(invocation) {
        return Validation::valid();
    }
    let Some(Value::Object(arguments)) = invocation.arguments() else {
        return Validation::valid();
    };
    let mut verdict = Validation::valid();
    for (name, value) in arguments {
        let Some(text) = value.as_str() else { continue };
        if let Some((_, what)) = ATTACKS.iter().find(|(pattern, _)| pattern.is_match(text)) {
            verdict = verdict.with_message(
                Message::error(format!("`{name}` looks like {what}"))
                    .at(format!("params.arguments.{name}")),
            );
        }
    }
    verdict
}
