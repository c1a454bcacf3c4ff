//! What a stdio input writes: the generator's message for the same number
//! ([`Generator::input`]) as a line, after a 2025-11-25 handshake when the
//! message was made for a session; now and then followed by more lines
//! (a valid message, the same message again, its cancellation, an answer
//! to a request of the server's, blank lines), ended with `\r\n` or with
//! no newline at all, or by a line past the limit.

use mcp_server::transport::stdio::MAX_LINE;
use serde_json::{Value, json};

use crate::dice::Dice;
use crate::generate::Generator;
use crate::guard;
use crate::target::PeerKind;

/// The tag of the dice of stdio inputs ([`Dice::tagged`]).
const TAG: u64 = 0x5354_4449;

/// The id of the handshake's `initialize`.
pub const HANDSHAKE_ID: &str = "mcp-fuzz-initialize";

/// Stdio input number `index`: the bytes written, who the message was made
/// for, and how many messages were drawn again for naming a slow tool.
pub fn input(generator: &Generator, index: u64) -> (Vec<u8>, PeerKind, u64) {
    let first = generator.input(index);
    let mut dice = Dice::tagged(generator.seed(), index, TAG);
    let mut out = Vec::new();
    let session = matches!(first.caller, PeerKind::Session | PeerKind::SharedSession);
    if session || dice.chance(0.05) {
        out.extend_from_slice(&handshake());
    }
    let mut lines = vec![first.bytes];
    if dice.chance(0.25) {
        for _ in 0..dice.between(1, 3) {
            if let Some(line) = extra(&mut dice, generator, &lines[0]) {
                lines.push(line);
            }
        }
    }
    let count = lines.len();
    for (i, line) in lines.into_iter().enumerate() {
        out.extend_from_slice(&line);
        let last = i + 1 == count;
        match dice.below(20) {
            0 if last => {}
            1 => out.extend_from_slice(b"\r\n"),
            _ => out.push(b'\n'),
        }
    }
    if dice.chance(0.002) {
        // Right at the limit (a line the decoder reads) or past it.
        let len = MAX_LINE + dice.below(2) * dice.between(1, 64);
        out.extend(std::iter::repeat_n(b'x', len));
        out.push(b'\n');
    }
    (out, first.caller, first.redrawn)
}

/// The handshake of a 2025-11-25 client with every capability.
pub fn handshake() -> Vec<u8> {
    let initialize = crate::target::initialize_request(HANDSHAKE_ID);
    let initialized = crate::target::initialized_notification();
    let mut out = serde_json::to_vec(&initialize).unwrap_or_default();
    out.push(b'\n');
    out.extend(serde_json::to_vec(&initialized).unwrap_or_default());
    out.push(b'\n');
    out
}

/// One more line after `first`.
fn extra(dice: &mut Dice, generator: &Generator, first: &[u8]) -> Option<Vec<u8>> {
    let line = match dice.below(6) {
        0 | 1 => dice.pick(generator.texts()).clone(),
        2 => first.to_vec(),
        3 => {
            let id = serde_json::from_slice::<Value>(first)
                .ok()
                .and_then(|m| m.get("id").cloned())
                .unwrap_or(json!(1));
            let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {
                "requestId": id, "reason": "mcp-fuzz"
            }});
            serde_json::to_vec(&cancel).unwrap_or_default()
        }
        4 => {
            let answers = [
                json!({"action": "accept", "content": {"confirm": true, "name": "Ada"}}),
                json!({"action": "decline"}),
                json!({"roots": []}),
                json!({"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}),
            ];
            let answer =
                json!({"jsonrpc": "2.0", "id": dice.below(3), "result": dice.pick(&answers)});
            serde_json::to_vec(&answer).unwrap_or_default()
        }
        _ => dice.pick(&[&b""[..], b"   ", b"\t\r", b"\x0c"]).to_vec(),
    };
    (!guard::names_a_slow_tool(&line)).then_some(line)
}
