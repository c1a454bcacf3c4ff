//! Hostile HTTP requests around the driver's messages: the body is the
//! input the generator makes for the same number ([`Generator::input`]),
//! and everything around it is drawn apart from it ([`Dice::tagged`]): the
//! method and path; `Content-Type`, `Accept`, `MCP-Protocol-Version`,
//! `Mcp-Session-Id`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`, `Origin`,
//! `Host` and `Last-Event-ID`, each mostly what a client would send for
//! that body (so the request gets past the checks to the server) and
//! otherwise missing, wrong, repeated, malformed or not text; and bodies
//! sent in chunks, cut off mid-way or past the size limit.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use mcp_server::Server;
use mcp_server::core::version::Era;
use serde_json::Value;

use super::input::{ENDED_SESSION, HttpInput, OWN_SESSION, SHARED_SESSION, Sending};
use crate::dice::Dice;
use crate::generate::Generator;
use crate::target::PeerKind;

/// The tag of the dice of HTTP inputs ([`Dice::tagged`]).
const TAG: u64 = 0x4854_5450;

/// The body limit of the default endpoint, which the target serves.
pub static MAX_BODY: std::sync::LazyLock<usize> =
    std::sync::LazyLock::new(|| mcp_server::transport::http::HttpConfig::default().max_body());

/// Bodies larger than this are not read for the headers that mirror them.
const READ_FOR_HEADERS: usize = 256 << 10;

/// The longest header value made.
const MAX_HEADER: usize = 16 << 10;

/// HTTP input number `index`: the request, who its body was made for, and
/// how many bodies were drawn again for naming a slow tool.
pub fn input(generator: &Generator, server: &Server, index: u64) -> (HttpInput, PeerKind, u64) {
    let body = generator.input(index);
    let mut dice = Dice::tagged(generator.seed(), index, TAG);
    let request = request(&mut dice, server, body.bytes, body.caller);
    (request, body.caller, body.redrawn)
}

/// What a body says, as far as its headers mirror it.
#[derive(Default)]
struct Reading {
    method: Option<String>,
    version: Option<String>,
    /// The value of the member `Mcp-Name` mirrors.
    target: Option<Value>,
    /// `tools/call` arguments.
    arguments: Option<Value>,
    tool: Option<String>,
}

impl Reading {
    fn of(bytes: &[u8], server: &Server) -> Self {
        if bytes.len() > READ_FOR_HEADERS {
            return Self::default();
        }
        let Ok(Value::Object(message)) = serde_json::from_slice::<Value>(bytes) else {
            return Self::default();
        };
        let method = message.get("method").and_then(Value::as_str);
        let params = message.get("params");
        let member = method.and_then(|m| server.target_member(m, Era::Modern));
        Self {
            method: method.map(str::to_owned),
            version: params
                .and_then(|p| p.get("_meta"))
                .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion"))
                .and_then(Value::as_str)
                .map(str::to_owned),
            target: member.and_then(|m| params?.get(m)).cloned(),
            arguments: params.and_then(|p| p.get("arguments")).cloned(),
            tool: params
                .and_then(|p| p.get("name"))
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }
}

/// Which session a request names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Session {
    None,
    Own,
    Shared,
    Ended,
    Garbage,
}

fn request(dice: &mut Dice, server: &Server, body: Vec<u8>, caller: PeerKind) -> HttpInput {
    let method = match dice.weighted(&[78, 8, 5, 3, 2, 1, 1, 1, 1, 1]) {
        0 => "POST",
        1 => "GET",
        2 => "DELETE",
        3 => "OPTIONS",
        4 => "PUT",
        5 => "PATCH",
        6 => "HEAD",
        7 => "post",
        8 => "TRACE",
        _ => "MCP",
    };
    let target = if dice.chance(0.97) {
        "/mcp"
    } else {
        *dice.pick(&[
            "/mcp?session=1",
            "/mcp/",
            "/MCP",
            "/",
            "//mcp",
            "/mcp/../mcp",
            "/mcp%20",
            "/mcp;x",
            "/mcp?%ff%fe",
            "*",
        ])
    };
    let reading = Reading::of(&body, server);
    let session = match session(dice, caller) {
        // Deleting the shared session would leave every input after it
        // without one until it is replaced.
        Session::Shared if method == "DELETE" => Session::Own,
        session => session,
    };
    let mut headers = Vec::new();
    let mut add = |name: &str, value: Vec<u8>| headers.push((name.to_owned(), value));

    if let Some(value) = pick(dice, 0.03, 0.88, &CONTENT_TYPES, &BAD_CONTENT_TYPES) {
        add("content-type", value);
    }
    if let Some(value) = pick(dice, 0.03, 0.85, &ACCEPTS, &BAD_ACCEPTS) {
        add("accept", value);
    }
    match session {
        Session::None => {}
        Session::Own => add("mcp-session-id", OWN_SESSION.into()),
        Session::Shared => add("mcp-session-id", SHARED_SESSION.into()),
        Session::Ended => add("mcp-session-id", ENDED_SESSION.into()),
        Session::Garbage => add("mcp-session-id", garbage_session(dice)),
    }
    if let Some(version) = protocol_version(dice, session, &reading) {
        add("mcp-protocol-version", version);
    }
    if let Some(value) = mcp_method(dice, &reading) {
        add("mcp-method", value);
    }
    if let Some(value) = mcp_name(dice, &reading) {
        add("mcp-name", value);
    }
    for (name, value) in param_headers(dice, server, &reading) {
        add(&name, value);
    }
    if let Some(value) = pick(dice, 0.5, 0.9, &HOSTS, &BAD_HOSTS) {
        add("host", value);
    }
    if let Some(value) = pick(dice, 0.85, 0.5, &ORIGINS, &BAD_ORIGINS) {
        add("origin", value);
    }
    let resumes = if matches!(method, "GET" | "HEAD") {
        0.4
    } else {
        0.03
    };
    if dice.chance(resumes) {
        add("last-event-id", last_event_id(dice));
    }
    if method == "OPTIONS" && dice.chance(0.5) {
        let value = pick_value(dice, 0.8, &["POST", "GET", "DELETE"], &["", "post", "PUT"]);
        add("access-control-request-method", value);
        if dice.chance(0.5) {
            let value = pick_value(
                dice,
                0.7,
                &["content-type, mcp-method, mcp-name", "mcp-param-region"],
                &[
                    "x-evil",
                    ",,,",
                    "mcp-param-",
                    "MCP-PARAM-Region, authorization",
                ],
            );
            add("access-control-request-headers", value);
        }
    }
    if dice.chance(0.05) {
        let value = pick_value(dice, 0.5, &["Bearer token"], &["", "Basic", "Bearer"]);
        add("authorization", value);
    }
    if dice.chance(0.03) {
        let value = pick_value(dice, 0.5, &["0", "5"], &["-1", "99999999999999999999", "x"]);
        add("content-length", value);
    }
    // A header sent twice: which one counts?
    if dice.chance(0.04) && !headers.is_empty() {
        let (name, _) = headers[dice.below(headers.len())].clone();
        headers.push((name, hostile(dice)));
    }

    // Whatever a header cannot hold cannot be sent.
    for (_, value) in &mut headers {
        *value = sanitized(value);
    }
    let body = match method {
        "POST" if dice.chance(0.01) => Vec::new(),
        "POST" => body,
        _ if dice.chance(0.2) => body,
        _ => Vec::new(),
    };
    let sending = match dice.weighted(&[85, 10, 5]) {
        0 => Sending::Whole,
        1 => Sending::Chunks(dice.between(1, 16)),
        _ => Sending::Failing(dice.between(0, 8)),
    };
    // Past the limit now and then, or right at it.
    let pad_to = if dice.chance(0.003) {
        match dice.below(3) {
            0 => *MAX_BODY,
            1 => *MAX_BODY + 1,
            _ => *MAX_BODY + dice.between(2, 1 << 16),
        }
    } else {
        0
    };
    HttpInput {
        method: method.to_owned(),
        target: target.to_owned(),
        headers,
        body,
        sending,
        pad_to,
    }
}

/// The session a request names: mostly the one the body was made for.
fn session(dice: &mut Dice, caller: PeerKind) -> Session {
    let natural = match caller {
        PeerKind::Stateless | PeerKind::Connecting => Session::None,
        PeerKind::Session => Session::Own,
        PeerKind::SharedSession => Session::Shared,
    };
    if dice.chance(0.8) {
        return natural;
    }
    *dice.pick(&[
        Session::None,
        Session::Own,
        Session::Shared,
        Session::Ended,
        Session::Garbage,
    ])
}

fn garbage_session(dice: &mut Dice) -> Vec<u8> {
    match dice.below(4) {
        0 => (0..32).map(|_| *dice.pick(b"0123456789abcdef")).collect(),
        1 => (0..32).map(|_| *dice.pick(b"0123456789ABCDEF")).collect(),
        2 => dice
            .pick(&["", " ", "0", "null", "../../etc/passwd", "$own-session "])
            .as_bytes()
            .to_vec(),
        _ => hostile(dice),
    }
}

/// `MCP-Protocol-Version`: on a session mostly the legacy version; else
/// mostly the version the body's `_meta` names, or none (a legacy client).
fn protocol_version(dice: &mut Dice, session: Session, reading: &Reading) -> Option<Vec<u8>> {
    let natural = match (session, &reading.version) {
        (Session::None | Session::Garbage, Some(version)) => Some(version.clone()),
        (Session::None | Session::Garbage, None) => None,
        _ => Some(mcp_server::core::version::LATEST_LEGACY.to_owned()),
    };
    if dice.chance(0.75) {
        return natural.map(String::into_bytes);
    }
    if dice.chance(0.15) {
        return None;
    }
    Some(pick_value(
        dice,
        0.7,
        &[
            "2026-07-28",
            "2025-11-25",
            "2025-06-18",
            "2025-03-26",
            "2024-11-05",
        ],
        &[
            "2030-01-01",
            "2026-07-29",
            "",
            " 2026-07-28",
            "2026-07-28, 2025-11-25",
            "2026-7-28",
            "DRAFT-2026-v1",
            "2026-07-28\t",
        ],
    ))
}

/// `Mcp-Method`: mostly the body's method.
fn mcp_method(dice: &mut Dice, reading: &Reading) -> Option<Vec<u8>> {
    match (&reading.method, dice.below(20)) {
        (_, 0) => None,
        (Some(method), 1..=15) => Some(sanitized(method.as_bytes())),
        (Some(method), 16) => Some(sanitized(method.to_ascii_uppercase().as_bytes())),
        (Some(method), 17) => Some(sanitized(format!(" {method} ").as_bytes())),
        (None, 1..=12) => None,
        _ => Some(pick_value(
            dice,
            0.5,
            &["tools/call", "tools/list", "initialize", "ping"],
            &["", "tools/call\t", "=?base64?dG9vbHMvY2FsbA==?="],
        )),
    }
}

/// `Mcp-Name`: mostly the body's target, literal or in Base64.
fn mcp_name(dice: &mut Dice, reading: &Reading) -> Option<Vec<u8>> {
    let roll = dice.below(20);
    match (&reading.target, roll) {
        (_, 0) => None,
        (Some(Value::String(name)), 1..=11) => Some(as_header(name)),
        (Some(Value::String(name)), 12..=15) => Some(base64_of(name.as_bytes())),
        (Some(Value::Number(n)), 1..=15) => Some(n.to_string().into_bytes()),
        (None, 1..=15) => None,
        _ => Some(match dice.below(3) {
            0 => base64_of(&hostile(dice)),
            1 => pick_value(
                dice,
                0.0,
                &[],
                &[
                    "=?base64?",
                    "=?base64??=",
                    "=?base64?!!!!?=",
                    "=?base64?/w==?=",
                    "=?base64?AA==?=",
                    "=?BASE64?ZWNobw==?=",
                    "=?base64?ZWNobw?=",
                    "=?base64?=?base64?ZWNobw==?=?=",
                ],
            ),
            _ => hostile(dice),
        }),
    }
}

/// `Mcp-Param-*` for a `tools/call` of a tool that mirrors arguments:
/// mostly right, else missing or wrong; now and then one no tool mirrors.
fn param_headers(dice: &mut Dice, server: &Server, reading: &Reading) -> Vec<(String, Vec<u8>)> {
    let mut headers = Vec::new();
    if reading.method.as_deref() == Some("tools/call")
        && let Some(tool) = &reading.tool
    {
        for mirrored in server.param_headers(tool).iter() {
            let name = format!("mcp-param-{}", mirrored.header.to_ascii_lowercase());
            let argument = reading
                .arguments
                .as_ref()
                .and_then(|a| a.get(&mirrored.argument));
            let value = match (argument, dice.below(8)) {
                (_, 0) => None,
                (Some(Value::String(text)), 1..=4) => Some(as_header(text)),
                (Some(Value::String(text)), 5) => Some(base64_of(text.as_bytes())),
                (Some(Value::Number(n)), 1..=5) => Some(n.to_string().into_bytes()),
                (Some(Value::Bool(b)), 1..=5) => Some(b.to_string().into_bytes()),
                (None | Some(Value::Null), 1..=5) => None,
                _ => Some(hostile(dice)),
            };
            if let Some(value) = value {
                headers.push((name, value));
            }
        }
    }
    if dice.chance(0.02) {
        let name = *dice.pick(&["mcp-param-region", "mcp-param-", "mcp-param-x"]);
        headers.push((name.to_owned(), hostile(dice)));
    }
    headers
}

fn last_event_id(dice: &mut Dice) -> Vec<u8> {
    let numbers = [0, 1, 2, 3, 7, u64::MAX];
    match dice.below(3) {
        0 | 1 => format!("{}-{}", dice.pick(&numbers), dice.pick(&numbers)).into_bytes(),
        _ => pick_value(
            dice,
            0.0,
            &[],
            &[
                "",
                "0",
                "-",
                "0-",
                "-0",
                "a-b",
                "1-2-3",
                " 0-1 ",
                "18446744073709551616-0",
                "0-18446744073709551616",
                "+1-+1",
            ],
        ),
    }
}

/// `text` as a client sends it in a header: as it is when it is ASCII a
/// header may hold, else in Base64.
fn as_header(text: &str) -> Vec<u8> {
    if text.bytes().all(|b| b.is_ascii() && allowed(b)) {
        text.as_bytes().to_vec()
    } else {
        base64_of(text.as_bytes())
    }
}

/// `bytes` with what a header may not hold replaced by `?`.
fn sanitized(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .map(|b| if allowed(*b) { *b } else { b'?' })
        .collect()
}

/// `=?base64?…?=` around the Base64 of `bytes`.
fn base64_of(bytes: &[u8]) -> Vec<u8> {
    format!("=?base64?{}?=", STANDARD.encode(bytes)).into_bytes()
}

/// A header: absent with probability `absent`, else one of `good` with
/// probability `right`, else one of `bad` or a hostile value.
fn pick(dice: &mut Dice, absent: f64, right: f64, good: &[&str], bad: &[&str]) -> Option<Vec<u8>> {
    if dice.chance(absent) {
        return None;
    }
    Some(pick_value(dice, right, good, bad))
}

/// One of `good` with probability `right`, else one of `bad` or (one in
/// three) a hostile value.
fn pick_value(dice: &mut Dice, right: f64, good: &[&str], bad: &[&str]) -> Vec<u8> {
    if !good.is_empty() && dice.chance(right) {
        return dice.pick(good).as_bytes().to_vec();
    }
    if bad.is_empty() || dice.chance(0.33) {
        return hostile(dice);
    }
    dice.pick(bad).as_bytes().to_vec()
}

/// A header value HTTP allows (visible ASCII, spaces and tabs, and bytes
/// past ASCII, which are not text): a known troublemaker, a run of one
/// character, or random bytes.
pub fn hostile(dice: &mut Dice) -> Vec<u8> {
    let known: [&[u8]; 22] = [
        b"",
        b" ",
        b"\t",
        b"null",
        b"undefined",
        b"0",
        b"-1",
        b"true",
        b"*",
        b",",
        b";",
        b"a,b;c=d",
        b"%00",
        b"\\u0000",
        b"\xff\xfe",
        b"\xe9",
        b"\xc3\xa9",
        b"\xe2\x80\xae",
        b"\xed\xa0\x80",
        b"\"quoted\"",
        b"${jndi:ldap://x}",
        b"../../../../etc/passwd",
    ];
    let value = match dice.below(4) {
        0 | 1 => dice.pick(&known).to_vec(),
        2 => {
            let byte = *dice.pick(b"a0 ,;=\"\\\t\x80\xff");
            vec![byte; dice.size(MAX_HEADER)]
        }
        _ => (0..dice.size(256)).map(|_| dice.byte()).collect(),
    };
    sanitized(&value)
}

/// Whether a header value may hold `byte`.
fn allowed(byte: u8) -> bool {
    byte == b'\t' || (0x20..0x7f).contains(&byte) || byte >= 0x80
}

const CONTENT_TYPES: [&str; 4] = [
    "application/json",
    "application/json; charset=utf-8",
    "Application/JSON",
    " application/json ;charset=UTF-8",
];

const BAD_CONTENT_TYPES: [&str; 12] = [
    "text/plain",
    "application/jsonx",
    "application/json-seq",
    "",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json, text/plain",
    ";application/json",
    "application/json;",
    "application /json",
    "json",
    "text/event-stream",
];

const ACCEPTS: [&str; 6] = [
    "application/json, text/event-stream",
    "text/event-stream, application/json",
    "application/json",
    "text/event-stream",
    "*/*",
    "application/json;q=0.9, text/event-stream",
];

const BAD_ACCEPTS: [&str; 14] = [
    "text/html",
    "",
    "application/json;q=0, text/event-stream;q=0",
    "text/*",
    "application/*",
    "*/*;q=0",
    "application/json;q=NaN, text/event-stream;q=NaN",
    "text/event-stream;q=inf, application/json;q=-inf",
    "application/json;q=-1, text/event-stream;q=1e999",
    "application/json;;q=;",
    ",,,,",
    "application/json;q=0.5;q=0, text/event-stream;q",
    "TEXT/EVENT-STREAM",
    "application/json ; q = 0.1 , text/event-stream ; q = 0.2",
];

const HOSTS: [&str; 6] = [
    "localhost",
    "localhost:8080",
    "127.0.0.1:3000",
    "[::1]:8080",
    "LOCALHOST:1",
    "127.0.0.1",
];

const BAD_HOSTS: [&str; 14] = [
    "evil.example.com",
    "localhost.evil.com",
    "[",
    "[::1",
    "[::1]x:80",
    ":",
    ":80",
    "",
    "127.0.0.1:",
    "127.0.0.2",
    "0.0.0.0",
    "localhost:99999999999999999999",
    "localhost:8080:80",
    "[::ffff:127.0.0.1]",
];

const ORIGINS: [&str; 4] = [
    "http://localhost:3000",
    "http://127.0.0.1",
    "https://[::1]:8443",
    "http://LOCALHOST",
];

const BAD_ORIGINS: [&str; 12] = [
    "null",
    "",
    "https://evil.example.com",
    "http://localhost.evil.com",
    "file://",
    "://",
    "http://",
    "http://[::1",
    "localhost",
    "http://127.0.0.1:80/path",
    "http://user@localhost",
    "http://localhost:3000/",
];
