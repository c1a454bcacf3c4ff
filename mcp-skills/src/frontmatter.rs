//! The YAML frontmatter at the top of a `SKILL.md`, read into JSON with
//! every field as written.

use mcp_server::core::json::{JsonObject, JsonValue};

/// Why a `SKILL.md` has no usable frontmatter.
pub(crate) struct Unreadable {
    pub(crate) code: &'static str,
    pub(crate) message: String,
    pub(crate) help: &'static str,
}

/// The frontmatter of a `SKILL.md` whose bytes are `bytes`: the YAML
/// between a first line `---` and the next line `---`, as a JSON object.
pub(crate) fn parse(bytes: &[u8]) -> Result<JsonObject, Unreadable> {
    let missing = |message: &str| Unreadable {
        code: "mcp_skills::no_frontmatter",
        message: message.to_owned(),
        help: "begin SKILL.md with YAML between two `---` lines that gives `name` and `description`",
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(missing("its SKILL.md is not UTF-8 text"));
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(|l| l.trim_end()) != Some("---") {
        return Err(missing(
            "its SKILL.md does not begin with frontmatter (a line `---`)",
        ));
    }
    let mut yaml = String::new();
    let mut closed = false;
    for line in lines {
        if line.trim_end() == "---" {
            closed = true;
            break;
        }
        yaml.push_str(line);
    }
    if !closed {
        return Err(missing(
            "its SKILL.md frontmatter is never closed (no second line `---`)",
        ));
    }
    let bad = |message: String| Unreadable {
        code: "mcp_skills::bad_frontmatter",
        message,
        help: "write the frontmatter as a YAML mapping of field names to values",
    };
    match serde_yaml_ng::from_str::<JsonValue>(&yaml) {
        Ok(JsonValue::Object(fields)) => Ok(fields),
        Ok(JsonValue::Null) => Err(bad("its SKILL.md frontmatter is empty".into())),
        Ok(_) => Err(bad(
            "its SKILL.md frontmatter is not a mapping of fields".into()
        )),
        Err(error) => Err(bad(format!(
            "its SKILL.md frontmatter is not YAML: {error}"
        ))),
    }
}
