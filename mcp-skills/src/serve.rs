//! The resources of a place's skills: one per file, described from the
//! skill's frontmatter, read from the bytes its manifest digests.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use mcp_server::RequestContext;
use mcp_server::catalog::CatalogChange;
use mcp_server::core::json::JsonObject;
use mcp_server::core::meta::Meta;
use mcp_server::core::resources::{
    BlobResourceContents, ReadResource, ReadResourceRequestParams, ReadResourceResult, Resource,
    ResourceContents, TextResourceContents,
};
use mcp_server::core::result::CacheScope;
use mcp_server::core::version::Era;
use mcp_server::handler::{Handler, HandlerResult};
use mcp_server::seam::contributor::Contributions;
use mcp_server::{BoxFuture, core::json::JsonValue};

use crate::registry::Accepted;
use crate::skill::{Content, file_name, skill_dir, uri_of};
use crate::wire::{META_PREFIX, SKILL_MD_MIME_TYPE};

/// Reads one file of a skill.
pub(crate) struct FileReader {
    mime_type: String,
    content: Content,
    /// How long a 2026-07-28 client may keep a file given as bytes.
    ttl_ms: u64,
}

impl Handler<ReadResource> for FileReader {
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: ReadResourceRequestParams,
    ) -> BoxFuture<'a, HandlerResult<ReadResourceResult>> {
        match &self.content {
            Content::Made { handler, .. } => handler.handle(ctx, params),
            Content::Bytes(bytes) => {
                let contents = contents(&params.uri, &self.mime_type, bytes);
                // The same bytes for every caller until the skill changes;
                // a guarded file is made private by the framework.
                let (ttl_ms, cache_scope) = freshness(ctx, self.ttl_ms, CacheScope::Public);
                Box::pin(async move {
                    Ok(ReadResourceResult {
                        contents: vec![contents],
                        ttl_ms,
                        cache_scope,
                        ..ReadResourceResult::default()
                    }
                    .into())
                })
            }
        }
    }
}

/// `ttlMs` and `cacheScope` of an answer to the request of `ctx`: on
/// 2026-07-28 only, which defines them.
pub(crate) fn freshness(
    ctx: &RequestContext,
    ttl_ms: u64,
    scope: CacheScope,
) -> (Option<u64>, Option<CacheScope>) {
    match ctx.era() {
        Era::Modern => (Some(ttl_ms), Some(scope)),
        Era::Legacy => (None, None),
    }
}

/// Text when the bytes are UTF-8, so a client hashes the same bytes;
/// base64 otherwise.
fn contents(uri: &str, mime_type: &str, bytes: &[u8]) -> ResourceContents {
    match std::str::from_utf8(bytes) {
        Ok(text) => ResourceContents::Text(TextResourceContents {
            uri: uri.to_owned(),
            mime_type: Some(mime_type.to_owned()),
            text: text.to_owned(),
            ..TextResourceContents::default()
        }),
        Err(_) => ResourceContents::Blob(BlobResourceContents {
            uri: uri.to_owned(),
            mime_type: Some(mime_type.to_owned()),
            blob: STANDARD.encode(bytes),
            ..BlobResourceContents::default()
        }),
    }
}

/// The MIME type of the file at `path`.
pub(crate) fn mime_type(path: &str, content: &Content) -> String {
    if let Content::Made { mime_type, .. } = content {
        return mime_type.clone();
    }
    if skill_dir(path).is_some() {
        return SKILL_MD_MIME_TYPE.to_owned();
    }
    mime_guess::from_path(path)
        .first_raw()
        .unwrap_or("application/octet-stream")
        .to_owned()
}

/// The file at `path` as a resource named by its file name.
pub(crate) fn resource(path: &str, content: &Content) -> Resource {
    Resource {
        uri: uri_of(path),
        name: file_name(path).to_owned(),
        mime_type: Some(mime_type(path, content)),
        size: match content {
            Content::Bytes(bytes) => Some(bytes.len() as u64),
            Content::Made { .. } => None,
        },
        ..Resource::default()
    }
}

/// Every file `accepted` serves, as a resource and its reader.
pub(crate) fn members(accepted: &Accepted, ttl_ms: u64) -> Vec<(Resource, FileReader)> {
    let frontmatter = |path: &str| {
        let dir = skill_dir(path)?;
        accepted
            .skills
            .iter()
            .find(|s| s.path == dir)
            .map(|s| &s.entry.frontmatter)
    };
    accepted
        .place
        .files
        .iter()
        .map(|(path, content)| {
            let mut resource = resource(path, content);
            if let Some(frontmatter) = frontmatter(path) {
                describe(&mut resource, frontmatter);
            }
            let reader = FileReader {
                mime_type: resource.mime_type.clone().unwrap_or_default(),
                content: content.clone(),
                ttl_ms,
            };
            (resource, reader)
        })
        .collect()
}

/// A SKILL.md resource: named and described by its frontmatter, with the
/// other fields under the extension's `_meta` prefix.
fn describe(resource: &mut Resource, frontmatter: &JsonObject) {
    let text = |field: &str| {
        frontmatter
            .get(field)
            .and_then(JsonValue::as_str)
            .map(str::to_owned)
    };
    if let Some(name) = text("name") {
        resource.name = name;
    }
    resource.description = text("description");
    let meta: JsonObject = frontmatter
        .iter()
        .filter(|(field, _)| *field != "name" && *field != "description")
        .map(|(field, value)| (format!("{META_PREFIX}{field}"), value.clone()))
        .collect();
    if !meta.is_empty() {
        resource.meta = Some(Meta(meta));
    }
}

/// Adds what `accepted` serves to a contributor's contributions.
pub(crate) fn contribute(accepted: &Accepted, ttl_ms: u64, into: &mut Contributions<'_>) {
    into.at(accepted.place.origin);
    for (resource, reader) in members(accepted, ttl_ms) {
        into.resource(resource, reader);
    }
}

/// A change that adds what `accepted` serves.
pub(crate) fn change(accepted: &Accepted, ttl_ms: u64) -> CatalogChange {
    let mut change = CatalogChange::new(accepted.place.origin);
    for (resource, reader) in members(accepted, ttl_ms) {
        change = change.add_resource(resource, reader);
    }
    change
}
