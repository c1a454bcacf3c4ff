//! Random JSON values, messages of random members, and random bytes.

use serde_json::{Map, Value, json};

use crate::dice::Dice;
use crate::hostile;
use crate::mutate::KEYS;
use crate::seeds::Seeds;

/// A random value, nested at most `depth` levels.
pub fn value(dice: &mut Dice, depth: usize) -> Value {
    let kinds = if depth == 0 { 4 } else { 6 };
    match dice.below(kinds) {
        0 => match dice.below(3) {
            0 => Value::Null,
            1 => Value::Bool(dice.chance(0.5)),
            _ => hostile::value(dice),
        },
        1 => number(dice),
        2 => json!(word(dice)),
        3 => hostile::string(dice),
        4 => Value::Array((0..dice.below(5)).map(|_| value(dice, depth - 1)).collect()),
        _ => {
            let mut members = Map::new();
            for _ in 0..dice.below(5) {
                let key = if dice.chance(0.7) {
                    (*dice.pick(&KEYS)).to_owned()
                } else {
                    word(dice)
                };
                members.insert(key, value(dice, depth - 1));
            }
            Value::Object(members)
        }
    }
}

/// A number from random bits: small, any `u64`, any `i64`, or any `f64`
/// (`null` for the ones JSON cannot hold).
fn number(dice: &mut Dice) -> Value {
    let word = dice.word();
    match dice.below(4) {
        0 => json!(word % 100),
        1 => json!(word),
        2 => json!(word.cast_signed()),
        _ => json!(f64::from_bits(word)),
    }
}

/// A short word of letters, digits and punctuation of paths.
fn word(dice: &mut Dice) -> String {
    let letters = b"abcdefghijklmnopqrstuvwxyz_/-.0123456789";
    (0..dice.between(0, 12))
        .map(|_| char::from(*dice.pick(letters)))
        .collect()
}

/// An object with some of the members of a JSON-RPC message, each with a
/// value that may or may not fit.
pub fn envelope(dice: &mut Dice, seeds: &Seeds) -> Value {
    let mut members = Map::new();
    let plausible = |dice: &mut Dice, key: &str| -> Value {
        match key {
            "jsonrpc" => json!("2.0"),
            "id" => json!(dice.below(1000)),
            "method" if !seeds.methods.is_empty() => json!(dice.pick(&seeds.methods)),
            "params" | "result" => json!({}),
            "error" => json!({"code": -32600, "message": "x"}),
            _ => Value::Null,
        }
    };
    let odds = [0.85, 0.7, 0.7, 0.6, 0.2, 0.2];
    for (key, odds) in ["jsonrpc", "id", "method", "params", "result", "error"]
        .into_iter()
        .zip(odds)
    {
        if dice.chance(odds) {
            let value = if dice.chance(0.7) {
                plausible(dice, key)
            } else {
                value(dice, 2)
            };
            members.insert(key.to_owned(), value);
        }
    }
    Value::Object(members)
}

/// Random bytes: any bytes, or bytes from the alphabet of JSON.
pub fn bytes(dice: &mut Dice) -> Vec<u8> {
    let len = dice.size(4096);
    if dice.chance(0.5) {
        return (0..len).map(|_| dice.byte()).collect();
    }
    let alphabet = b"{}[]\":,0123456789.eE+- \n\ttruefalsnu\\/jsonrpcidmethodparams";
    let mut out: Vec<u8> = (0..len).map(|_| *dice.pick(alphabet)).collect();
    if dice.chance(0.5) {
        out.insert(0, b'{');
    }
    out
}
