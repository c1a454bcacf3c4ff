//! What a server's skills are: the places they come from, each checked
//! against the others, and the index the methods answer from.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use mcp_server::boot::Diagnostic;
use mcp_server::core::resources::Resource;

use crate::skill::{Found, Place, Problems, uri_of};
use crate::wire::{SKILL_MD, SkillEntry};

/// A server's skills (one per server, shared from boot on).
#[derive(Default)]
pub(crate) struct Registry {
    state: Mutex<State>,
    index: RwLock<Arc<Index>>,
    /// Set once the server is built: problems then refuse a reload instead
    /// of waiting for boot's checks.
    booted: AtomicBool,
    /// Numbers the places, so that each has a key of its own.
    numbered: AtomicU64,
}

#[derive(Default)]
struct State {
    /// By key.
    places: BTreeMap<String, Accepted>,
    /// Errors found before the server was built, for boot's checks.
    errors: Vec<Diagnostic>,
    /// Warnings found before the server was built, for the log (the boot
    /// report is written before the first load of a directory on disk).
    warnings: Vec<String>,
}

/// What one place serves: the files kept and the skills among them.
#[derive(Clone)]
pub(crate) struct Accepted {
    pub(crate) place: Place,
    pub(crate) skills: Arc<Vec<Found>>,
}

/// The skills and files of every place, as the methods answer them.
#[derive(Default)]
pub(crate) struct Index {
    /// Every skill, by the URI of its SKILL.md.
    pub(crate) skills: BTreeMap<String, Arc<SkillEntry>>,
    /// The URIs of every file served that is not a skill's SKILL.md.
    pub(crate) unlisted: BTreeSet<String>,
    /// Every file, as a directory lists it (named by its file name).
    pub(crate) files: BTreeMap<String, Resource>,
    /// Each directory of a skill, from its root down.
    pub(crate) directories: BTreeMap<String, Directory>,
}

/// One directory of a skill.
#[derive(Default)]
pub(crate) struct Directory {
    /// Direct children: (URI, whether a directory).
    pub(crate) children: BTreeSet<(String, bool)>,
    /// Every file below it, at any depth.
    pub(crate) below: BTreeSet<String>,
    /// The SKILL.md of every skill it is part of.
    pub(crate) skills: BTreeSet<String>,
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

    /// A key no place has yet: `prefix` and a number.
    pub(crate) fn fresh_key(&self, prefix: &str) -> String {
        format!(
            "{prefix} #{}",
            self.numbered.fetch_add(1, Ordering::Relaxed)
        )
    }

    /// What `place` would serve under `key`, checked against what the
    /// other places serve: a skill that shares a file with one of theirs,
    /// or lies inside one of theirs or holds one, is left out.
    pub(crate) fn offer(&self, key: &str, place: Place) -> (Accepted, Problems) {
        let mut problems = Problems::default();
        let found = place.skills(&mut problems);
        let state = lock(&self.state);
        let others: Vec<&Accepted> = state
            .places
            .iter()
            .filter(|(other, _)| *other != key)
            .map(|(_, accepted)| accepted)
            .collect();
        let mut names: BTreeMap<String, String> = others
            .iter()
            .flat_map(|a| a.skills.iter())
            .map(|s| (name_of(&s.entry), s.path.clone()))
            .collect();
        let mut skills = Vec::new();
        for skill in found {
            if let Some(problem) = clash(&skill, &place, &others) {
                problems.errors.push(problem);
                continue;
            }
            if let Some(first) = names.insert(name_of(&skill.entry), skill.path.clone()) {
                problems.warnings.push(format!(
                    "skills `{first}` and `{}` ({}) are both named `{}`; a client tells them apart by URI only",
                    skill.path,
                    place.label,
                    name_of(&skill.entry)
                ));
            }
            skills.push(skill);
        }
        drop(state);
        // Only the files of the skills kept are served.
        let kept: BTreeSet<&String> = skills.iter().flat_map(|s| s.files.iter()).collect();
        let files = place
            .files
            .iter()
            .filter(|(path, _)| kept.contains(path))
            .map(|(path, content)| (path.clone(), content.clone()))
            .collect();
        let accepted = Accepted {
            place: Place { files, ..place },
            skills: Arc::new(skills),
        };
        (accepted, problems)
    }

    /// Serves `accepted` under `key` from now on.
    pub(crate) fn commit(&self, key: &str, accepted: Accepted) {
        let mut state = lock(&self.state);
        state.places.insert(key.to_owned(), accepted);
        let index = Index::of(&state);
        *self.index.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(index);
    }

    /// What the place under `key` serves now.
    pub(crate) fn served_by(&self, key: &str) -> Option<Accepted> {
        lock(&self.state).places.get(key).cloned()
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

/// The frontmatter name of a skill.
fn name_of(entry: &SkillEntry) -> String {
    entry.frontmatter["name"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Why `skill` of `place` cannot be served beside the skills of `others`:
/// a file one of them serves, or a skill of theirs it lies in or holds.
fn clash(skill: &Found, place: &Place, others: &[&Accepted]) -> Option<Diagnostic> {
    let inside = |outer: &str, inner: &str| {
        inner.starts_with(outer) && inner[outer.len()..].starts_with('/')
    };
    for other in others {
        let theirs = &other.place;
        let problem = |code: &str, message: String, help: &str| {
            Diagnostic::new(code.to_owned(), message)
                .note(format!("first {}", theirs.at()))
                .note(format!("again {}", place.at()))
                .help(help)
        };
        let skill_md = format!("{}/{SKILL_MD}", skill.path);
        if theirs.files.contains_key(&skill_md) {
            return Some(problem(
                "mcp_skills::duplicate_skill",
                format!("skill `{}` is served twice", uri_of(&skill_md)),
                "remove one of them, or move one under another directory",
            ));
        }
        if let Some(shared) = skill.files.iter().find(|f| theirs.files.contains_key(*f)) {
            return Some(problem(
                "mcp_skills::duplicate_file",
                format!(
                    "skill `{}`: its file `{}` is served by another place too",
                    skill.path,
                    uri_of(shared)
                ),
                "serve each file from one place",
            ));
        }
        if let Some(nested) = other
            .skills
            .iter()
            .find(|s| inside(&skill.path, &s.path) || inside(&s.path, &skill.path))
        {
            return Some(problem(
                "mcp_skills::nested_across_places",
                format!(
                    "skill `{}` and skill `{}` nest, but come from two places",
                    skill.path, nested.path
                ),
                "keep a skill and the skills inside it in one place, so that its manifest can list their files",
            ));
        }
    }
    None
}

impl Index {
    fn of(state: &State) -> Self {
        let mut index = Index::default();
        for accepted in state.places.values() {
            for skill in accepted.skills.iter() {
                index
                    .skills
                    .insert(skill.entry.uri.clone(), Arc::new(skill.entry.clone()));
                for path in &skill.files {
                    index.file(&skill.path, path, &skill.entry.uri);
                }
            }
            for (path, content) in &accepted.place.files {
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

    /// Adds the file at `path` of the skill in `root` (whose SKILL.md is
    /// `skill_md`) to every directory from the file's up to `root`.
    fn file(&mut self, root: &str, path: &str, skill_md: &str) {
        let uri = uri_of(path);
        let root = uri_of(root);
        let mut child = (uri.clone(), false);
        let mut at = uri.as_str();
        while let Some((parent, _)) = at.rsplit_once('/') {
            if parent.len() < root.len() {
                break;
            }
            let directory = self.directories.entry(parent.to_owned()).or_default();
            directory.children.insert(child);
            directory.below.insert(uri.clone());
            directory.skills.insert(skill_md.to_owned());
            child = (parent.to_owned(), true);
            at = parent;
        }
    }
}
