//! Differences between two JSON values, by JSON Pointer, for failure messages.

use serde_json::Value;

/// Every place where `actual` differs from `expected`, one line each: a
/// member missing or added, or a value changed (numbers compare as
/// `serde_json` does: `50` and `50.0` differ). Empty when they are equal.
pub fn differences(expected: &Value, actual: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(expected, actual, &mut String::new(), &mut out);
    out
}

/// [`differences`] joined into one indented block, at most `limit` lines.
pub fn describe(expected: &Value, actual: &Value, limit: usize) -> String {
    let lines = differences(expected, actual);
    let mut text: Vec<String> = lines
        .iter()
        .take(limit)
        .map(|l| format!("    {l}"))
        .collect();
    if lines.len() > limit {
        text.push(format!("    … and {} more", lines.len() - limit));
    }
    text.join("\n")
}

fn walk(expected: &Value, actual: &Value, path: &mut String, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (key, ev) in e {
                let len = path.len();
                push_token(path, key);
                match a.get(key) {
                    Some(av) => walk(ev, av, path, out),
                    None => out.push(format!("`{path}`: missing (was {})", short(ev))),
                }
                path.truncate(len);
            }
            for (key, av) in a {
                if !e.contains_key(key) {
                    let len = path.len();
                    push_token(path, key);
                    out.push(format!("`{path}`: added {}", short(av)));
                    path.truncate(len);
                }
            }
            let (ek, ak): (Vec<_>, Vec<_>) = (e.keys().collect(), a.keys().collect());
            if e.len() == a.len() && ek != ak && e.keys().all(|k| a.contains_key(k)) {
                out.push(format!("`{path}`: key order changed from {ek:?} to {ak:?}"));
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                let len = path.len();
                path.push_str(&format!("/{i}"));
                walk(ev, av, path, out);
                path.truncate(len);
            }
            if e.len() != a.len() {
                out.push(format!("`{path}`: {} items became {}", e.len(), a.len()));
            }
        }
        _ if expected == actual => {}
        _ => out.push(format!(
            "`{path}`: {} became {}",
            short(expected),
            short(actual)
        )),
    }
}

fn push_token(path: &mut String, key: &str) {
    path.push('/');
    path.push_str(&key.replace('~', "~0").replace('/', "~1"));
}

/// A value as compact JSON, cut to a readable length.
pub fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}
