//! Hostile values for any field: the wrong kind, extreme numbers, strange
//! and huge strings, deep nesting, very long arrays and objects, and
//! spellings that are not JSON at all.

use serde_json::{Value, json};

use crate::dice::Dice;
use crate::state;
use crate::text::raw;

/// The longest string made, in bytes.
pub const MAX_STRING: usize = 1 << 20;
/// The deepest nesting made.
pub const MAX_DEPTH: usize = 20_000;
/// The most elements of an array or members of an object made.
pub const MAX_ELEMENTS: usize = 100_000;

/// Any hostile value.
pub fn value(dice: &mut Dice) -> Value {
    match dice.weighted(&[25, 22, 14, 10, 6, 10]) {
        0 => wrong_kind(dice),
        1 => string(dice),
        2 => number(dice),
        3 => spelled(dice),
        4 => deep(dice),
        _ => long(dice),
    }
}

/// A request id, good or bad.
pub fn id(dice: &mut Dice) -> Value {
    let ids = [
        json!(0),
        json!(-1),
        json!(i64::MAX),
        json!(i64::MIN),
        json!(u64::MAX),
        json!(1.5),
        json!(1e3),
        json!(""),
        json!("0"),
        json!("\u{0}"),
        Value::Null,
        json!(true),
        json!([]),
        json!({}),
        json!([1]),
        json!({"id": 1}),
        raw(b"9223372036854775808"),
        raw(b"-9223372036854775809"),
        raw(b"1e999"),
        raw(b"-0"),
        raw(b"1.0"),
        raw(b"NaN"),
        raw(b"\"\\ud800\""),
        raw(b"\"\\udfff\\ud800\""),
    ];
    match dice.below(4) {
        0 => string(dice),
        _ => dice.pick(&ids).clone(),
    }
}

/// A small value of some kind, likely not the one a field wants.
fn wrong_kind(dice: &mut Dice) -> Value {
    let values = [
        Value::Null,
        json!(true),
        json!(false),
        json!(0),
        json!(1),
        json!(-1),
        json!(1.5),
        json!(""),
        json!("x"),
        json!("2.0"),
        json!([]),
        json!([null]),
        json!({}),
        json!({"": null}),
        json!({"type": "object"}),
        json!([{}, [], "", 0]),
    ];
    dice.pick(&values).clone()
}

/// A string: a known troublemaker, or a run of one character, of any length.
pub fn string(dice: &mut Dice) -> Value {
    let known = [
        "",
        " ",
        "null",
        "2.0",
        "1.0",
        "tools/call",
        "initialize",
        "../../../../etc/passwd",
        "test://template/../../secret/data",
        "test://template/%2e%2e/data",
        "test://template/{id}/data",
        "test://template//data",
        "test://static-text#frag?q=1",
        "ui://mcp-demo/sales-chart",
        "ui://",
        "file:///etc/passwd",
        "%s%s%s%n",
        "${jndi:ldap://x}",
        "<script>alert(1)</script>",
        "\r\n\r\n",
        "9223372036854775808",
        "NaN",
        "2026-07-28",
        "2025-11-25",
        "1999-01-01",
        "9999-99-99",
        "io.modelcontextprotocol/tasks",
        "io.modelcontextprotocol/ui",
        "ref/prompt",
        "ref/resource",
        "complete",
        "input_required",
        "task",
        "debug",
        "emergency",
        state::TASK_ID,
        state::REQUEST_STATE,
        "====",
        "\u{0}",
        "\u{202e}gnp.exe",
        "\u{feff}",
        "\u{fffd}\u{fffd}",
        "e\u{301}\u{301}\u{301}\u{301}",
    ];
    if dice.chance(0.6) {
        return json!(*dice.pick(&known));
    }
    let chars = [
        'a',
        '0',
        ' ',
        '/',
        '{',
        '"',
        '\\',
        '\u{0}',
        '\u{1f}',
        '\u{7f}',
        'é',
        '\u{301}',
        '\u{feff}',
        '\u{202e}',
        '\u{fffd}',
        '中',
        '😀',
        '\u{10ffff}',
    ];
    let c = *dice.pick(&chars);
    let count = dice.size(MAX_STRING / c.len_utf8());
    Value::String(std::iter::repeat_n(c, count).collect())
}

/// A number at an edge of what integers and floats hold.
fn number(dice: &mut Dice) -> Value {
    let numbers = [
        json!(i64::MIN),
        json!(i64::MAX),
        json!(u64::MAX),
        json!(9_007_199_254_740_993_u64),
        json!(-1),
        json!(0),
        json!(f64::MAX),
        json!(f64::MIN),
        json!(f64::MIN_POSITIVE),
        json!(5e-324),
        json!(-0.0),
        json!(0.1),
        json!(1e300),
        json!(4_294_967_296_u64),
        json!(65536),
        json!(-2_147_483_649_i64),
    ];
    dice.pick(&numbers).clone()
}

/// Text that is not valid JSON, or JSON at the edge of what a parser takes.
fn spelled(dice: &mut Dice) -> Value {
    let spellings: [&[u8]; 38] = [
        b"NaN",
        b"-NaN",
        b"Infinity",
        b"-Infinity",
        b"1e999999",
        b"-1e999999",
        b"1e-999999",
        b"18446744073709551616",
        b"-9223372036854775809",
        b"0x10",
        b"01",
        b"+1",
        b"1.",
        b".5",
        b"1e",
        b"-",
        b"1_000",
        b"\"\\ud800\"",
        b"\"\\udfff\"",
        b"\"\\ud800\\ud800\"",
        b"\"\\udbff\\udfff\"",
        b"\"\\u0000\"",
        b"\"\\uD83D\\uDE00\"",
        b"\"\\uZZZZ\"",
        b"\"\\x41\"",
        b"\"abc",
        b"tru",
        b"nul",
        b"undefined",
        b"'single'",
        b"\"\t\"",
        b"\"\xff\xfe\"",
        b"\"\xc0\xaf\"",
        b"\"\xed\xa0\x80\"",
        b"\xff",
        b"{\"a\" 1}",
        b"[1,,2]",
        b"{,}",
    ];
    if dice.chance(0.2) {
        return big_number(dice);
    }
    let spelling = *dice.pick(&spellings);
    raw(spelling)
}

/// A number of thousands of digits, or with a huge exponent.
fn big_number(dice: &mut Dice) -> Value {
    let digits = dice.between(20, MAX_DEPTH);
    let mut text: Vec<u8> = Vec::with_capacity(digits + 16);
    if dice.chance(0.3) {
        text.push(b'-');
    }
    text.push(b'1');
    text.extend(std::iter::repeat_n(b'0', digits));
    match dice.below(3) {
        0 => {}
        1 => text.extend_from_slice(b".5"),
        _ => text.extend_from_slice(format!("e-{digits}").as_bytes()),
    }
    raw(&text)
}

/// Nesting of up to thousands of levels, closed or not.
pub fn deep(dice: &mut Dice) -> Value {
    let depths = [2, 64, 127, 128, 129, 500, 1_000, 5_000, MAX_DEPTH];
    let depth = *dice.pick(&depths);
    let (open, inner, close): (&[u8], &[u8], &[u8]) = match dice.below(4) {
        0 => (b"[", b"", b"]"),
        1 => (b"{\"a\":", b"0", b"}"),
        2 => (b"[{\"\":", b"null", b"}]"),
        _ => (b"{\"params\":", b"{}", b"}"),
    };
    let mut text = Vec::with_capacity(depth * (open.len() + close.len()) + inner.len());
    for _ in 0..depth {
        text.extend_from_slice(open);
    }
    text.extend_from_slice(inner);
    if !dice.chance(0.1) {
        for _ in 0..depth {
            text.extend_from_slice(close);
        }
    }
    raw(&text)
}

/// An array or object of up to a hundred thousand entries.
pub fn long(dice: &mut Dice) -> Value {
    let count = dice.size(MAX_ELEMENTS).max(1);
    let mut text = Vec::new();
    match dice.below(5) {
        0 => repeat(&mut text, b"[", b"0", b",", b"]", count),
        1 => repeat(&mut text, b"[", b"{}", b",", b"]", count),
        2 => repeat(&mut text, b"[", b"\"x\"", b",", b"]", count),
        3 => repeat(&mut text, b"{", b"\"a\":0", b",", b"}", count),
        _ => {
            text.push(b'{');
            for i in 0..count {
                if i > 0 {
                    text.push(b',');
                }
                text.extend_from_slice(format!("\"k{i}\":{i}").as_bytes());
            }
            text.push(b'}');
        }
    }
    raw(&text)
}

/// Writes `count` times `item`, between `open` and `close`, separated by `comma`.
fn repeat(text: &mut Vec<u8>, open: &[u8], item: &[u8], comma: &[u8], close: &[u8], count: usize) {
    text.extend_from_slice(open);
    for i in 0..count {
        if i > 0 {
            text.extend_from_slice(comma);
        }
        text.extend_from_slice(item);
    }
    text.extend_from_slice(close);
}
