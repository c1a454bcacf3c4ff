//! One member of a JSON object's text, found without parsing the rest:
//! how a modern result gets `_meta["io.modelcontextprotocol/serverInfo"]`
//! in one pass over its bytes and one copy, where parsing every member
//! into a map and encoding it again cost a fifth of a call.
//!
//! The texts scanned are valid JSON (a `RawValue` is), so the scanner only
//! walks it: strings with their escapes, nesting, and the rest up to the
//! next delimiter.

use std::ops::Range;

/// Where the value of top-level member `key` of the object `text` lies;
/// `Ok(None)` when the object has no such member, `Err(())` when `text`
/// is not an object.
pub(crate) fn find(text: &str, key: &str) -> Result<Option<Range<usize>>, ()> {
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, 0);
    if bytes.get(at) != Some(&b'{') {
        return Err(());
    }
    at = skip_space(bytes, at + 1);
    if bytes.get(at) == Some(&b'}') {
        return Ok(None);
    }
    loop {
        if bytes.get(at) != Some(&b'"') {
            return Err(());
        }
        let end = string_end(bytes, at)?;
        let matches = key_is(&text[at..end], key);
        at = skip_space(bytes, end);
        if bytes.get(at) != Some(&b':') {
            return Err(());
        }
        let start = skip_space(bytes, at + 1);
        let value_end = value_end(bytes, start)?;
        if matches {
            return Ok(Some(start..value_end));
        }
        at = skip_space(bytes, value_end);
        match bytes.get(at) {
            Some(b',') => at = skip_space(bytes, at + 1),
            Some(b'}') => return Ok(None),
            _ => return Err(()),
        }
    }
}

/// Whether the quoted key `quoted` (quotes included) is `key`.
fn key_is(quoted: &str, key: &str) -> bool {
    let inner = &quoted[1..quoted.len() - 1];
    if !inner.contains('\\') {
        return inner == key;
    }
    serde_json::from_str::<String>(quoted).is_ok_and(|k| k == key)
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\n' | b'\r' | b'\t')) {
        at += 1;
    }
    at
}

/// The index just past the string that opens at `at`.
fn string_end(bytes: &[u8], mut at: usize) -> Result<usize, ()> {
    at += 1;
    loop {
        match bytes.get(at) {
            Some(b'"') => return Ok(at + 1),
            Some(b'\\') => at += 2,
            Some(_) => at += 1,
            None => return Err(()),
        }
    }
}

/// The index just past the value that starts at `at`.
fn value_end(bytes: &[u8], at: usize) -> Result<usize, ()> {
    match bytes.get(at) {
        Some(b'"') => string_end(bytes, at),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match bytes.get(i) {
                    Some(b'"') => {
                        i = string_end(bytes, i)?;
                        continue;
                    }
                    Some(b'{' | b'[') => depth += 1,
                    Some(b'}' | b']') => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(i + 1);
                        }
                    }
                    Some(_) => {}
                    None => return Err(()),
                }
                i += 1;
            }
        }
        Some(_) => {
            let mut i = at;
            while let Some(b) = bytes.get(i) {
                if matches!(b, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                    break;
                }
                i += 1;
            }
            Ok(i)
        }
        None => Err(()),
    }
}

/// `object` with `member` (`"key":value`) as its first member; `None`
/// when `object` is not an object.
pub(crate) fn prepend(object: &str, member: &str) -> Option<String> {
    let open = skip_space(object.as_bytes(), 0);
    if object.as_bytes().get(open) != Some(&b'{') {
        return None;
    }
    let rest = object[open + 1..].trim_start();
    let mut text = String::with_capacity(object.len() + member.len() + 2);
    text.push_str(&object[..=open]);
    text.push_str(member);
    if !rest.starts_with('}') {
        text.push(',');
    }
    text.push_str(rest);
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value<'a>(text: &'a str, key: &str) -> Option<&'a str> {
        find(text, key).unwrap().map(|r| &text[r])
    }

    #[test]
    fn a_member_is_found_among_any_values_and_spacing() {
        let text = r#" { "a" : [1, {"_meta": 2}, "]"], "b\"c": "x\\y}\"", "_meta" : {"k": [true]} , "z": null } "#;
        assert_eq!(value(text, "_meta"), Some(r#"{"k": [true]}"#));
        assert_eq!(value(text, "b\"c"), Some(r#""x\\y}\"""#));
        assert_eq!(value(text, "z"), Some("null"));
        assert_eq!(value(text, "a"), Some(r#"[1, {"_meta": 2}, "]"]"#));
        assert_eq!(value(text, "missing"), None);
        assert_eq!(value("{}", "_meta"), None);
        assert_eq!(value(r#"{"n":-1.5e3,"_meta":{}}"#, "_meta"), Some("{}"));
    }

    #[test]
    fn an_escaped_key_is_compared_decoded() {
        assert_eq!(value(r#"{"\u005fmeta":1}"#, "_meta"), Some("1"));
    }

    #[test]
    fn what_is_not_an_object_is_refused() {
        for text in ["[]", "1", "\"{}\"", "null"] {
            assert!(find(text, "_meta").is_err(), "{text}");
        }
    }

    #[test]
    fn a_member_is_prepended_to_empty_and_full_objects() {
        assert_eq!(prepend("{}", r#""m":1"#).unwrap(), r#"{"m":1}"#);
        assert_eq!(prepend(" { } ", r#""m":1"#).unwrap(), r#" {"m":1} "#);
        assert_eq!(
            prepend(r#"{"a":2}"#, r#""m":1"#).unwrap(),
            r#"{"m":1,"a":2}"#
        );
        assert!(prepend("[]", r#""m":1"#).is_none());
        assert!(prepend(r#"[{"a":1}]"#, r#""m":1"#).is_none());
    }
}
