//! Applying a change to the runtime catalog: boot again, for the members it
//! touches. Each member it adds is folded by the customizers and chained as
//! boot does; the new snapshot replaces the old one whole, or nothing
//! changes.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use mcp_core::completion::{Complete, CompleteResult};
use mcp_core::method::Method;

use super::chains::ChainBuilder;
use super::fold::Folder;
use super::routes::completion_chain;
use super::validate::Validators;
use crate::catalog::{
    Applied, CatalogChange, CatalogEntry, CatalogReport, Contents, Edit, Editor, Refused, Since,
    Step,
};
use crate::context::RequestContext;
use crate::dispatch::dynamic::{Completer, Dynamic, Dynamically, Member, Snapshot};
use crate::dispatch::{
    Audience, Guards, ListItems, Listed, NotFound, every, unknown_prompt, unknown_resource,
    unknown_tool,
};
use crate::handler::resource::UriTemplate;
use crate::handler::{Handler, handler_fn};
use crate::seam::contributor::CompletionRef;
use crate::seam::contributor::catalog::CatalogContributor;
use crate::seam::sink::{Change, ChangeSink, Fanout, Topic};
use crate::server::{Server, ServerInner};
use crate::vocabulary::sorted_map::SortedMap;
use crate::vocabulary::{BootContext, BootError, Diagnostic, Origin, TargetKind, closest, lock};

/// What boot assembled, by kind and identity: the identities a change may
/// not take, replace or remove.
#[derive(Default)]
pub(crate) struct Assembled {
    pub(crate) tools: HashMap<String, Origin>,
    pub(crate) prompts: HashMap<String, Origin>,
    pub(crate) resources: HashMap<String, Origin>,
    pub(crate) templates: HashMap<String, Origin>,
    /// Whether boot assembled a completion, so that `completion/complete`
    /// is served.
    pub(crate) completions: bool,
    /// The kinds a contributor declared served, members of boot or not.
    pub(crate) served: BTreeSet<TargetKind>,
}

impl Assembled {
    fn of(&self, kind: TargetKind) -> &HashMap<String, Origin> {
        match kind {
            TargetKind::Tool => &self.tools,
            TargetKind::Prompt => &self.prompts,
            TargetKind::Resource => &self.resources,
            _ => &self.templates,
        }
    }

    /// Whether the server serves members of `kind` (and advertises them):
    /// boot assembled one; a resource or a template serves both.
    pub(crate) fn serves(&self, kind: TargetKind) -> bool {
        match kind {
            TargetKind::Resource | TargetKind::ResourceTemplate => {
                !self.resources.is_empty()
                    || !self.templates.is_empty()
                    || self.served.contains(&TargetKind::Resource)
            }
            kind => !self.of(kind).is_empty() || self.served.contains(&kind),
        }
    }
}

/// The runtime catalog of one server, with what boot assembled it from.
pub(crate) struct RuntimeCatalog {
    pub(crate) boot: Arc<BootContext>,
    pub(crate) dynamic: Arc<Dynamic>,
    pub(crate) assembled: Assembled,
    pub(crate) changes: Arc<Fanout>,
    /// One change at a time, each on the snapshot the one before left.
    pub(crate) writer: Mutex<()>,
    /// The server, for the validators to inspect a change before it applies.
    pub(crate) server: OnceLock<Weak<ServerInner>>,
    /// The catalog contributors, by name.
    pub(crate) contributors: SortedMap<String, Arc<dyn CatalogContributor>>,
    /// What each catalog contributor serves, by name; one reload at a time.
    pub(crate) served: Mutex<HashMap<String, Served>>,
    /// This instance, told apart from the others sharing its change sink.
    pub(crate) instance: u64,
    /// Which customizers of one handler found theirs among the members
    /// added so far (boot checks the rest after the first loads).
    pub(crate) matched: Mutex<Folder>,
}

impl Editor for RuntimeCatalog {
    fn apply(&self, change: CatalogChange) -> Result<Applied, Refused> {
        let _writer = lock(&self.writer);
        let current = self.dynamic.load();
        if change.is_empty() {
            return Ok(Applied {
                version: current.version,
                ..Applied::default()
            });
        }
        let mut snapshot = (*current).clone();
        snapshot.version += 1;
        let mut draft = Draft {
            assembled: &self.assembled,
            boot: &self.boot,
            origin: change.origin,
            folder: Folder::default(),
            chains: ChainBuilder::new(&self.boot),
            errors: Vec::new(),
            applied: Applied {
                version: snapshot.version,
                ..Applied::default()
            },
            audiences: Default::default(),
            scope: change.scope,
            snapshot,
        };
        for edit in change.edits {
            match edit {
                Edit::Tool(step) => {
                    let key = draft.step(step, unknown_tool);
                    draft.applied.tools.extend(key);
                }
                Edit::Prompt(step) => {
                    let key = draft.step(step, unknown_prompt);
                    draft.applied.prompts.extend(key);
                }
                Edit::Resource(step) => {
                    let key = draft.step(step, unknown_resource);
                    draft.applied.resources.extend(key);
                }
                Edit::Template(step) => {
                    let key = draft.step(step, unknown_resource);
                    draft.applied.templates.extend(key);
                }
                Edit::Complete(reference, handler) => draft.complete(&reference, handler),
            }
        }
        if draft.errors.is_empty() {
            draft.validate(self);
        }
        if !draft.errors.is_empty() {
            return Err(Refused(draft.errors));
        }
        let Draft {
            snapshot,
            applied,
            audiences: [tools, prompts, resources],
            folder,
            ..
        } = draft;
        self.dynamic.store(snapshot);
        lock(&self.matched).absorb(folder);
        // Each list's change, heard by those who may see a member it touched.
        let lists = [
            (Change::tools_list_changed(), tools),
            (Change::prompts_list_changed(), prompts),
            (Change::resources_list_changed(), resources),
        ];
        // This instance's catalog changed, not the others': its listeners
        // alone hear of it (another instance hears of a contributor's
        // reload through its notice, and reloads).
        for (change, audience) in lists {
            if !audience.is_empty() {
                self.changes
                    .hub()
                    .deliver(Audience::screen(change, audience));
            }
        }
        Ok(applied)
    }

    fn reload(&self, name: &str) -> Result<Applied, Refused> {
        let applied = self.reload_locally(name)?;
        // Every other instance reloads the same contributor from the same
        // source; the notice is heard by no listener.
        let notice = Change::new(RELOADED, Topic::Flag(RELOADED.into()))
            .with_params(serde_json::json!({ "contributor": name, "instance": self.instance }));
        self.changes.publish(Audience::screen(notice, Vec::new()));
        Ok(applied)
    }

    fn reload_here(&self, name: &str) -> Result<Applied, Refused> {
        self.reload_locally(name)
    }

    fn version(&self) -> u64 {
        self.dynamic.peek().version
    }

    fn contents(&self) -> Contents {
        let snapshot = self.dynamic.load();
        Contents {
            tools: every(None, &snapshot),
            prompts: every(None, &snapshot),
            resources: every(None, &snapshot),
            templates: every(None, &snapshot),
        }
    }

    fn report(&self) -> CatalogReport {
        let snapshot = self.dynamic.load();
        let mut entries = Vec::new();
        let kinds = [
            (TargetKind::Tool, &self.assembled.tools),
            (TargetKind::Prompt, &self.assembled.prompts),
            (TargetKind::Resource, &self.assembled.resources),
            (TargetKind::ResourceTemplate, &self.assembled.templates),
        ];
        for (kind, assembled) in kinds {
            entries.extend(assembled.iter().map(|(key, origin)| CatalogEntry {
                kind,
                key: key.clone(),
                origin: *origin,
                since: Since::Boot,
            }));
        }
        entries_of(&snapshot.tools, &mut entries);
        entries_of(&snapshot.prompts, &mut entries);
        entries_of(&snapshot.resources, &mut entries);
        entries_of(&snapshot.templates, &mut entries);
        CatalogReport::new(snapshot.version, entries)
    }

    fn may_see(&self, ctx: &RequestContext, kind: TargetKind, key: &str) -> bool {
        let Some(server) = self.server.get().and_then(Weak::upgrade) else {
            return false;
        };
        let boot = &server.catalogue;
        let snapshot = self.dynamic.peek();
        match kind {
            TargetKind::Tool => sees(ctx, boot.tools.as_ref(), &snapshot, key),
            TargetKind::Prompt => sees(ctx, boot.prompts.as_ref(), &snapshot, key),
            TargetKind::Resource => sees(ctx, boot.resources.as_ref(), &snapshot, key),
            TargetKind::ResourceTemplate => sees(ctx, boot.templates.as_ref(), &snapshot, key),
            TargetKind::Completion | TargetKind::Method => false,
        }
    }
}

/// Whether the caller of `ctx` may see the member `key` of kind `D`, of
/// boot or of `snapshot`.
fn sees<D: Dynamically>(
    ctx: &RequestContext,
    boot: Option<&Arc<ListItems<D>>>,
    snapshot: &Snapshot,
    key: &str,
) -> bool {
    boot.and_then(|items| items.find(key))
        .or_else(|| D::member(snapshot, key))
        .is_some_and(|item| item.guards.allow(ctx))
}

/// The method and topic of the notice that a catalog contributor was
/// reloaded on one instance, which every other instance follows.
const RELOADED: &str = "io.modelcontextprotocol.mcp-server/catalogReloaded";

impl RuntimeCatalog {
    /// Reloads the catalog contributor `name` on this instance only.
    fn reload_locally(&self, name: &str) -> Result<Applied, Refused> {
        let Some(contributor) = self.contributors.get(name) else {
            let diagnostic = Diagnostic::new(
                "mcp::unknown_catalog_contributor",
                format!("no catalog contributor is named `{name}`"),
            );
            let names = self.contributors.keys().map(String::as_str);
            return Err(Refused(vec![BootError::Extension(
                match closest(name, names) {
                    Some(closest) => diagnostic.help(format!("did you mean `{closest}`?")),
                    None => diagnostic.note("no catalog contributor is registered"),
                },
            )]));
        };
        let mut served = lock(&self.served);
        let mut before = served.remove(name).unwrap_or_default();
        // What a change through `Catalog::apply` removed meanwhile is not served.
        let current = self.dynamic.load();
        before.retain(|(kind, key), ()| holds(&current, *kind, key));
        let loaded = match contributor.load() {
            Ok(loaded) => loaded,
            Err(diagnostic) => {
                served.insert(name.to_owned(), before);
                return Err(Refused(vec![BootError::Extension(
                    diagnostic.note(format!("while loading catalog contributor `{name}`")),
                )]));
            }
        };
        let (change, now) = since(loaded, &before);
        match self.apply(change) {
            Ok(applied) => {
                served.insert(name.to_owned(), now);
                Ok(applied)
            }
            Err(refused) => {
                served.insert(name.to_owned(), before);
                Err(refused)
            }
        }
    }

    /// Follows the other instances' reloads: on each notice, reloads the
    /// contributor it names here, on a thread of its own, until the
    /// server's changes end.
    pub(crate) fn follow(self: &Arc<Self>) {
        let mut feed = self.changes.hub().legacy_feed();
        let catalog = Arc::downgrade(self);
        let spawned = std::thread::Builder::new()
            .name("catalog-follower".into())
            .spawn(move || {
                loop {
                    let change = match feed.blocking_recv() {
                        Ok(change) => change,
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                    };
                    if change.method != RELOADED {
                        continue;
                    }
                    let Some(catalog) = catalog.upgrade() else {
                        return;
                    };
                    let from = change.params.get("instance").and_then(|i| i.as_u64());
                    let name = change.params.get("contributor").and_then(|n| n.as_str());
                    let (Some(from), Some(name)) = (from, name) else {
                        continue;
                    };
                    if from == catalog.instance {
                        continue;
                    }
                    if let Err(refused) = catalog.reload_locally(name) {
                        tracing::warn!(contributor = name, %refused, "another instance reloaded a catalog contributor, and this one could not");
                    }
                }
            });
        if let Err(error) = spawned {
            tracing::warn!(%error, "this instance does not follow the others' catalog reloads");
        }
    }
}

/// The change from what a contributor served (`before`) to what it loaded:
/// kept members replaced, new ones added, the rest removed; and what it
/// serves with the change in.
fn since(loaded: CatalogChange, before: &Served) -> (CatalogChange, Served) {
    let mut now = Served::new();
    let mut edits = Vec::with_capacity(loaded.edits.len());
    for edit in loaded.edits {
        if edit.removes() {
            continue;
        }
        // Completions go with their prompt or template.
        if matches!(edit, Edit::Complete(..)) {
            edits.push(edit);
            continue;
        }
        let (kind, key) = edit.target();
        let target = (kind, key.to_owned());
        // Twice in one load, the second is an add, which collides as at boot.
        let kept = before.contains_key(&target) && !now.contains_key(&target);
        now.insert(target, ());
        edits.push(edit.present(kept));
    }
    for (kind, key) in before.keys().filter(|target| !now.contains_key(*target)) {
        edits.push(Edit::removal(*kind, key.clone()));
    }
    let change = CatalogChange { edits, ..loaded };
    (change, now)
}

/// The members one catalog contributor serves, by kind and identity.
type Served = SortedMap<(TargetKind, String), ()>;

/// Whether `snapshot` holds the member `key` of `kind`.
fn holds(snapshot: &Snapshot, kind: TargetKind, key: &str) -> bool {
    match kind {
        TargetKind::Tool => snapshot.tools.contains_key(key),
        TargetKind::Prompt => snapshot.prompts.contains_key(key),
        TargetKind::Resource => snapshot.resources.contains_key(key),
        _ => snapshot.templates.contains_key(key),
    }
}

/// The report's entries of one shelf.
fn entries_of<D: Dynamically, M: Method>(
    shelf: &SortedMap<Arc<str>, Arc<Member<D, M>>>,
    entries: &mut Vec<CatalogEntry>,
) {
    entries.extend(shelf.iter().map(|(key, member)| CatalogEntry {
        kind: D::KIND,
        key: key.to_string(),
        origin: member.origin,
        since: Since::Version(member.since),
    }));
}

/// One change being applied: the snapshot it builds, and what it found.
struct Draft<'a> {
    assembled: &'a Assembled,
    boot: &'a BootContext,
    origin: Origin,
    folder: Folder,
    chains: ChainBuilder<'a>,
    errors: Vec<BootError>,
    applied: Applied,
    /// The change's own guards, for every member it adds or replaces.
    scope: Vec<Arc<dyn crate::seam::guard::Guard>>,
    /// By list (tools, prompts, resources and templates): the guards of
    /// every member touched, before and after.
    audiences: [Vec<Arc<Guards>>; 3],
    snapshot: Snapshot,
}

/// The list a kind's changes are announced on.
fn list_of(kind: TargetKind) -> usize {
    match kind {
        TargetKind::Tool => 0,
        TargetKind::Prompt => 1,
        _ => 2,
    }
}

impl Draft<'_> {
    /// Runs the validators of boot on the server as the change would leave
    /// it: what would fail boot refuses the change.
    fn validate(&mut self, catalog: &RuntimeCatalog) {
        let mut validators = self.boot.entries::<Validators>().peekable();
        if validators.peek().is_none() {
            return;
        }
        let Some(inner) = catalog.server.get().and_then(Weak::upgrade) else {
            return;
        };
        let view = Server::drafting(inner, Arc::new(self.snapshot.clone()));
        for validator in validators {
            for diagnostic in validator.member.validate(&view, self.boot) {
                self.errors.push(BootError::Extension(diagnostic));
            }
        }
    }

    /// Applies one step to the draft; the identity it touched, or `None`
    /// when it was refused (its reason is in `errors`).
    fn step<D: Dynamically>(
        &mut self,
        step: Step<D, D::Serves>,
        not_found: NotFound<D::Serves>,
    ) -> Option<String> {
        let (descriptor, handler, replaces) = match step {
            Step::Remove(key) => {
                if let Some(error) = self.uneditable::<D>(&key) {
                    self.errors.push(error);
                    return None;
                }
                if let Some(old) = D::shelf_mut(&mut self.snapshot).remove(key.as_str()) {
                    self.audiences[list_of(D::KIND)].push(old.listed.guards.clone());
                }
                if let Some(completers) = self.completers(D::KIND) {
                    completers.remove(key.as_str());
                }
                return Some(key);
            }
            Step::Add(descriptor, handler) => (descriptor, handler, false),
            Step::Replace(descriptor, handler) => (descriptor, handler, true),
        };
        let key = descriptor.key().to_owned();
        let taken = if !self.assembled.serves(D::KIND) {
            Some(not_served(D::KIND, &key, self.origin))
        } else if replaces {
            self.uneditable::<D>(&key)
        } else if let Some(first) = self.assembled.of(D::KIND).get(&key) {
            Some(duplicate(D::KIND, &key, *first, self.origin))
        } else {
            D::shelf(&self.snapshot)
                .get(key.as_str())
                .map(|first| duplicate(D::KIND, &key, first.origin, self.origin))
        };
        if let Some(error) = taken {
            self.errors.push(error);
            return None;
        }
        let pattern = if D::KIND == TargetKind::ResourceTemplate {
            match UriTemplate::parse(&key) {
                Ok(parsed) => Some(parsed),
                Err(reason) => {
                    self.errors.push(BootError::InvalidUriTemplate {
                        template: key,
                        origin: self.origin,
                        reason,
                    });
                    return None;
                }
            }
        } else {
            None
        };
        let mut config = self
            .folder
            .fold(descriptor, self.origin, self.boot, &mut self.errors);
        config.guards.extend(self.scope.iter().cloned());
        let listed = config.is_listed();
        let (descriptor, parts) = self.chains.configured(D::Serves::NAME, config);
        let guards = parts.guards.clone();
        let param_headers = descriptor.mirrored();
        let member = Arc::new(Member {
            listed: Listed {
                descriptor,
                guards,
                listed,
            },
            chain: Arc::new(parts.with(handler, not_found)),
            origin: self.origin,
            since: self.snapshot.version,
            pattern,
            param_headers,
        });
        if self.assembled.completions {
            let completer = self.fresh_completer(&member.listed.guards);
            if let Some(completers) = self.completers(D::KIND) {
                completers.insert(Arc::from(key.as_str()), Arc::new(completer));
            }
        }
        let old = D::shelf_mut(&mut self.snapshot).insert(Arc::from(key.as_str()), member.clone());
        let audience = &mut self.audiences[list_of(D::KIND)];
        match old {
            // A replacement its list shows as it was changes no list.
            Some(old)
                if old.listed.listed == member.listed.listed
                    && old.listed.descriptor == member.listed.descriptor => {}
            old => {
                audience.push(member.listed.guards.clone());
                audience.extend(old.map(|old| old.listed.guards.clone()));
            }
        }
        Some(key)
    }

    /// The completers of runtime members of `kind`, for the kinds that
    /// have completions (prompts and templates).
    fn completers(&mut self, kind: TargetKind) -> Option<&mut SortedMap<Arc<str>, Arc<Completer>>> {
        match kind {
            TargetKind::Prompt => Some(&mut self.snapshot.prompt_completions),
            TargetKind::ResourceTemplate => Some(&mut self.snapshot.template_completions),
            _ => None,
        }
    }

    /// The completions of a prompt or template just added: an empty answer
    /// for every argument, behind its guards, until `complete` adds some.
    fn fresh_completer(&self, guards: &Arc<Guards>) -> Completer {
        let none = Arc::new(handler_fn::<Complete, _, _, _>(|_, _| async {
            Ok(CompleteResult::default())
        })) as Arc<dyn Handler<Complete>>;
        let name = format!("(no completions) for {}", guards.target);
        let fallback = completion_chain(&self.chains, guards.clone(), name, self.origin, none);
        Completer {
            by_argument: SortedMap::new(),
            whole: None,
            fallback: Arc::new(fallback),
        }
    }

    /// Adds the completions `reference` names to a runtime prompt or
    /// template, behind its guards.
    fn complete(&mut self, reference: &CompletionRef, handler: Arc<dyn Handler<Complete>>) {
        let (kind, key, argument) = reference.completes();
        if !self.assembled.completions {
            let error = not_served(TargetKind::Completion, &reference.to_string(), self.origin);
            self.errors.push(error);
            return;
        }
        let origin = self.origin;
        let Some(completers) = self.completers(kind) else {
            return;
        };
        let Some(current) = completers.get(key).cloned() else {
            let closest = closest(key, completers.keys().map(|k| &**k));
            self.errors.push(BootError::CompletionWithoutTarget {
                reference: reference.to_string(),
                origin,
                closest,
            });
            return;
        };
        let mut completer = (*current).clone();
        let guards = completer.fallback.guards.clone();
        let chain = completion_chain(&self.chains, guards, reference.to_string(), origin, handler);
        match argument {
            Some(argument) => {
                completer
                    .by_argument
                    .insert(argument.to_owned(), Arc::new(chain));
            }
            None => completer.whole = Some(Arc::new(chain)),
        }
        if let Some(completers) = self.completers(kind) {
            completers.insert(Arc::from(key), Arc::new(completer));
        }
    }

    /// Why the member `key` may not be replaced or removed, if it may not:
    /// the runtime catalog must hold it, and boot must not have assembled it.
    fn uneditable<D: Dynamically>(&self, key: &str) -> Option<BootError> {
        let word = D::KIND.word();
        if let Some(fixed) = self.assembled.of(D::KIND).get(key) {
            return Some(BootError::Extension(
                Diagnostic::new(
                    "mcp::fixed_member",
                    format!(
                        "{word} `{key}` was assembled at boot, and a catalog change cannot replace or remove it"
                    ),
                )
                .note(format!("the {word}: {fixed}"))
                .note(format!("the change: {}", self.origin))
                .help(format!(
                    "change what boot assembles and build again, or add a runtime {word} of another identity"
                )),
            ));
        }
        let shelf = D::shelf(&self.snapshot);
        if shelf.contains_key(key) {
            return None;
        }
        let diagnostic = Diagnostic::new(
            "mcp::not_in_catalog",
            format!("{word} `{key}` is not in the runtime catalog"),
        )
        .note(format!("the change: {}", self.origin));
        Some(BootError::Extension(
            match closest(key, shelf.keys().map(|k| &**k)) {
                Some(closest) => diagnostic.help(format!("did you mean `{closest}`?")),
                None => diagnostic.help("add it first, in the same change or an earlier one"),
            },
        ))
    }
}

/// The diagnostic of boot for a member contributed twice.
fn duplicate(kind: TargetKind, key: &str, first: Origin, second: Origin) -> BootError {
    BootError::Duplicate {
        kind,
        name: key.to_owned(),
        first,
        second,
    }
}

/// A member of a kind the server does not serve.
fn not_served(kind: TargetKind, key: &str, origin: Origin) -> BootError {
    let word = kind.word();
    BootError::Extension(
        Diagnostic::new(
            "mcp::kind_not_served",
            format!("{word} `{key}` cannot be added: this server serves no {word}s"),
        )
        .note(format!("the change: {origin}"))
        .note(format!(
            "a server serves {word}s, and advertises them, when boot assembles at least one or a contributor declares them served"
        ))
        .help(format!(
            "contribute a {word} at boot, or declare the kind served with `Contributions::serve`"
        )),
    )
}
