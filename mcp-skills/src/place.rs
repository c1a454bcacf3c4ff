//! Where skills come from: a directory embedded in the binary, a
//! directory on disk that is reloaded when it changes, and (in `made`)
//! skills made by code. Each place is checked against the others.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use mcp_server::boot::Diagnostic;
use mcp_server::catalog::{Catalog, CatalogChange};
use mcp_server::seam::contributor::catalog::CatalogContributor;
use mcp_server::seam::contributor::{Contributions, contributor_fn};
use mcp_server::seam::{Item, Origin, TargetKind};

use crate::registry::Registry;
use crate::serve;
use crate::skill::{Content, Tree};

/// Serves `tree` as source `name` from boot on; its problems wait for
/// boot's checks.
pub(crate) fn serve_at_boot(
    registry: &Registry,
    name: &str,
    tree: Tree,
    into: &mut Contributions<'_>,
) {
    let (accepted, problems) = registry.offer(name, tree);
    // Warned now, while the boot report is still open.
    for warning in problems.warnings {
        into.boot().warn(warning);
    }
    registry.hold(problems.errors, Vec::new());
    registry.commit(name, accepted.clone());
    let origin = into.origin();
    serve::contribute(&accepted, into);
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
        let tree = Tree {
            origin: at,
            place: format!("the embedded directory `{dir}`"),
            files: files
                .iter()
                .map(|(path, bytes)| ((*path).to_owned(), Content::Bytes(Arc::from(*bytes))))
                .collect(),
        };
        let registry = into.boot().shared::<Registry>();
        let name = registry.fresh_name(&format!("embedded {at} {dir}"));
        serve_at_boot(&registry, &name, tree, into);
        into.serve(TargetKind::Resource);
    }))
}

/// The catalog contributor of the directory on disk (`skills.dir`).
pub(crate) const ON_DISK: &str = "mcp-skills:dir";

/// The skills of a directory on disk, served through the runtime catalog
/// and reloaded whole when a file in it changes.
pub(crate) struct OnDisk {
    pub(crate) dir: Option<PathBuf>,
    pub(crate) poll: Duration,
    pub(crate) ttl_ms: u64,
    pub(crate) registry: Arc<Registry>,
    pub(crate) origin: Origin,
}

impl OnDisk {
    fn read(&self, dir: &Path) -> Result<Tree, Diagnostic> {
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
        Ok(Tree {
            origin: self.origin,
            place: format!("the directory `{}` (skills.dir)", dir.display()),
            files: files
                .into_iter()
                .map(|(path, bytes)| (path, Content::Bytes(Arc::from(bytes))))
                .collect(),
        })
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
        let tree = self.read(dir)?;
        let (accepted, problems) = self.registry.offer(ON_DISK, tree);
        if self.registry.is_booted() {
            for warning in &problems.warnings {
                tracing::warn!(target: "mcp_skills", "{warning}");
            }
            if let Some(first) = problems.errors.first() {
                let more = problems.errors.len() - 1;
                let mut refused = first.clone();
                if more > 0 {
                    refused =
                        refused.note(format!("and {more} more problems in the same directory"));
                }
                for error in &problems.errors {
                    tracing::warn!(target: "mcp_skills", "{error}");
                }
                return Err(refused);
            }
        } else {
            self.registry.hold(problems.errors, problems.warnings);
        }
        self.registry.commit(ON_DISK, accepted.clone());
        Ok(serve::change(&accepted, self.ttl_ms))
    }

    fn watch(&self, catalog: &Catalog) {
        self.registry.boots();
        let Some(dir) = self.dir.clone() else {
            return;
        };
        let (poll, catalog, registry) = (self.poll, catalog.clone(), self.registry.clone());
        // Taken now, so that a change made before the thread runs is seen.
        let mut seen = stamp(&dir);
        let spawned = std::thread::Builder::new()
            .name("mcp-skills-dir".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(poll);
                    let now = stamp(&dir);
                    if now == seen {
                        continue;
                    }
                    seen = now;
                    let before = registry.served_by(ON_DISK);
                    match catalog.reload(ON_DISK) {
                        Ok(applied) => tracing::info!(
                            target: "mcp_skills",
                            version = applied.version,
                            "the skills directory changed and was reloaded"
                        ),
                        Err(refused) => {
                            // What the catalog kept serving is what the
                            // methods answer for.
                            if let Some(before) = before {
                                registry.commit(ON_DISK, before);
                            }
                            tracing::warn!(
                                target: "mcp_skills",
                                %refused,
                                "the skills directory changed, and its skills stay as they were"
                            );
                        }
                    }
                }
            });
        if let Err(error) = spawned {
            tracing::warn!(target: "mcp_skills", %error, "the skills directory is not watched");
        }
    }
}

/// Every file under `dir` (names starting with `.` left out), as (path
/// below `root` with `/` separators, bytes), in path order.
fn walk(root: &Path, dir: &Path, files: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
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

/// What changes when a file under `dir` changes: each file's path, size
/// and modification time.
fn stamp(dir: &Path) -> Vec<(PathBuf, u64, SystemTime)> {
    let mut stamps = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                pending.push(path);
            } else {
                let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                stamps.push((path, meta.len(), modified));
            }
        }
    }
    stamps.sort();
    stamps
}
