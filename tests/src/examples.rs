//! The official example messages: `2026-07-28/examples/<Definition>/*.json`.

use std::path::PathBuf;

use serde_json::Value;

use crate::schema::Schema;

/// One example file.
#[derive(Debug, Clone)]
pub struct Example {
    /// The definition the example is an instance of (its folder's name).
    pub definition: String,
    /// The file, relative to the schema's folder.
    pub path: PathBuf,
    /// The parsed contents.
    pub value: Value,
}

/// Every example of `schema`, sorted by path.
///
/// # Panics
///
/// When the examples folder cannot be read or a file is not JSON.
pub fn all(schema: Schema) -> Vec<Example> {
    let root = schema.dir();
    let mut examples = Vec::new();
    for folder in read_dir(&root.join("examples")) {
        let definition = folder
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a UTF-8 folder name")
            .to_owned();
        for file in read_dir(&folder) {
            if file.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
            let value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("parsing {}: {e}", file.display()));
            let path = file
                .strip_prefix(&root)
                .expect("under the schema folder")
                .to_path_buf();
            examples.push(Example {
                definition: definition.clone(),
                path,
                value,
            });
        }
    }
    examples
}

fn read_dir(dir: &std::path::Path) -> Vec<PathBuf> {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.expect("a readable entry").path())
        .collect();
    paths.sort();
    paths
}
