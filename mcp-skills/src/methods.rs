//! `skills/list`, `skills/get` and `resources/directory/read`: answered
//! from the index, for what the caller may see. A skill, file or
//! directory a guard hides answers as one that does not exist.

use std::sync::Arc;

use mcp_server::RequestContext;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::resources::Resource;
use mcp_server::core::result::CacheScope;
use mcp_server::core::version::Era;
use mcp_server::handler::handler_fn;
use mcp_server::seam::TargetKind;
use mcp_server::seam::contributor::Contributions;

use crate::config::SkillsSection;
use crate::registry::{Index, Registry};
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

impl Answers {
    /// `ttlMs` and `cacheScope`, on 2026-07-28 only. What a caller sees
    /// depends on the guards, so no answer is shared between callers.
    fn cache(&self, ctx: &RequestContext) -> (Option<u64>, Option<CacheScope>) {
        match ctx.era() {
            Era::Modern => (Some(self.section.ttl_ms), Some(CacheScope::Private)),
            Era::Legacy => (None, None),
        }
    }

    fn list(
        &self,
        ctx: &RequestContext,
        cursor: Option<&str>,
    ) -> Result<ListSkillsResult, ErrorObject> {
        let index = self.registry.index();
        let start = start(&index, cursor)?;
        let mut visible = index.skills.values().filter(|s| sees(ctx, &s.uri));
        let page_size = self.section.page_size.max(1);
        let skills: Vec<SkillEntry> = visible
            .by_ref()
            .skip(start)
            .take(page_size)
            .map(|s| seen(ctx, s))
            .collect();
        let next_cursor = visible
            .next()
            .is_some()
            .then(|| format!("{}.{}", index.generation, start + skills.len()));
        let (ttl_ms, cache_scope) = self.cache(ctx);
        Ok(ListSkillsResult {
            skills,
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
        let (ttl_ms, cache_scope) = self.cache(ctx);
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
        let unknown = || ErrorObject::invalid_params(format!("Unknown directory: {uri}"));
        let index = self.registry.index();
        let directory = index.directories.get(uri).ok_or_else(unknown)?;
        if !directory.below.iter().any(|file| sees(ctx, file)) {
            return Err(unknown());
        }
        let start = start(&index, cursor)?;
        let mut visible = directory.children.iter().filter(|(child, is_directory)| {
            if *is_directory {
                index.directories[child]
                    .below
                    .iter()
                    .any(|file| sees(ctx, file))
            } else {
                sees(ctx, child)
            }
        });
        let page_size = self.section.page_size.max(1);
        let resources: Vec<Resource> = visible
            .by_ref()
            .skip(start)
            .take(page_size)
            .map(|(child, is_directory)| child_of(&index, child, *is_directory))
            .collect();
        let next_cursor = visible
            .next()
            .is_some()
            .then(|| format!("{}.{}", index.generation, start + resources.len()));
        let (ttl_ms, cache_scope) = self.cache(ctx);
        Ok(ReadDirectoryResult {
            resources,
            next_cursor,
            ttl_ms,
            cache_scope,
            ..ReadDirectoryResult::default()
        })
    }
}

/// One child of a directory, as a resource: a file as `resources/list`
/// would describe it, named by its file name; a directory as
/// `inode/directory`.
fn child_of(index: &Index, uri: &str, is_directory: bool) -> Resource {
    let file = (!is_directory).then(|| index.files.get(uri)).flatten();
    file.cloned().unwrap_or_else(|| Resource {
        uri: uri.to_owned(),
        name: uri.rsplit('/').next().unwrap_or(uri).to_owned(),
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

/// Where a page starts: 0, or what `cursor` says if the index it was
/// issued from is the current one.
fn start(index: &Index, cursor: Option<&str>) -> Result<usize, ErrorObject> {
    let Some(cursor) = cursor else {
        return Ok(0);
    };
    let parsed = cursor
        .split_once('.')
        .and_then(|(g, o)| Some((g.parse::<u64>().ok()?, o.parse::<usize>().ok()?)));
    match parsed {
        Some((generation, offset)) if generation == index.generation => Ok(offset),
        Some(_) => Err(ErrorObject::invalid_params(format!(
            "Stale cursor: {cursor:?} was issued before the skills changed; list again from the start"
        ))),
        None => Err(ErrorObject::invalid_params(format!(
            "Invalid cursor: {cursor:?} was not issued by this server"
        ))),
    }
}
