//! The corpus: inputs worth replaying, one file each, named by their hash
//! (or by what they are, for the hand-picked ones); HTTP and stdio inputs
//! in folders of their own.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::target::TargetKind;

/// The corpus of this crate, `fuzz/corpus/`.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Where the inputs of `target` are kept under the corpus `dir`: `dir`
/// itself for messages of the dispatch, `dir/http` for HTTP requests and
/// `dir/stdio` for what a stdio client writes.
pub fn dir_of(dir: &Path, target: TargetKind) -> PathBuf {
    match target {
        TargetKind::Dispatch => dir.to_path_buf(),
        TargetKind::Http | TargetKind::Stdio => dir.join(target.name()),
    }
}

/// The target the inputs in `file`'s folder go through (see [`dir_of`]).
pub fn target_of(file: &Path) -> TargetKind {
    file.parent()
        .and_then(Path::file_name)
        .and_then(|name| name.to_str())
        .and_then(TargetKind::named)
        .filter(|kind| *kind != TargetKind::Dispatch)
        .unwrap_or(TargetKind::Dispatch)
}

/// The file name of `bytes`: the first 16 hex digits of their SHA-256.
pub fn name_of(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Writes `bytes` into `dir` under their hash and returns the path.
///
/// # Errors
///
/// When the folder cannot be made or the file cannot be written.
pub fn save(dir: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let path = dir.join(name_of(bytes));
    fs::write(&path, bytes)?;
    Ok(path)
}

/// Every file in `dir`, sorted by name, with its bytes.
///
/// # Errors
///
/// When the folder or one of its files cannot be read.
pub fn load(dir: &Path) -> io::Result<Vec<(PathBuf, Vec<u8>)>> {
    let mut paths = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            paths.push(entry.path());
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|path| fs::read(&path).map(|bytes| (path, bytes)))
        .collect()
}
