//! What the attribute's keys say, checked: every key known to the
//! attribute, given once, with a value of its type, and at least one hook.

use proc_macro2::{Span, TokenStream};
use syn::{Expr, ExprLit, ExprUnary, Lit, LitBool, LitStr, Type, UnOp};

use crate::entries::{self, Entry, Value};
use crate::kind::Kind;

/// One key of the attributes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Name,
    Version,
    Description,
    Request,
    Response,
    Mode,
    FailOpen,
    Priority,
    Config,
    TimeoutMs,
    Compat,
}

impl Key {
    /// Every key, in the order messages list them.
    const ALL: [Key; 11] = [
        Key::Name,
        Key::Version,
        Key::Description,
        Key::Request,
        Key::Response,
        Key::Mode,
        Key::FailOpen,
        Key::Priority,
        Key::Config,
        Key::TimeoutMs,
        Key::Compat,
    ];

    /// The key as written.
    fn word(self) -> &'static str {
        match self {
            Key::Name => "name",
            Key::Version => "version",
            Key::Description => "description",
            Key::Request => "request",
            Key::Response => "response",
            Key::Mode => "mode",
            Key::FailOpen => "fail_open",
            Key::Priority => "priority",
            Key::Config => "config",
            Key::TimeoutMs => "timeout_ms",
            Key::Compat => "compat",
        }
    }

    /// How the key is written, for messages about a wrong value.
    fn example(self) -> &'static str {
        match self {
            Key::Name => "`name = \"my-interceptor\"`",
            Key::Version => "`version = \"1.0.0\"`",
            Key::Description => "`description = \"...\"`",
            Key::Request => "`request = [\"tools/call\"]`",
            Key::Response => "`response = [\"tools/call\"]`",
            Key::Mode => "`mode = \"audit\"` or `mode = \"active\"`",
            Key::FailOpen => "`fail_open = true` or `fail_open = false`",
            Key::Priority => "`priority = -100` or `priority(request = -100, response = 100)`",
            Key::Config => "`config = MyConfig`",
            Key::TimeoutMs => "`timeout_ms = 250`",
            Key::Compat => "`compat = \"2025-11-25\"`",
        }
    }

    /// Whether `kind` takes the key.
    fn is_for(self, kind: Kind) -> bool {
        self != Key::Priority || kind == Kind::Mutator
    }

    /// The keys `kind` takes, as a message lists them.
    fn list_for(kind: Kind) -> String {
        let words: Vec<String> = Key::ALL
            .iter()
            .filter(|key| key.is_for(kind))
            .map(|key| format!("`{}`", key.word()))
            .collect();
        words.join(", ")
    }
}

/// Whether an interceptor's verdicts count.
#[derive(Clone, Copy)]
pub(crate) enum Mode {
    /// They block and rewrite.
    Active,
    /// They are recorded only.
    Audit,
}

/// A mutator's order among mutators.
#[derive(Clone, Copy)]
pub(crate) enum Priority {
    /// One for both phases.
    Both(i32),
    /// One per phase; a phase not given has none.
    PerPhase {
        /// The request phase's.
        request: Option<i32>,
        /// The response phase's.
        response: Option<i32>,
    },
}

/// What the attribute says, each key checked.
#[derive(Default)]
pub(crate) struct Options {
    pub(crate) name: Option<LitStr>,
    pub(crate) version: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) request: Option<Vec<LitStr>>,
    pub(crate) response: Option<Vec<LitStr>>,
    pub(crate) mode: Option<Mode>,
    pub(crate) fail_open: Option<bool>,
    pub(crate) priority: Option<Priority>,
    pub(crate) config: Option<Type>,
    pub(crate) timeout_ms: Option<u64>,
    pub(crate) compat: Option<LitStr>,
}

/// Parses and checks the arguments of `#[validator(...)]` or
/// `#[mutator(...)]`, reporting every wrong entry at once.
pub(crate) fn parse(kind: Kind, tokens: TokenStream) -> syn::Result<Options> {
    let mut options = Options::default();
    let mut seen = Vec::new();
    let mut errors: Option<syn::Error> = None;
    for entry in entries::parse(tokens)? {
        if let Err(error) = options.take(kind, &entry, &mut seen) {
            match &mut errors {
                Some(errors) => errors.combine(error),
                None => errors = Some(error),
            }
        }
    }
    if let Some(errors) = errors {
        return Err(errors);
    }
    options.require_hook(kind)?;
    Ok(options)
}

impl Options {
    /// Reads one entry into the options.
    fn take(&mut self, kind: Kind, entry: &Entry, seen: &mut Vec<Key>) -> syn::Result<()> {
        let key = known_key(kind, entry)?;
        if seen.contains(&key) {
            return Err(syn::Error::new_spanned(
                &entry.key,
                format!(
                    "duplicate key `{}` in `#[{}]`: give each key once",
                    key.word(),
                    kind.attr()
                ),
            ));
        }
        seen.push(key);
        match key {
            Key::Name => self.name = Some(name(entry)?),
            Key::Version => self.version = Some(string(key, entry)?),
            Key::Description => self.description = Some(string(key, entry)?),
            Key::Request => self.request = Some(events(key, entry)?),
            Key::Response => self.response = Some(events(key, entry)?),
            Key::Mode => self.mode = Some(mode(entry)?),
            Key::FailOpen => self.fail_open = Some(flag(key, entry)?),
            Key::Priority => self.priority = Some(priority(entry)?),
            Key::Config => self.config = Some(config(entry)?),
            Key::TimeoutMs => self.timeout_ms = Some(timeout(entry)?),
            Key::Compat => self.compat = Some(string(key, entry)?),
        }
        Ok(())
    }

    /// Refuses an interceptor that hooks nothing.
    fn require_hook(&self, kind: Kind) -> syn::Result<()> {
        if self.request.is_some() || self.response.is_some() {
            return Ok(());
        }
        Err(syn::Error::new(
            Span::call_site(),
            format!(
                "`#[{}]` needs at least one hook: `request = [\"tools/call\"]` or `response = [...]`",
                kind.attr()
            ),
        ))
    }
}

/// The key of `entry`, if `kind` takes it.
fn known_key(kind: Kind, entry: &Entry) -> syn::Result<Key> {
    let word = entry.name();
    let Some(key) = Key::ALL.into_iter().find(|key| key.word() == word) else {
        return Err(syn::Error::new_spanned(
            &entry.key,
            format!(
                "unknown `#[{}]` key `{word}`; expected one of {}",
                kind.attr(),
                Key::list_for(kind)
            ),
        ));
    };
    if !key.is_for(kind) {
        return Err(syn::Error::new_spanned(
            &entry.key,
            format!(
                "`#[{}]` takes no `{word}`: validators run all at once; only mutators have a priority",
                kind.attr()
            ),
        ));
    }
    Ok(key)
}

/// The literal of `key = literal`, if the value is one.
fn literal(entry: &Entry) -> Option<&Lit> {
    match &entry.value {
        Value::Expr(Expr::Lit(ExprLit { lit, .. })) => Some(lit),
        _ => None,
    }
}

/// The error for a value of the wrong type.
fn wrong(key: Key, entry: &Entry, takes: &str) -> syn::Error {
    entry.value_error(format!("`{}` takes {takes}: {}", key.word(), key.example()))
}

/// A string: `key = "..."`.
fn string(key: Key, entry: &Entry) -> syn::Result<LitStr> {
    match literal(entry) {
        Some(Lit::Str(s)) => Ok(s.clone()),
        _ => Err(wrong(key, entry, "a string")),
    }
}

/// The interceptor's name: a string with something in it.
fn name(entry: &Entry) -> syn::Result<LitStr> {
    let name = string(Key::Name, entry)?;
    if name.value().trim().is_empty() {
        return Err(syn::Error::new_spanned(
            &name,
            "`name` is empty: an interceptor's name identifies it on the wire",
        ));
    }
    Ok(name)
}

/// A flag: `key = true`, `key = false`, or `key` alone for `true`.
fn flag(key: Key, entry: &Entry) -> syn::Result<bool> {
    if let Value::Absent = entry.value {
        return Ok(true);
    }
    match literal(entry) {
        Some(Lit::Bool(LitBool { value, .. })) => Ok(*value),
        _ => Err(wrong(key, entry, "a boolean")),
    }
}

/// A list of event names: `key = ["tools/call", ...]`, not empty.
fn events(key: Key, entry: &Entry) -> syn::Result<Vec<LitStr>> {
    let Value::Expr(Expr::Array(array)) = &entry.value else {
        return Err(wrong(key, entry, "a list of event names"));
    };
    if array.elems.is_empty() {
        return Err(syn::Error::new_spanned(
            array,
            format!(
                "`{}` lists no events: name at least one, as in {}, or remove the key",
                key.word(),
                key.example()
            ),
        ));
    }
    array
        .elems
        .iter()
        .map(|event| match event {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => Ok(s.clone()),
            other => Err(syn::Error::new_spanned(
                other,
                format!(
                    "`{}` lists event names as strings: {}",
                    key.word(),
                    key.example()
                ),
            )),
        })
        .collect()
}

/// The mode: `"audit"` or `"active"`.
fn mode(entry: &Entry) -> syn::Result<Mode> {
    let text = string(Key::Mode, entry)?;
    match text.value().as_str() {
        "active" => Ok(Mode::Active),
        "audit" => Ok(Mode::Audit),
        other => Err(syn::Error::new_spanned(
            &text,
            format!("unknown mode `{other}`; expected `\"active\"` or `\"audit\"`"),
        )),
    }
}

/// The configuration type: `config = Type`.
fn config(entry: &Entry) -> syn::Result<Type> {
    match &entry.value {
        Value::Type(ty) => Ok(ty.clone()),
        _ => Err(wrong(Key::Config, entry, "a type")),
    }
}

/// The time limit in milliseconds: a positive integer.
fn timeout(entry: &Entry) -> syn::Result<u64> {
    let Some(Lit::Int(int)) = literal(entry) else {
        return Err(wrong(Key::TimeoutMs, entry, "a number of milliseconds"));
    };
    let millis: u64 = int.base10_parse()?;
    if millis == 0 {
        return Err(syn::Error::new_spanned(
            int,
            "`timeout_ms` must be at least 1: an interceptor needs some time to run",
        ));
    }
    Ok(millis)
}

/// A priority: `priority = n` or `priority(request = a, response = b)`.
fn priority(entry: &Entry) -> syn::Result<Priority> {
    match &entry.value {
        Value::Expr(expr) => Ok(Priority::Both(integer(expr, Key::Priority, entry)?)),
        Value::Nested(span, tokens) => per_phase(*span, tokens.clone()),
        _ => Err(wrong(Key::Priority, entry, "an integer")),
    }
}

/// `priority(request = a, response = b)`, either phase optional.
fn per_phase(span: Span, tokens: TokenStream) -> syn::Result<Priority> {
    let mut request = None;
    let mut response = None;
    for entry in entries::parse(tokens)? {
        let slot = match entry.name().as_str() {
            "request" => &mut request,
            "response" => &mut response,
            other => {
                return Err(syn::Error::new_spanned(
                    &entry.key,
                    format!(
                        "unknown phase `{other}` in `priority(...)`; expected `request` or `response`"
                    ),
                ));
            }
        };
        if slot.is_some() {
            return Err(syn::Error::new_spanned(
                &entry.key,
                format!("duplicate phase `{}` in `priority(...)`", entry.key),
            ));
        }
        let Value::Expr(expr) = &entry.value else {
            return Err(wrong(Key::Priority, &entry, "an integer per phase"));
        };
        *slot = Some(integer(expr, Key::Priority, &entry)?);
    }
    if request.is_none() && response.is_none() {
        return Err(syn::Error::new(
            span,
            "`priority(...)` names at least one phase: `priority(request = -100, response = 100)`",
        ));
    }
    Ok(Priority::PerPhase { request, response })
}

/// An `i32` literal, possibly negative.
fn integer(expr: &Expr, key: Key, entry: &Entry) -> syn::Result<i32> {
    let (negative, int) = match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => (false, int),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => match &**expr {
            Expr::Lit(ExprLit {
                lit: Lit::Int(int), ..
            }) => (true, int),
            _ => return Err(wrong(key, entry, "an integer")),
        },
        _ => return Err(wrong(key, entry, "an integer")),
    };
    let magnitude: i64 = int.base10_parse()?;
    let value = if negative { -magnitude } else { magnitude };
    i32::try_from(value).map_err(|_| {
        syn::Error::new_spanned(expr, format!("`{}` must fit in an `i32`", key.word()))
    })
}
