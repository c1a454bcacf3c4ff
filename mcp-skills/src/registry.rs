//! What a server's skills are: the places they come from, each checked
//! against the others, and the index the methods answer from.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use mcp_server::boot::Diagnostic;
use mcp_server::core::resources::Resource;

use crate::skill::{Found, Problems, Tree, uri_of};
use crate::wire::{SKILL_MD, SkillEntry};

/// A server's skills (one per server, shared from boot on).
#[derive(Default)]
pub(crate) struct Registry {
    state: Mutex<State>,
    index: RwLock<Arc<Index>>,
    /// Set once the server is built: problems then refuse a reload instead
    /// of waiting for boot's checks.
    pub(crate) booted: AtomicBool,
}

#[derive(Default)]
struct State {
    /// By source name.
    sources: BTreeMap<String, Accepted>,
    /// Errors found before the server was built, for boot's checks.
    errors: Vec<Diagnostic>,
    /// Warnings found before the server was built, for the boot report.
    warnings: Vec<String>,
    generation: u64,
}

/// What one place serves: the files kept and the skills among them.
#[derive(Clone)]
pub(crate) struct Accepted {
    pub(crate) tree: Tree,
    pub(crate) skills: Arc<Vec<Found>>,
}

/// The skills and files of every place, as the methods answer them.
#[derive(Default)]
pub(crate) struct Index {
    /// Changes with every change of any place; cursors carry it.
    pub(crate) generation: u64,
    /// Every skill, by the URI of its SKILL.md.
    pub(crate) skills: BTreeMap<String, Arc<SkillEntry>>,
    /// The URIs of every file served that is not a SKILL.md (unlisted).
    pub(crate) unlisted: BTreeSet<String>,
    /// Every file, as a directory lists it (named by its file name).
    pub(crate) files: BTreeMap<String, Resource>,
    /// Each directory of a skill: its direct children.
    pub(crate) directories: BTreeMap<String, Directory>,
}

/// One directory: its files and subdirectories, and every file below it.
#[derive(Default)]
pub(crate) struct Directory {
    /// Direct children: (URI, whether a directory).
    pub(crate) children: BTreeSet<(String, bool)>,
    /// Every file below it, at any depth.
    pub(crate) below: Vec<String>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Registry {
    /// The index as it is now.
    pub(crate) fn index(&self) -> Arc<Index> {
        self.index
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// What `tree` would serve as source `name`, checked against what the
    /// other sources serve: a skill whose URI another serves is left out.
    pub(crate) fn offer(&self, name: &str, tree: Tree) -> (Accepted, Problems) {
        let mut problems = Problems::default();
        let found = tree.skills(&mut problems);
        let state = lock(&self.state);
        let mut claimed: BTreeMap<&str, &Tree> = BTreeMap::new();
        for (other, accepted) in &state.sources {
            if other != name {
                for path in accepted.tree.files.keys() {
                    claimed.insert(path, &accepted.tree);
                }
            }
        }
        let mut skills = Vec::new();
        for skill in found {
            let skill_md = format!("{}/{SKILL_MD}", skill.path);
            if let Some(first) = claimed.get(skill_md.as_str()) {
                problems.errors.push(
                    Diagnostic::new(
                        "mcp_skills::duplicate_skill",
                        format!("skill `{}` is served twice", uri_of(&skill_md)),
                    )
                    .note(format!(
                        "first in {}, declared at {}",
                        first.place, first.origin
                    ))
                    .note(format!(
                        "again in {}, declared at {}",
                        tree.place, tree.origin
                    ))
                    .help("remove one of them, or move one under another directory"),
                );
                continue;
            }
            skills.push(skill);
        }
        // Only the files of the skills kept are served, each once.
        let kept: BTreeSet<&String> = skills.iter().flat_map(|s| s.files.iter()).collect();
        let files = tree
            .files
            .iter()
            .filter(|(path, _)| kept.contains(path) && !claimed.contains_key(path.as_str()))
            .map(|(path, content)| (path.clone(), content.clone()))
            .collect();
        drop(state);
        let accepted = Accepted {
            tree: Tree { files, ..tree },
            skills: Arc::new(skills),
        };
        (accepted, problems)
    }

    /// A source name no source has yet: `prefix` and a number.
    pub(crate) fn fresh_name(&self, prefix: &str) -> String {
        let state = lock(&self.state);
        format!("{prefix} #{}", state.sources.len() + state.errors.len())
    }

    /// Serves `accepted` as source `name` from now on.
    pub(crate) fn commit(&self, name: &str, accepted: Accepted) {
        let mut state = lock(&self.state);
        state.sources.insert(name.to_owned(), accepted);
        state.generation += 1;
        let index = Index::of(&state);
        *self.index.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(index);
    }

    /// What source `name` serves now.
    pub(crate) fn served_by(&self, name: &str) -> Option<Accepted> {
        lock(&self.state).sources.get(name).cloned()
    }

    /// Keeps what was found at boot for boot's checks.
    pub(crate) fn hold(&self, errors: Vec<Diagnostic>, warnings: Vec<String>) {
        let mut state = lock(&self.state);
        state.errors.extend(errors);
        state.warnings.extend(warnings);
    }

    /// The errors and warnings found at boot.
    pub(crate) fn take_held(&self) -> (Vec<Diagnostic>, Vec<String>) {
        let mut state = lock(&self.state);
        (
            std::mem::take(&mut state.errors),
            std::mem::take(&mut state.warnings),
        )
    }

    /// Marks the server built.
    pub(crate) fn boots(&self) {
        self.booted.store(true, Ordering::Release);
    }

    /// Whether the server is built.
    pub(crate) fn is_booted(&self) -> bool {
        self.booted.load(Ordering::Acquire)
    }
}

impl Index {
    fn of(state: &State) -> Self {
        let mut index = Index {
            generation: state.generation,
            ..Index::default()
        };
        for accepted in state.sources.values() {
            for skill in accepted.skills.iter() {
                index
                    .skills
                    .insert(skill.entry.uri.clone(), Arc::new(skill.entry.clone()));
                let root = uri_of(&skill.path);
                for path in &skill.files {
                    if !accepted.tree.files.contains_key(path) {
                        continue;
                    }
                    index.file(&root, path);
                }
            }
            for (path, content) in &accepted.tree.files {
                index.unlisted.insert(uri_of(path));
                index
                    .files
                    .insert(uri_of(path), crate::serve::resource(path, content));
            }
        }
        // Every file but the SKILL.md of a skill is kept out of `resources/list`.
        for uri in index.skills.keys() {
            index.unlisted.remove(uri);
        }
        index
    }

    /// Adds the file at `path` below the skill directory `root` to every
    /// directory from it up to `root`.
    fn file(&mut self, root: &str, path: &str) {
        let uri = uri_of(path);
        let mut child = (uri.clone(), false);
        let mut at = uri.as_str();
        while let Some((parent, _)) = at.rsplit_once('/') {
            if parent.len() < root.len() {
                break;
            }
            let directory = self.directories.entry(parent.to_owned()).or_default();
            directory.children.insert(child);
            if !directory.below.contains(&uri) {
                directory.below.push(uri.clone());
            }
            child = (parent.to_owned(), true);
            at = parent;
        }
    }
}
