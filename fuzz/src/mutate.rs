//! Structural mutations of a message: values replaced by hostile ones or
//! by fragments of other messages, members removed, added or renamed, the
//! method, id and version changed, `_meta` rewritten, arrays grown, the
//! message wrapped or nested.

use serde_json::{Map, Value, json};

use crate::damage;
use crate::dice::Dice;
use crate::hostile;
use crate::random;
use crate::seeds::Seeds;
use crate::state;

/// Member names worth adding or renaming to.
pub const KEYS: [&str; 44] = [
    "jsonrpc",
    "id",
    "method",
    "params",
    "result",
    "error",
    "code",
    "message",
    "data",
    "_meta",
    "name",
    "arguments",
    "uri",
    "cursor",
    "task",
    "ttl",
    "taskId",
    "inputResponses",
    "requestState",
    "resultType",
    "protocolVersion",
    "capabilities",
    "clientInfo",
    "progressToken",
    "level",
    "ref",
    "argument",
    "value",
    "context",
    "notifications",
    "requestId",
    "reason",
    "progress",
    "total",
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/clientInfo",
    "io.modelcontextprotocol/logLevel",
    "io.modelcontextprotocol/related-task",
    "io.modelcontextprotocol/subscriptionId",
    "traceparent",
    "__proto__",
    "",
    "\u{0}",
];

/// Applies one mutation, of a kind drawn at random, to `message`: mostly
/// inside its params, where the dispatch reads; now and then to the
/// envelope, which the decoder reads.
pub fn mutate(message: &mut Value, dice: &mut Dice, seeds: &Seeds) {
    match dice.weighted(&[24, 8, 10, 7, 12, 7, 5, 2, 4, 10, 3, 3, 1]) {
        0 => *node(message, dice) = hostile::value(dice),
        1 => *node(message, dice) = random::value(dice, 3),
        2 => {
            if let Some(fragment) = fragment(dice, seeds) {
                *node(message, dice) = fragment;
            }
        }
        3 => remove_member(message, dice),
        4 => add_member(message, dice, seeds),
        5 => rename_member(message, dice),
        6 => set(message, "method", method(dice, seeds)),
        7 => set(message, "jsonrpc", version(dice)),
        8 => set(message, "id", hostile::id(dice)),
        9 => rewrite_meta(message, dice),
        10 => grow_array(message, dice),
        11 => nest(message, dice),
        _ => wrap(message, dice),
    }
}

/// A node of `message` below its top: mostly in its params (or result),
/// reached by a random walk.
fn node<'a>(message: &'a mut Value, dice: &mut Dice) -> &'a mut Value {
    let Some(members) = message.as_object().filter(|m| !m.is_empty()) else {
        return walk(message, dice);
    };
    let inner = ["params", "result", "error"]
        .into_iter()
        .find(|key| members.contains_key(*key));
    let key = match inner {
        Some(key) if dice.chance(0.85) => key.to_owned(),
        _ => {
            let i = dice.below(members.len());
            members.keys().nth(i).cloned().unwrap_or_default()
        }
    };
    let Some(member) = message.get_mut(&key) else {
        unreachable_child()
    };
    // The params object itself seldom: what is in it is what a method reads.
    let len = member.as_object().map_or(0, Map::len);
    if len == 0 || dice.chance(0.1) {
        return walk(member, dice);
    }
    let i = dice.below(len);
    match member.as_object_mut().and_then(|m| m.values_mut().nth(i)) {
        Some(child) => walk(child, dice),
        None => unreachable_child(),
    }
}

/// A node of `value`, reached by a random walk from it.
fn walk<'a>(value: &'a mut Value, dice: &mut Dice) -> &'a mut Value {
    let len = match &*value {
        Value::Array(items) => items.len(),
        Value::Object(members) => members.len(),
        _ => 0,
    };
    if len == 0 || dice.chance(0.3) {
        return value;
    }
    let i = dice.below(len);
    match value {
        Value::Array(items) => walk(&mut items[i], dice),
        Value::Object(members) => match members.values_mut().nth(i) {
            Some(child) => walk(child, dice),
            None => unreachable_child(),
        },
        _ => unreachable_child(),
    }
}

#[cold]
fn unreachable_child() -> ! {
    unreachable!("a container with a child at every index below its length")
}

/// An object of `value`, reached by a random walk, if the walk ends on one.
fn object<'a>(value: &'a mut Value, dice: &mut Dice) -> Option<&'a mut Map<String, Value>> {
    match node(value, dice) {
        Value::Object(members) => Some(members),
        _ => None,
    }
}

/// A fragment of the official examples, or a part of another seed.
fn fragment(dice: &mut Dice, seeds: &Seeds) -> Option<Value> {
    if seeds.fragments.is_empty() || dice.chance(0.3) {
        let seed = seeds.messages.get(dice.below(seeds.messages.len()))?;
        let mut message = seed.message.clone();
        return Some(std::mem::take(node(&mut message, dice)));
    }
    Some(dice.pick(&seeds.fragments).clone())
}

/// Removes a member of an object of the message.
fn remove_member(message: &mut Value, dice: &mut Dice) {
    if let Some(members) = object(message, dice)
        && !members.is_empty()
    {
        let i = dice.below(members.len());
        remove_at(members, i);
    }
}

/// Adds a member, of a telling name, to an object of the message.
fn add_member(message: &mut Value, dice: &mut Dice, seeds: &Seeds) {
    let key = key(dice);
    let value = match dice.below(3) {
        0 => hostile::value(dice),
        1 => fragment(dice, seeds).unwrap_or_default(),
        _ => random::value(dice, 2),
    };
    if let Some(members) = object(message, dice) {
        members.insert(key, value);
    }
}

/// Moves a member of an object of the message under another name.
fn rename_member(message: &mut Value, dice: &mut Dice) {
    let key = key(dice);
    if let Some(members) = object(message, dice)
        && !members.is_empty()
    {
        let i = dice.below(members.len());
        if let Some((_, value)) = remove_at(members, i) {
            members.insert(key, value);
        }
    }
}

/// Removes the `i`th member.
fn remove_at(members: &mut Map<String, Value>, i: usize) -> Option<(String, Value)> {
    let key = members.keys().nth(i)?.clone();
    members.shift_remove_entry(&key)
}

/// A member name: mostly one that means something in a message.
fn key(dice: &mut Dice) -> String {
    if dice.chance(0.9) {
        (*dice.pick(&KEYS)).to_owned()
    } else {
        hostile::string(dice)
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }
}

/// Sets a member of the top-level object (when the message is one).
fn set(message: &mut Value, key: &str, value: Value) {
    if let Value::Object(members) = message {
        members.insert(key.to_owned(), value);
    }
}

/// A method name of the seeds, or a hostile value.
fn method(dice: &mut Dice, seeds: &Seeds) -> Value {
    if seeds.methods.is_empty() || dice.chance(0.15) {
        return hostile::value(dice);
    }
    json!(dice.pick(&seeds.methods))
}

/// A `jsonrpc` member that is not quite `"2.0"`.
fn version(dice: &mut Dice) -> Value {
    let versions = [
        json!("1.0"),
        json!("2"),
        json!("2.00"),
        json!("2.0 "),
        json!(" 2.0"),
        json!("3.0"),
        json!(2.0),
        json!(2),
        Value::Null,
        json!(["2.0"]),
        json!(""),
    ];
    dice.pick(&versions).clone()
}

/// Changes the `_meta` of the params: a version missing or unknown,
/// capabilities of the wrong shape, a token or level that does not fit.
fn rewrite_meta(message: &mut Value, dice: &mut Dice) {
    let Some(Value::Object(params)) = message.get_mut("params") else {
        return;
    };
    let meta = params.entry("_meta").or_insert_with(|| json!({}));
    let Value::Object(meta) = meta else {
        *meta = hostile::value(dice);
        return;
    };
    let keys = [
        "io.modelcontextprotocol/protocolVersion",
        "io.modelcontextprotocol/clientCapabilities",
        "io.modelcontextprotocol/clientInfo",
        "io.modelcontextprotocol/logLevel",
        "io.modelcontextprotocol/related-task",
        "progressToken",
        "traceparent",
    ];
    let key = *dice.pick(&keys);
    let values = [
        json!("2025-11-25"),
        json!("2026-07-28"),
        json!("2024-11-05"),
        json!("2030-01-01"),
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}),
        json!({"elicitation": {}, "sampling": {}, "roots": {}}),
        json!({"extensions": {"io.modelcontextprotocol/tasks": []}}),
        json!({"tasks": {"requests": {"tools": {"call": {}}}}}),
        json!({"name": "x", "version": "1"}),
        json!({"taskId": state::TASK_ID}),
        json!("debug"),
        json!("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"),
    ];
    match dice.below(3) {
        0 => {
            meta.shift_remove(key);
        }
        1 => {
            meta.insert(key.to_owned(), dice.pick(&values).clone());
        }
        _ => {
            meta.insert(key.to_owned(), hostile::value(dice));
        }
    }
}

/// Repeats one element of an array of the message, up to ten thousand
/// times, within a few megabytes.
fn grow_array(message: &mut Value, dice: &mut Dice) {
    let count = dice.size(hostile::MAX_ELEMENTS / 10);
    let capped = |item: &Value| {
        let size = serde_json::to_vec(item).map_or(1, |text| text.len().max(1));
        count.min(damage::MAX_LEN / size)
    };
    match node(message, dice) {
        Value::Array(items) if !items.is_empty() => {
            let item = items[dice.below(items.len())].clone();
            let count = capped(&item);
            items.extend(std::iter::repeat_n(item, count));
        }
        other => {
            let count = capped(other);
            *other = Value::Array(vec![other.clone(); count]);
        }
    }
}

/// Wraps a node of the message in up to a hundred arrays or objects.
fn nest(message: &mut Value, dice: &mut Dice) {
    let levels = dice.between(1, 100);
    let in_arrays = dice.chance(0.5);
    let target = node(message, dice);
    let mut value = std::mem::take(target);
    for _ in 0..levels {
        value = if in_arrays {
            Value::Array(vec![value])
        } else {
            json!({ "a": value })
        };
    }
    *target = value;
}

/// Makes the message a batch, or an element of some other value.
fn wrap(message: &mut Value, dice: &mut Dice) {
    let inner = std::mem::take(message);
    *message = match dice.below(4) {
        0 => json!([inner]),
        1 => json!([inner.clone(), inner]),
        2 => json!([]),
        _ => json!({"jsonrpc": "2.0", "message": inner}),
    };
}
