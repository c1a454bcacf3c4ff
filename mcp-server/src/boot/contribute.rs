//! Running the contributors and taking the union of what they contribute:
//! one value per identity, every other one a collision naming both parties.

use std::sync::Arc;

use mcp_core::completion::Complete;
use mcp_core::prompts::{GetPrompt, Prompt};
use mcp_core::resources::{ReadResource, Resource, ResourceTemplate};
use mcp_core::tools::{CallTool, Tool};

use super::collect::Parts;
use crate::dispatch::ErasedMethod;
use crate::handler::notification::ErasedNotification;
use crate::seam::contributor::{
    CompletionRef, Contributed, Contributions, Contributors, WithHandler,
};
use crate::server::report::Registered;
use crate::vocabulary::seam::SeamWord;
use crate::vocabulary::sort;
use crate::vocabulary::{BootContext, BootError, Origin, TargetKind};

/// Every contribution, one per identity.
pub(super) struct Union {
    pub(super) tools: Vec<WithHandler<Tool, CallTool>>,
    pub(super) prompts: Vec<WithHandler<Prompt, GetPrompt>>,
    pub(super) resources: Vec<WithHandler<Resource, ReadResource>>,
    pub(super) templates: Vec<WithHandler<ResourceTemplate, ReadResource>>,
    pub(super) completions: Vec<WithHandler<CompletionRef, Complete>>,
    pub(super) methods: Vec<Contributed<Arc<dyn ErasedMethod>>>,
    pub(super) notifications: Vec<Contributed<Arc<dyn ErasedNotification>>>,
    /// The kinds served whether boot assembled members of them or not.
    pub(super) served: std::collections::BTreeSet<TargetKind>,
}

/// Runs every contributor and unions what they contribute.
pub(super) fn union(parts: &mut Parts, boot: &BootContext, errors: &mut Vec<BootError>) -> Union {
    let mut all = Contributions::new(Origin::FRAMEWORK, boot);
    for contributor in boot.entries::<Contributors>() {
        let mut contributions = Contributions::new(contributor.origin, boot);
        contributor.member.contribute(&mut contributions);
        all.tools.append(&mut contributions.tools);
        all.prompts.append(&mut contributions.prompts);
        all.resources.append(&mut contributions.resources);
        all.templates.append(&mut contributions.templates);
        all.completions.append(&mut contributions.completions);
        all.methods.append(&mut contributions.methods);
        all.notifications.append(&mut contributions.notifications);
        all.served.append(&mut contributions.served);
    }
    let union = Union {
        tools: keep_one(TargetKind::Tool, all.tools, |(t, _)| t.name.clone(), errors),
        prompts: keep_one(
            TargetKind::Prompt,
            all.prompts,
            |(p, _)| p.name.clone(),
            errors,
        ),
        resources: keep_one(
            TargetKind::Resource,
            all.resources,
            |(r, _)| r.uri.clone(),
            errors,
        ),
        templates: keep_one(
            TargetKind::ResourceTemplate,
            all.templates,
            |(t, _)| t.uri_template.clone(),
            errors,
        ),
        completions: keep_one(
            TargetKind::Completion,
            all.completions,
            |(r, _)| r.to_string(),
            errors,
        ),
        // Methods collide per era, once the built-in routes are known.
        methods: all.methods,
        notifications: all.notifications,
        served: all.served,
    };
    union.record(&mut parts.registered);
    union
}

impl Union {
    /// Records every contribution in the report.
    fn record(&self, registered: &mut Vec<Registered>) {
        let mut add = |kind: &str, name: String, origin: Origin| {
            registered.push(Registered {
                seam: SeamWord::Contributor,
                kind: kind.into(),
                name,
                order: None,
                origin,
                experimental: false,
            });
        };
        for t in &self.tools {
            add("tool", t.value.0.name.clone(), t.origin);
        }
        for p in &self.prompts {
            add("prompt", p.value.0.name.clone(), p.origin);
        }
        for r in &self.resources {
            add("resource", r.value.0.uri.clone(), r.origin);
        }
        for t in &self.templates {
            add(
                "resource template",
                t.value.0.uri_template.clone(),
                t.origin,
            );
        }
        for c in &self.completions {
            add("completion", c.value.0.to_string(), c.origin);
        }
        for m in &self.methods {
            add("method", m.value.name().to_owned(), m.origin);
        }
        for n in &self.notifications {
            add("notification", n.value.name().to_owned(), n.origin);
        }
    }
}

/// Keeps one contribution per identity; every other one is a collision.
fn keep_one<T>(
    kind: TargetKind,
    mut items: Vec<Contributed<T>>,
    key: impl Fn(&T) -> String,
    errors: &mut Vec<BootError>,
) -> Vec<Contributed<T>> {
    sort::sort_by_cached_key(&mut items, |c| (key(&c.value), c.origin));
    let mut kept: Vec<Contributed<T>> = Vec::with_capacity(items.len());
    let mut last_key: Option<String> = None;
    for item in items {
        let k = key(&item.value);
        if last_key.as_deref() == Some(k.as_str()) {
            let first = kept.last().expect("a kept item for the same key").origin;
            errors.push(BootError::Duplicate {
                kind,
                name: k,
                first,
                second: item.origin,
            });
            continue;
        }
        last_key = Some(k);
        kept.push(item);
    }
    kept
}
