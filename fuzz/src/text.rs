//! JSON text from a value, with the quirks only text can carry: duplicated
//! keys, `\u` escapes and lone surrogates, spellings of numbers that JSON
//! forbids or that overflow, stray whitespace, trailing commas; and raw
//! tokens ([`raw`]) written as they are.

use serde_json::{Map, Number, Value};

use crate::dice::Dice;

/// The mark that makes a string a raw token.
const RAW: &str = "\u{f8ff}mcp-fuzz-raw:";

/// A value written as `bytes`, verbatim (JSON or not, UTF-8 or not).
pub fn raw(bytes: &[u8]) -> Value {
    // Each byte is one char below U+0100, so any bytes survive in a string.
    let mut text = String::from(RAW);
    text.extend(bytes.iter().map(|b| char::from(*b)));
    Value::String(text)
}

/// The bytes of a raw token, if `text` is one.
fn raw_bytes(text: &str) -> Option<Vec<u8>> {
    let body = text.strip_prefix(RAW)?;
    Some(
        body.chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
            .collect(),
    )
}

/// Writes `value`, with each token quirky with probability `quirks`
/// (0 writes plain JSON, raw tokens aside).
pub fn write(value: &Value, dice: &mut Dice, quirks: f64) -> Vec<u8> {
    let mut writer = Writer {
        dice,
        quirks,
        out: Vec::new(),
    };
    writer.value(value);
    writer.out
}

struct Writer<'a> {
    dice: &'a mut Dice,
    quirks: f64,
    out: Vec<u8>,
}

impl Writer<'_> {
    fn quirk(&mut self) -> bool {
        self.quirks > 0.0 && self.dice.chance(self.quirks)
    }

    fn value(&mut self, value: &Value) {
        self.space();
        match value {
            Value::Null => self.literal("null", &["nil", "None", "NULL"]),
            Value::Bool(true) => self.literal("true", &["True", "1", "tru"]),
            Value::Bool(false) => self.literal("false", &["False", "0", "fals"]),
            Value::Number(n) => self.number(n),
            Value::String(s) => match raw_bytes(s) {
                Some(bytes) => self.out.extend_from_slice(&bytes),
                None => self.string(s),
            },
            Value::Array(items) => self.array(items),
            Value::Object(members) => self.object(members),
        }
        self.space();
    }

    fn space(&mut self) {
        if self.quirk() {
            let spaces: [&[u8]; 7] = [
                b" ",
                b"\n",
                b"\t",
                b"\r\n",
                b"  \n\t ",
                "\u{a0}".as_bytes(),
                "\u{feff}".as_bytes(),
            ];
            let space = *self.dice.pick(&spaces);
            self.out.extend_from_slice(space);
        }
    }

    fn literal(&mut self, plain: &str, odd: &[&str]) {
        let text = if self.quirk() {
            *self.dice.pick(odd)
        } else {
            plain
        };
        self.out.extend_from_slice(text.as_bytes());
    }

    fn number(&mut self, n: &Number) {
        let plain = n.to_string();
        if !self.quirk() {
            self.out.extend_from_slice(plain.as_bytes());
            return;
        }
        let spelled = match self.dice.below(9) {
            0 => format!("{plain}.0"),
            1 => format!("{plain}e0"),
            2 => format!("{plain}E+00"),
            3 => format!("0{plain}"),
            4 => format!("+{plain}"),
            5 => format!("{plain}000000000000000000000000"),
            6 => format!("{plain}e400"),
            7 => format!("-{plain}"),
            _ => format!("{plain}."),
        };
        self.out.extend_from_slice(spelled.as_bytes());
    }

    fn string(&mut self, text: &str) {
        self.out.push(b'"');
        for c in text.chars() {
            // Strings are long: a quirk in each is plenty.
            if self.quirk() && self.dice.chance(0.125) {
                self.odd_char(c);
                continue;
            }
            match c {
                '"' => self.out.extend_from_slice(b"\\\""),
                '\\' => self.out.extend_from_slice(b"\\\\"),
                c if u32::from(c) < 0x20 => {
                    self.out
                        .extend_from_slice(format!("\\u{:04x}", u32::from(c)).as_bytes());
                }
                c => {
                    let mut buf = [0u8; 4];
                    self.out
                        .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        if self.quirk() && self.dice.chance(0.2) {
            // An unterminated string.
            return;
        }
        self.out.push(b'"');
    }

    /// `c` written some other way, valid or not.
    fn odd_char(&mut self, c: char) {
        let mut units = [0u16; 2];
        let escaped: String = c
            .encode_utf16(&mut units)
            .iter()
            .map(|u| format!("\\u{u:04X}"))
            .collect();
        let odd = match self.dice.below(10) {
            0..=3 => escaped,
            4 => format!("\\uDBFF\\uDFFF{escaped}"),
            5 => format!("{escaped}\\u0000"),
            6 => format!("{c}{c}"),
            7 => format!("\\ud800{escaped}"),
            8 => format!("{escaped}\\udc00"),
            _ => format!("\\x{:02x}", u32::from(c) & 0xff),
        };
        // Control characters written raw are not JSON either; so be it.
        self.out.extend_from_slice(odd.as_bytes());
    }

    fn array(&mut self, items: &[Value]) {
        self.out.push(b'[');
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            self.value(item);
        }
        if !items.is_empty() && self.quirk() && self.dice.chance(0.3) {
            self.out.push(b',');
        }
        self.out.push(b']');
    }

    fn object(&mut self, members: &Map<String, Value>) {
        self.out.push(b'{');
        let mut first = true;
        for (key, value) in members {
            if self.quirk() && self.dice.chance(0.5) {
                // The same key twice: first with another value, then its own.
                self.member(&mut first, key, &odd_twin(value));
            }
            self.member(&mut first, key, value);
        }
        if !members.is_empty() && self.quirk() && self.dice.chance(0.3) {
            self.out.push(b',');
        }
        self.out.push(b'}');
    }

    fn member(&mut self, first: &mut bool, key: &str, value: &Value) {
        if !*first {
            self.out.push(b',');
        }
        *first = false;
        self.space();
        self.string(key);
        self.space();
        self.out.push(b':');
        self.value(value);
    }
}

/// A value of another kind than `value`, for a duplicated key.
fn odd_twin(value: &Value) -> Value {
    match value {
        Value::Null => Value::Bool(false),
        Value::Bool(_) | Value::Number(_) => Value::String("twin".into()),
        Value::String(_) => Value::Null,
        Value::Array(_) => Value::Object(Map::new()),
        Value::Object(_) => Value::Array(Vec::new()),
    }
}
