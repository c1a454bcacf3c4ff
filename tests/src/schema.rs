//! The official schema documents, each loaded once, and validators for their
//! definitions.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, LazyLock, Mutex};

use jsonschema::{Draft, Validator};
use serde_json::Value;

/// Compiled validators, by document and definition name.
type ValidatorCache = HashMap<(Schema, String), Arc<Validator>>;

/// One of the official `schema.json` documents under `fixtures/mcp-schema/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Schema {
    /// The 2026-07-28 core schema.
    Modern,
    /// The 2025-11-25 core schema.
    Legacy,
    /// The tasks extension (`io.modelcontextprotocol/tasks`).
    ExtTasks,
    /// The apps extension (`io.modelcontextprotocol/ui`).
    ExtApps,
}

impl Schema {
    /// Every schema document, in the order above.
    pub const ALL: [Schema; 4] = [
        Schema::Modern,
        Schema::Legacy,
        Schema::ExtTasks,
        Schema::ExtApps,
    ];

    /// The folder of the document under `fixtures/mcp-schema/`.
    pub fn dir_name(self) -> &'static str {
        match self {
            Schema::Modern => "2026-07-28",
            Schema::Legacy => "2025-11-25",
            Schema::ExtTasks => "ext-tasks",
            Schema::ExtApps => "ext-apps",
        }
    }

    /// The folder of the document on disk.
    pub fn dir(self) -> PathBuf {
        fixtures_dir().join(self.dir_name())
    }

    /// The parsed `schema.json`, read from disk on first use.
    pub fn document(self) -> &'static Value {
        static DOCUMENTS: LazyLock<[Value; 4]> = LazyLock::new(|| Schema::ALL.map(load));
        &DOCUMENTS[self as usize]
    }

    /// The names of the document's `$defs`, in document order.
    pub fn definition_names(self) -> Vec<&'static str> {
        self.document()["$defs"]
            .as_object()
            .unwrap_or_else(|| panic!("{} schema.json has no `$defs` object", self.dir_name()))
            .keys()
            .map(String::as_str)
            .collect()
    }

    /// Whether the document defines `$defs/<name>`.
    pub fn has_definition(self, name: &str) -> bool {
        self.document()["$defs"].get(name).is_some()
    }

    /// A validator for `$defs/<name>`, compiled on first use and cached.
    ///
    /// # Panics
    ///
    /// When the document has no such definition or it does not compile.
    pub fn validator(self, name: &str) -> Arc<Validator> {
        static CACHE: LazyLock<Mutex<ValidatorCache>> = LazyLock::new(Mutex::default);
        let key = (self, name.to_owned());
        if let Some(validator) = CACHE.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Arc::clone(validator);
        }
        let validator = Arc::new(self.compile(name));
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(cache.entry(key).or_insert(validator))
    }

    /// Checks `instance` against `$defs/<name>`; every violation on failure.
    ///
    /// # Errors
    ///
    /// One line per violation: where in the instance, and what.
    pub fn validate(self, name: &str, instance: &Value) -> Result<(), Vec<String>> {
        let validator = self.validator(name);
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|e| format!("at `{}`: {}", e.instance_path(), e.masked()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Compiles `$defs/<name>`: the whole document with a root `$ref` to the
    /// definition, so references between definitions resolve as in the file.
    fn compile(self, name: &str) -> Validator {
        assert!(
            self.has_definition(name),
            "{} schema.json has no `$defs/{name}`",
            self.dir_name()
        );
        let mut document = self.document().clone();
        document["$ref"] = Value::String(format!("#/$defs/{name}"));
        jsonschema::options()
            .with_draft(Draft::Draft202012)
            // Format validation is off: `format` is an annotation in Draft
            // 2020-12, and the model keeps URIs, dates and base64 as strings
            // without checking them, as the schema's own defaults do.
            .should_validate_formats(false)
            .build(&document)
            .unwrap_or_else(|e| panic!("{} `$defs/{name}` does not compile: {e}", self.dir_name()))
    }
}

/// `tests/fixtures/mcp-schema/`.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join("mcp-schema")
}

fn load(schema: Schema) -> Value {
    let path = schema.dir().join("schema.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}
