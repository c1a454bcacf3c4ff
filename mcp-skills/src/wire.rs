//! The wire of the Skills extension: its identifier, its methods and the
//! shapes they carry, as SEP-2640 and the extension's specification page
//! give them.

use mcp_server::core::json::JsonObject;
use mcp_server::core::resources::Resource;
use mcp_server::core::result::{CacheScope, ResultType};
use serde::{Deserialize, Serialize, Serializer};

/// The extension's identifier under `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/skills";
/// The URI scheme of skill files: `skill://<skill-path>/<file-path>`.
pub const URI_SCHEME: &str = "skill://";
/// The file at the root of every skill.
pub const SKILL_MD: &str = "SKILL.md";
/// The MIME type of `SKILL.md`.
pub const SKILL_MD_MIME_TYPE: &str = "text/markdown";
/// The MIME type of a directory resource.
pub const DIRECTORY_MIME_TYPE: &str = "inode/directory";
/// The prefix of the `_meta` keys that carry a `SKILL.md` resource's other
/// frontmatter fields.
pub const META_PREFIX: &str = "io.modelcontextprotocol.skills/";
/// The setting that says `resources/directory/read` is served.
pub const DIRECTORY_READ: &str = "directoryRead";

/// `skills/list`: the skills the caller may see, a page at a time.
#[derive(mcp_server::Method)]
#[mcp(name = "skills/list", params = ListSkillsParams, result = ListSkillsResult)]
pub struct ListSkills;

/// `skills/get`: one skill, by the URI of its `SKILL.md`.
#[derive(mcp_server::Method)]
#[mcp(name = "skills/get", params = GetSkillParams, result = GetSkillResult)]
pub struct GetSkill;

/// `resources/directory/read`: the direct children of a directory resource.
#[derive(mcp_server::Method)]
#[mcp(name = "resources/directory/read", params = ReadDirectoryParams, result = ReadDirectoryResult)]
pub struct ReadDirectory;

/// Params of `skills/list`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, mcp_server::Params)]
#[serde(rename_all = "camelCase")]
pub struct ListSkillsParams {
    /// Where the page starts: a `nextCursor` of an earlier page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// Params of `skills/get`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, mcp_server::Params)]
pub struct GetSkillParams {
    /// The URI of the skill's `SKILL.md`.
    pub uri: String,
}

/// Params of `resources/directory/read`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, mcp_server::Params)]
#[serde(rename_all = "camelCase")]
pub struct ReadDirectoryParams {
    /// The directory's URI, without a trailing `/`.
    pub uri: String,
    /// Where the page starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// One skill as `skills/list` and `skills/get` carry it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillEntry {
    /// The URI of its `SKILL.md`.
    pub uri: String,
    /// The frontmatter of its `SKILL.md`, every field as written.
    pub frontmatter: JsonObject,
    /// Every file of the skill, or `"dynamic"` when its content is made per read.
    pub resources: Manifest,
}

/// The files of a skill: each with the digest and size of its bytes, or
/// `"dynamic"`.
#[derive(Debug, Clone, PartialEq)]
pub enum Manifest {
    /// Every file, once, `SKILL.md` among them.
    Files(Vec<ManifestFile>),
    /// Content made per read, with no stable digest.
    Dynamic,
}

impl Serialize for Manifest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Manifest::Files(files) => files.serialize(serializer),
            Manifest::Dynamic => serializer.serialize_str("dynamic"),
        }
    }
}

impl<'de> Deserialize<'de> for Manifest {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Files(Vec<ManifestFile>),
            Word(String),
        }
        match Either::deserialize(deserializer)? {
            Either::Files(files) => Ok(Manifest::Files(files)),
            Either::Word(word) if word == "dynamic" => Ok(Manifest::Dynamic),
            Either::Word(word) => Err(serde::de::Error::custom(format!(
                "`resources` is a list of files or \"dynamic\", not {word:?}"
            ))),
        }
    }
}

/// One file of a skill's manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFile {
    /// Its resource URI.
    pub uri: String,
    /// `sha256:` and the lowercase hex SHA-256 of its bytes.
    pub digest: String,
    /// How many bytes it has.
    pub size: u64,
}

/// The result of `skills/list`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListSkillsResult {
    /// Always `complete`.
    #[serde(default)]
    pub result_type: ResultType,
    /// The skills on this page.
    pub skills: Vec<SkillEntry>,
    /// Where the next page starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// How long the answer stays fresh (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may reuse it (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
}

/// The result of `skills/get`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetSkillResult {
    /// Always `complete`.
    #[serde(default)]
    pub result_type: ResultType,
    /// The skill.
    pub skill: SkillEntry,
    /// How long the answer stays fresh (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may reuse it (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
}

/// The result of `resources/directory/read`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadDirectoryResult {
    /// Always `complete`.
    #[serde(default)]
    pub result_type: ResultType,
    /// The directory's direct children; a subdirectory is `inode/directory`.
    pub resources: Vec<Resource>,
    /// Where the next page starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// How long the answer stays fresh (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may reuse it (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
}
