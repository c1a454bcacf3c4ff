//! Byte-level damage to a message's text: bits flipped, bytes inserted or
//! dropped, the text cut short, parts repeated, two messages spliced, bytes
//! that are not UTF-8.

use crate::dice::Dice;

/// The longest input made by damage, in bytes.
pub const MAX_LEN: usize = 4 << 20;

/// Damages `bytes` once, in a way drawn at random; `others` are texts of
/// other messages to splice with.
pub fn damage(bytes: &mut Vec<u8>, dice: &mut Dice, others: &[Vec<u8>]) {
    let len = bytes.len();
    match dice.weighted(&[15, 10, 14, 12, 10, 8, 12, 10, 9]) {
        0 if len > 0 => {
            let i = dice.below(len);
            bytes[i] ^= 1 << dice.below(8);
        }
        1 if len > 0 => {
            let i = dice.below(len);
            bytes[i] = dice.byte();
        }
        2 => {
            let token = *dice.pick(&TOKENS);
            let at = dice.below(len + 1);
            bytes.splice(at..at, token.iter().copied());
        }
        3 if len > 0 => {
            let start = dice.below(len);
            let end = (start + dice.between(1, 16)).min(len);
            bytes.drain(start..end);
        }
        4 => bytes.truncate(dice.below(len + 1)),
        5 if len > 0 => {
            let start = dice.below(len);
            let end = (start + dice.between(1, 64)).min(len);
            let part = bytes[start..end].to_vec();
            let times = dice.size(1024).max(1);
            let at = dice.below(len + 1);
            let repeated: Vec<u8> = part
                .iter()
                .copied()
                .cycle()
                .take(part.len() * times)
                .collect();
            bytes.splice(at..at, repeated);
        }
        6 if !others.is_empty() => {
            let other = dice.pick(others);
            let cut = dice.below(len + 1);
            let from = dice.below(other.len() + 1);
            bytes.truncate(cut);
            bytes.extend_from_slice(&other[from..]);
        }
        7 => {
            let at = dice.below(len + 1);
            let noise: Vec<u8> = (0..dice.between(1, 8)).map(|_| dice.byte()).collect();
            bytes.splice(at..at, noise);
        }
        _ => {
            // A byte the JSON grammar gives meaning to, somewhere.
            let at = dice.below(len + 1);
            bytes.insert(at, *dice.pick(b"{}[]\",:\\ 0-e."));
        }
    }
    bytes.truncate(MAX_LEN);
}

/// Byte sequences worth inserting: JSON punctuation and escapes, and
/// sequences that are not UTF-8.
const TOKENS: [&[u8]; 24] = [
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b"\\",
    b",",
    b":",
    b"null",
    b"\\u0000",
    b"\\ud800",
    b"\\udc00",
    b"\\uDBFF\\uDFFF",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xfe\xff",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\x80",
    b"\x00",
    b"\"id\":1,",
    b"\"jsonrpc\":\"2.0\",",
    b"\"method\":\"tools/call\",",
];
