//! Skills as data: the files of one place (a directory embedded or on
//! disk, or skills made by code), the skills found among them, and the
//! problems found on the way.

use std::collections::BTreeMap;
use std::sync::Arc;

use mcp_server::boot::Diagnostic;
use mcp_server::core::resources::ReadResource;
use mcp_server::handler::Handler;
use mcp_server::seam::Origin;
use sha2::{Digest, Sha256};

use crate::frontmatter;
use crate::wire::{Manifest, ManifestFile, SKILL_MD, SkillEntry, URI_SCHEME};

/// The most files a skill should have (SEP-2640: servers SHOULD NOT serve more).
pub(crate) const MAX_FILES: usize = 512;
/// The most bytes a skill's files should hold together.
pub(crate) const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// What one file holds.
#[derive(Clone)]
pub(crate) enum Content {
    /// Bytes known before the first read.
    Bytes(Arc<[u8]>),
    /// Made per read by a handler, with this MIME type.
    Made {
        mime_type: String,
        handler: Arc<dyn Handler<ReadResource>>,
    },
}

/// One place skills come from (a directory embedded or on disk, a skill
/// made by code): its files, by `/`-separated path below its root.
#[derive(Clone)]
pub(crate) struct Place {
    /// Where it was declared or configured.
    pub(crate) origin: Origin,
    /// What the diagnostics call it: "the embedded directory `skills`".
    pub(crate) label: String,
    pub(crate) files: BTreeMap<String, Content>,
}

/// A skill found in a place.
pub(crate) struct Found {
    pub(crate) entry: SkillEntry,
    /// Its path below the place's root (`acme/billing/refunds`).
    pub(crate) path: String,
    /// The paths of its files, nested skills' included.
    pub(crate) files: Vec<String>,
}

/// What is wrong with a place: errors fail boot (or refuse a reload),
/// warnings are reported and served anyway.
#[derive(Default)]
pub(crate) struct Problems {
    pub(crate) errors: Vec<Diagnostic>,
    pub(crate) warnings: Vec<String>,
}

/// The URI of the file at `path` below a tree's root.
pub(crate) fn uri_of(path: &str) -> String {
    format!("{URI_SCHEME}{path}")
}

/// `sha256:` and the lowercase hex SHA-256 of `bytes`.
pub(crate) fn digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut hex = String::with_capacity(7 + 64);
    hex.push_str("sha256:");
    for byte in hash {
        hex.push_str(&format!("{byte:02x}"));
    }
    hex
}

impl Place {
    /// Every skill in the place (each directory with a `SKILL.md`), and
    /// what is wrong with them. A skill with an error is left out.
    pub(crate) fn skills(&self, problems: &mut Problems) -> Vec<Found> {
        let unusable = self.unusable_paths();
        let mut found = Vec::new();
        for (path, content) in &self.files {
            let Some(dir) = skill_dir(path) else {
                continue;
            };
            let Content::Bytes(bytes) = content else {
                problems.errors.push(self.problem(
                    "mcp_skills::made_skill_md",
                    format!("skill `{dir}`: its SKILL.md is made per read, so its frontmatter cannot be checked"),
                    "give SKILL.md as bytes; the skill's other files may be made per read",
                ));
                continue;
            };
            if dir.is_empty() {
                problems.errors.push(self.problem(
                    "mcp_skills::skill_at_root",
                    "a SKILL.md at the root of the directory names no skill",
                    "move it into a directory named as the skill (`<name>/SKILL.md`)",
                ));
                continue;
            }
            let prefix = format!("{dir}/");
            let bad = unusable
                .iter()
                .filter(|(p, _)| p.starts_with(&prefix))
                .collect::<Vec<_>>();
            if let Some((path, why)) = bad.first() {
                let more = match bad.len() - 1 {
                    0 => String::new(),
                    n => format!(" (and {n} more)"),
                };
                problems.errors.push(self.problem(
                    "mcp_skills::bad_path",
                    format!("skill `{dir}`: the path of its file `{path}` {why}{more}"),
                    "name files and directories with letters, digits and `-._~`, so each path is part of a URI",
                ));
                continue;
            }
            if let Some(entry) = self.skill(dir, bytes, problems) {
                found.push(entry);
            }
        }
        found
    }

    /// The paths that cannot be part of a `skill://` URI, with why.
    fn unusable_paths(&self) -> Vec<(&str, &'static str)> {
        let mut unusable = Vec::new();
        for path in self.files.keys() {
            let why = if path
                .split('/')
                .any(|s| s.is_empty() || s == "." || s == "..")
            {
                Some("has an empty, `.` or `..` segment")
            } else if !path
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/".contains(c))
            {
                Some("holds a character a URI path cannot carry as it is")
            } else if self
                .files
                .range(format!("{path}/")..)
                .next()
                .is_some_and(|(next, _)| next.starts_with(&format!("{path}/")))
            {
                Some("names a file and a directory at once")
            } else {
                None
            };
            if let Some(why) = why {
                unusable.push((path.as_str(), why));
            }
        }
        unusable
    }

    /// The skill in directory `dir`, whose SKILL.md holds `bytes`.
    fn skill(&self, dir: &str, bytes: &[u8], problems: &mut Problems) -> Option<Found> {
        let at = |code: &str, message: String, help: &str| self.problem(code, message, help);
        let frontmatter = match frontmatter::parse(bytes) {
            Ok(frontmatter) => frontmatter,
            Err(problem) => {
                problems.errors.push(at(
                    problem.code,
                    format!("skill `{dir}`: {}", problem.message),
                    problem.help,
                ));
                return None;
            }
        };
        let segment = file_name(dir);
        let before = problems.errors.len();
        for field in ["name", "description"] {
            match frontmatter.get(field).and_then(|v| v.as_str()) {
                Some(value) if !value.trim().is_empty() => {}
                _ => problems.errors.push(at(
                    "mcp_skills::missing_field",
                    format!("skill `{dir}`: its frontmatter has no `{field}`"),
                    "every SKILL.md frontmatter gives a `name` and a `description`, as text",
                )),
            }
        }
        if let Some(name) = frontmatter.get("name").and_then(|v| v.as_str()) {
            if let Some(rule) = broken_rule(name) {
                problems.errors.push(at(
                    "mcp_skills::bad_name",
                    format!("skill `{dir}`: its name `{name}` {rule}"),
                    "a name is 1 to 64 lowercase letters, digits and single hyphens, not at either end",
                ));
            } else if name != segment {
                problems.errors.push(at(
                    "mcp_skills::name_mismatch",
                    format!(
                        "skill `{dir}`: its name `{name}` differs from its directory `{segment}`"
                    ),
                    &format!("rename the directory to `{name}`, or the skill to `{segment}`"),
                ));
            }
        }
        let description = frontmatter.get("description").and_then(|v| v.as_str());
        if description.is_some_and(|d| d.chars().count() > 1024) {
            problems.errors.push(at(
                "mcp_skills::long_description",
                format!("skill `{dir}`: its description is longer than 1024 characters"),
                "shorten the description; the body of SKILL.md holds the rest",
            ));
        }
        if problems.errors.len() > before {
            return None;
        }
        let prefix = format!("{dir}/");
        let files: Vec<String> = self
            .files
            .keys()
            .filter(|p| p.starts_with(&prefix))
            .cloned()
            .collect();
        let manifest = self.manifest(&files);
        if let Manifest::Files(listed) = &manifest {
            let bytes: u64 = listed.iter().map(|f| f.size).sum();
            if listed.len() > MAX_FILES || bytes > MAX_BYTES {
                problems.warnings.push(format!(
                    "skill `{dir}` ({}) has {} files and {bytes} bytes, beyond the 512 files and 16 MiB a client must accept; a client may refuse it",
                    self.label,
                    listed.len()
                ));
            }
        }
        Some(Found {
            entry: SkillEntry {
                uri: uri_of(&format!("{dir}/{SKILL_MD}")),
                frontmatter,
                resources: manifest,
            },
            path: dir.to_owned(),
            files,
        })
    }

    /// The manifest of `files`: `"dynamic"` when one is made per read.
    fn manifest(&self, files: &[String]) -> Manifest {
        let mut listed = Vec::with_capacity(files.len());
        for path in files {
            match &self.files[path] {
                Content::Bytes(bytes) => listed.push(ManifestFile {
                    uri: uri_of(path),
                    digest: digest(bytes),
                    size: bytes.len() as u64,
                }),
                Content::Made { .. } => return Manifest::Dynamic,
            }
        }
        Manifest::Files(listed)
    }

    /// A diagnostic about this place.
    pub(crate) fn problem(&self, code: &str, message: impl Into<String>, help: &str) -> Diagnostic {
        Diagnostic::new(code.to_owned(), message)
            .note(self.at())
            .help(help)
    }

    /// Where this place is, for a diagnostic's note.
    pub(crate) fn at(&self) -> String {
        format!("in {}, declared at {}", self.label, self.origin)
    }
}

/// The last segment of `path`: a file's or directory's name.
pub(crate) fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The directory of a `SKILL.md` at `path` (`""` at the root), or `None`
/// for another file.
pub(crate) fn skill_dir(path: &str) -> Option<&str> {
    if path == SKILL_MD {
        return Some("");
    }
    path.strip_suffix(SKILL_MD)?.strip_suffix('/')
}

/// The Agent Skills naming rule `name` breaks, if any.
pub(crate) fn broken_rule(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("is empty")
    } else if name.chars().count() > 64 {
        Some("is longer than 64 characters")
    } else if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        Some("holds a character other than a lowercase letter, a digit or a hyphen")
    } else if name.starts_with('-') || name.ends_with('-') {
        Some("starts or ends with a hyphen")
    } else if name.contains("--") {
        Some("holds two hyphens in a row")
    } else {
        None
    }
}
