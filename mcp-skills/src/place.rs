//! Where skills come from: a directory embedded in the binary, a
//! directory on disk that is reloaded when it changes, and (in `made`)
//! skills made by code. Each place is checked against the others.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, SystemTime};

use mcp_server::boot::Diagnostic;
use mcp_server::catalog::{Catalog, CatalogChange};
use mcp_server::seam::contributor::catalog::CatalogContributor;
use mcp_server::seam::contributor::{Contributions, contributor_fn};
use mcp_server::seam::{Item, Origin, TargetKind};

use crate::config::SkillsSection;
use crate::registry::{Accepted, Registry};
use crate::serve;
use crate::skill::{Content, Place, uri_of};

/// Serves `place` from boot on; its problems wait for boot's checks.
pub(crate) fn serve_at_boot(prefix: &str, place: Place, into: &mut Contributions<'_>) {
    let registry = into.boot().shared::<Registry>();
    let key = registry.fresh_key(prefix);
    let (accepted, problems) = registry.offer(&key, place);
    // Warned now, while the boot report is still open.
    for warning in problems.warnings {
        into.boot().warn(warning);
    }
    registry.hold(problems.errors, Vec::new());
    registry.commit(&key, accepted.clone());
    let ttl_ms = into.boot().section::<SkillsSection>().ttl_ms;
    let origin = into.origin();
    serve::contribute(&accepted, ttl_ms, into);
    into.at(origin);
}

/// The contributor `embed!` registers: the files the macro listed, at the
/// origin of the macro.
#[doc(hidden)]
pub fn embedded(
    dir: &'static str,
    files: &'static [(&'static str, &'static [u8])],
    at: Origin,
) -> Item {
    Item::contributor(contributor_fn(move |into| {
        let place = Place {
            origin: at,
            label: format!("the embedded directory `{dir}`"),
            files: files
                .iter()
                .map(|(path, bytes)| ((*path).to_owned(), Content::Bytes(Arc::from(*bytes))))
                .collect(),
        };
        serve_at_boot(&format!("embedded {at} {dir}"), place, into);
    }))
}

/// The catalog contributor of the directory on disk (`skills.dir`).
pub(crate) const ON_DISK: &str = "mcp-skills:dir";

/// What a look at a directory sees: each file's path, size and time of
/// change.
type Stamp = Vec<(PathBuf, u64, SystemTime)>;

/// The skills of a directory on disk, served through the runtime catalog
/// and reloaded whole when a file in it changes.
pub(crate) struct OnDisk {
    pub(crate) dir: Option<PathBuf>,
    pub(crate) poll: Duration,
    pub(crate) ttl_ms: u64,
    pub(crate) registry: Arc<Registry>,
    pub(crate) origin: Origin,
    /// What the last load saw, which the watcher compares with.
    pub(crate) seen: Arc<Mutex<Stamp>>,
    /// The server's catalog, once it is built.
    pub(crate) catalog: OnceLock<Catalog>,
}

impl OnDisk {
    fn read(&self, dir: &Path) -> Result<Place, Diagnostic> {
        let mut files = Vec::new();
        walk(dir, dir, &mut files).map_err(|error| {
            Diagnostic::new(
                "mcp_skills::unreadable_dir",
                format!(
                    "the skills directory `{}` cannot be read: {error}",
                    dir.display()
                ),
            )
            .note(format!(
                "set by `skills.dir`; the extension is declared at {}",
                self.origin
            ))
            .help("point `skills.dir` at a readable directory, or leave it empty")
        })?;
        Ok(Place {
            origin: self.origin,
            label: format!("the directory `{}` (skills.dir)", dir.display()),
            files: files
                .into_iter()
                .map(|(path, bytes)| (path, Content::Bytes(Arc::from(bytes))))
                .collect(),
        })
    }

    /// A resource of `accepted` that the server serves from elsewhere, which
    /// the catalog would refuse: checked here so that what the methods
    /// answer and what the catalog serves never part.
    fn taken(&self, accepted: &Accepted) -> Option<Diagnostic> {
        let catalog = self.catalog.get()?;
        let ours: BTreeSet<String> = self
            .registry
            .served_by(ON_DISK)
            .map(|before| before.place.files.keys().map(|p| uri_of(p)).collect())
            .unwrap_or_default();
        let report = catalog.report();
        let taken = accepted.place.files.keys().map(|p| uri_of(p)).find(|uri| {
            !ours.contains(uri)
                && report
                    .entries
                    .iter()
                    .any(|e| e.kind == TargetKind::Resource && &e.key == uri)
        })?;
        Some(
            Diagnostic::new(
                "mcp_skills::duplicate_file",
                format!("the file `{taken}` is served by the server already"),
            )
            .note(accepted.place.at())
            .help("serve each file from one place"),
        )
    }
}

impl CatalogContributor for OnDisk {
    fn name(&self) -> &str {
        ON_DISK
    }

    fn load(&self) -> Result<CatalogChange, Diagnostic> {
        let Some(dir) = &self.dir else {
            return Ok(CatalogChange::new(self.origin));
        };
        let stamp = stamp(dir);
        let place = self.read(dir)?;
        let (accepted, mut problems) = self.registry.offer(ON_DISK, place);
        if self.registry.is_booted() {
            problems.errors.extend(self.taken(&accepted));
            for warning in &problems.warnings {
                tracing::warn!(target: "mcp_skills", "{warning}");
            }
            if let Some(first) = problems.errors.first() {
                for error in &problems.errors {
                    tracing::warn!(target: "mcp_skills", "{error}");
                }
                let more = problems.errors.len() - 1;
                let refused = match more {
                    0 => first.clone(),
                    n => first
                        .clone()
                        .note(format!("and {n} more problems in the same directory")),
                };
                *self.seen.lock().unwrap_or_else(PoisonError::into_inner) = stamp;
                return Err(refused);
            }
        } else {
            self.registry.hold(problems.errors, problems.warnings);
        }
        self.registry.commit(ON_DISK, accepted.clone());
        *self.seen.lock().unwrap_or_else(PoisonError::into_inner) = stamp;
        Ok(serve::change(&accepted, self.ttl_ms))
    }

    fn watch(&self, catalog: &Catalog) {
        self.registry.boots();
        let _ = self.catalog.set(catalog.clone());
        let Some(dir) = self.dir.clone() else {
            return;
        };
        let (poll, catalog, seen) = (self.poll, catalog.clone(), self.seen.clone());
        let spawned = std::thread::Builder::new()
            .name("mcp-skills-dir".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(poll);
                    let now = stamp(&dir);
                    if now == *seen.lock().unwrap_or_else(PoisonError::into_inner) {
                        continue;
                    }
                    // The load records what it saw, refused or not.
                    match catalog.reload(ON_DISK) {
                        Ok(applied) => tracing::info!(
                            target: "mcp_skills",
                            version = applied.version,
                            "the skills directory changed and was reloaded"
                        ),
                        Err(refused) => tracing::warn!(
                            target: "mcp_skills",
                            %refused,
                            "the skills directory changed, and its skills stay as they were"
                        ),
                    }
                }
            });
        if let Err(error) = spawned {
            tracing::warn!(target: "mcp_skills", %error, "the skills directory is not watched");
        }
    }
}

/// The entries of `dir` worth reading, in name order: not hidden (`.`),
/// and no directory reached through a link (which could loop).
fn entries(dir: &Path) -> std::io::Result<Vec<(PathBuf, bool)>> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            entries.push((path, true));
        } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            entries.push((path, false));
        }
    }
    entries.sort();
    Ok(entries)
}

/// Every file under `dir`, as (path below `root` with `/` separators,
/// bytes), in path order.
fn walk(root: &Path, dir: &Path, files: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    for (path, is_dir) in entries(dir)? {
        if is_dir {
            walk(root, &path, files)?;
        } else {
            let relative = path.strip_prefix(root).unwrap_or(&path);
            let relative: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            files.push((relative.join("/"), std::fs::read(&path)?));
        }
    }
    Ok(())
}

/// What a look at `dir` sees, for the watcher to compare.
fn stamp(dir: &Path) -> Stamp {
    let mut stamps = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for (path, is_dir) in entries(&at).unwrap_or_default() {
            if is_dir {
                pending.push(path);
            } else if let Ok(meta) = std::fs::metadata(&path) {
                let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                stamps.push((path, meta.len(), modified));
            }
        }
    }
    stamps.sort();
    stamps
}
