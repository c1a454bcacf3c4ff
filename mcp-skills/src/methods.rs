//! `skills/list`, `skills/get` and `resources/directory/read`: answered
//! from the index, for what the caller may see. A skill, file or
//! directory the caller may not see answers as one that does not exist.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use mcp_server::RequestContext;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::resources::Resource;
use mcp_server::core::result::CacheScope;
use mcp_server::handler::handler_fn;
use mcp_server::seam::TargetKind;
use mcp_server::seam::contributor::Contributions;

use crate::config::SkillsSection;
use crate::registry::{Index, Registry};
use crate::serve::freshness;
use crate::skill::file_name;
use crate::wire::{
    DIRECTORY_MIME_TYPE, GetSkill, GetSkillResult, ListSkills, ListSkillsResult, Manifest,
    ReadDirectory, ReadDirectoryResult, SkillEntry,
};

/// What the methods answer from.
#[derive(Clone)]
pub(crate) struct Answers {
    pub(crate) registry: Arc<Registry>,
    pub(crate) section: SkillsSection,
}

/// Contributes the methods: the two the extension requires, and the
/// directory read when it is served.
pub(crate) fn contribute(answers: &Answers, into: &mut Contributions<'_>) {
    let list = answers.clone();
    into.method::<ListSkills>(handler_fn::<ListSkills, _, _, _>(move |ctx, params| {
        let answers = list.clone();
        async move { answers.list(&ctx, params.cursor.as_deref()) }
    }));
    let get = answers.clone();
    into.method::<GetSkill>(handler_fn::<GetSkill, _, _, _>(move |ctx, params| {
        let answers = get.clone();
        async move { answers.get(&ctx, &params.uri) }
    }));
    if answers.section.directory_read {
        let read = answers.clone();
        into.method::<ReadDirectory>(handler_fn::<ReadDirectory, _, _, _>(move |ctx, params| {
            let answers = read.clone();
            async move { answers.directory(&ctx, &params.uri, params.cursor.as_deref()) }
        }));
    }
}

/// Whether the caller may see the resource at `uri`.
fn sees(ctx: &RequestContext, uri: &str) -> bool {
    ctx.may_see(TargetKind::Resource, uri)
}

/// Whether the caller may see the directory `uri` of `index`: a skill it
/// is part of, and a file below it.
fn sees_directory(ctx: &RequestContext, index: &Index, uri: &str) -> bool {
    index.directories.get(uri).is_some_and(|directory| {
        directory.skills.iter().any(|skill| sees(ctx, skill))
            && directory.below.iter().any(|file| sees(ctx, file))
    })
}

impl Answers {
    fn list(
        &self,
        ctx: &RequestContext,
        cursor: Option<&str>,
    ) -> Result<ListSkillsResult, ErrorObject> {
        let index = self.registry.index();
        let visible: Vec<&Arc<SkillEntry>> = index
            .skills
            .values()
            .filter(|s| sees(ctx, &s.uri))
            .collect();
        let (page, next_cursor) = self.page(&visible, |s| &s.uri, cursor)?;
        let (ttl_ms, cache_scope) = freshness(ctx, self.section.ttl_ms, CacheScope::Private);
        Ok(ListSkillsResult {
            skills: page.into_iter().map(|s| seen(ctx, s)).collect(),
            next_cursor,
            ttl_ms,
            cache_scope,
            ..ListSkillsResult::default()
        })
    }

    fn get(&self, ctx: &RequestContext, uri: &str) -> Result<GetSkillResult, ErrorObject> {
        let index = self.registry.index();
        let skill = index
            .skills
            .get(uri)
            .filter(|s| sees(ctx, &s.uri))
            .ok_or_else(|| ErrorObject::invalid_params(format!("Unknown skill: {uri}")))?;
        let (ttl_ms, cache_scope) = freshness(ctx, self.section.ttl_ms, CacheScope::Private);
        Ok(GetSkillResult {
            result_type: Default::default(),
            skill: seen(ctx, skill),
            ttl_ms,
            cache_scope,
        })
    }

    fn directory(
        &self,
        ctx: &RequestContext,
        uri: &str,
        cursor: Option<&str>,
    ) -> Result<ReadDirectoryResult, ErrorObject> {
        let index = self.registry.index();
        let Some(directory) = index
            .directories
            .get(uri)
            .filter(|_| sees_directory(ctx, &index, uri))
        else {
            return Err(ErrorObject::invalid_params(format!(
                "Unknown directory: {uri}"
            )));
        };
        let visible: Vec<&(String, bool)> = directory
            .children
            .iter()
            .filter(|(child, is_directory)| match is_directory {
                true => sees_directory(ctx, &index, child),
                false => sees(ctx, child),
            })
            .collect();
        let (page, next_cursor) = self.page(&visible, |(child, _)| child, cursor)?;
        let (ttl_ms, cache_scope) = freshness(ctx, self.section.ttl_ms, CacheScope::Private);
        Ok(ReadDirectoryResult {
            resources: page
                .into_iter()
                .map(|(child, is_directory)| child_of(&index, child, *is_directory))
                .collect(),
            next_cursor,
            ttl_ms,
            cache_scope,
            ..ReadDirectoryResult::default()
        })
    }

    /// One page of `visible`, from where `cursor` says, and the cursor of
    /// the next. A cursor names its offset and the list it was issued for
    /// (a digest of what the caller saw), so that it is refused once that
    /// list changed, and tells nothing of what the caller may not see.
    fn page<'v, T>(
        &self,
        visible: &'v [T],
        key: impl Fn(&T) -> &String,
        cursor: Option<&str>,
    ) -> Result<(Vec<&'v T>, Option<String>), ErrorObject> {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        for item in visible {
            key(item).hash(&mut hasher);
        }
        let listing = hasher.finish();
        let start = match cursor {
            None => 0,
            Some(cursor) => {
                let parsed = cursor.split_once('.').and_then(|(l, o)| {
                    Some((u64::from_str_radix(l, 16).ok()?, o.parse::<usize>().ok()?))
                });
                match parsed {
                    Some((issued, offset)) if issued == listing => offset,
                    Some(_) => {
                        return Err(ErrorObject::invalid_params(format!(
                            "Stale cursor: {cursor:?} was issued before the list changed; list again from the start"
                        )));
                    }
                    None => {
                        return Err(ErrorObject::invalid_params(format!(
                            "Invalid cursor: {cursor:?} was not issued by this server"
                        )));
                    }
                }
            }
        };
        let page_size = self.section.page_size.max(1);
        let page: Vec<&T> = visible.iter().skip(start).take(page_size).collect();
        let end = start.saturating_add(page.len());
        let next = (end < visible.len()).then(|| format!("{listing:016x}.{end}"));
        Ok((page, next))
    }
}

/// One child of a directory, as a resource: a file named by its file name,
/// with its MIME type and size; a directory as `inode/directory`.
fn child_of(index: &Index, uri: &str, is_directory: bool) -> Resource {
    let file = (!is_directory).then(|| index.files.get(uri)).flatten();
    file.cloned().unwrap_or_else(|| Resource {
        uri: uri.to_owned(),
        name: file_name(uri).to_owned(),
        mime_type: Some(DIRECTORY_MIME_TYPE.to_owned()),
        ..Resource::default()
    })
}

/// The entry the caller of `ctx` sees: the files it may not read are not
/// listed.
fn seen(ctx: &RequestContext, skill: &SkillEntry) -> SkillEntry {
    let mut entry = skill.clone();
    if let Manifest::Files(files) = &mut entry.resources {
        files.retain(|f| sees(ctx, &f.uri));
    }
    entry
}
