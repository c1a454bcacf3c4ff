//! Tools that change while the server serves: a catalog contributor that
//! serves the tools described in a JSON file and reloads it when the file
//! changes, and an administrator's tool that adds an alias of one of them.
//!
//! Set `catalog.file` (`--set catalog.file=tools.json`, or
//! `MCP_CATALOG__FILE`) to a file such as
//!
//! ```json
//! {"tools": [{
//!   "name": "greet",
//!   "description": "Greets someone",
//!   "inputSchema": {"type": "object", "properties": {"who": {"type": "string"}}, "required": ["who"]},
//!   "answer": "Hello, {who}!"
//! }]}
//! ```
//!
//! Each tool answers with its `answer`, each `{name}` replaced by the
//! argument of that name; its arguments are checked against its
//! `inputSchema`. The file is read at boot (a file that cannot be read or
//! parsed fails boot) and again within `catalog.poll_ms` of each change;
//! a change that cannot be read, or would collide with another tool, is
//! logged and the tools served stay as they were. Every client listening
//! hears `notifications/tools/list_changed`.
//!
//! The watcher reloads this instance's catalog only: a reload made outside
//! the runtime that serves requests does not reach the other instances
//! sharing a Redis (see docs/adr/0017-runtime-catalog.md); each instance
//! watches the file itself.
//!
//! `catalog_add_alias` (for callers whose token carries the scope
//! `catalog:admin`; hidden from the rest) adds a tool that answers as one
//! of the file's tools does, for as long as the server runs.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use mcp_server::boot::{BootContext, Diagnostic};
use mcp_server::catalog::{Catalog, CatalogChange};
use mcp_server::config::Section;
use mcp_server::core::json::{JsonObject, JsonValue};
use mcp_server::core::tools::Tool;
use mcp_server::handler::tool;
use mcp_server::seam::contributor::catalog::CatalogContributor;
use mcp_server::seam::{Item, Registration};
use mcp_server::{RequestContext, origin, register};
use serde::Deserialize;

/// The name the file catalog is reloaded by.
pub const FILE_CATALOG: &str = "demo-file-catalog";

/// The `catalog` section.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CatalogSection {
    /// The JSON file of tools to serve; unset, none is served.
    pub file: Option<PathBuf>,
    /// How often the file is looked at for a change, in milliseconds.
    pub poll_ms: u64,
}

impl Default for CatalogSection {
    fn default() -> Self {
        Self {
            file: None,
            poll_ms: 500,
        }
    }
}

impl Section for CatalogSection {
    const KEY: &'static str = "catalog";
}

/// One tool of the file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct FileTool {
    name: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default = "object_schema")]
    input_schema: JsonObject,
    answer: String,
}

fn object_schema() -> JsonObject {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "object".into());
    schema
}

/// The file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogFile {
    tools: Vec<FileTool>,
}

/// The file's tools as last loaded, by name: what an alias answers as.
#[derive(Debug, Default)]
pub struct Answers(RwLock<HashMap<String, FileTool>>);

/// `answer` with each `{name}` replaced by the argument of that name.
fn fill(answer: &str, arguments: &JsonObject) -> String {
    let mut filled = answer.to_owned();
    for (name, value) in arguments {
        let value = match value {
            JsonValue::String(text) => text.clone(),
            other => other.to_string(),
        };
        filled = filled.replace(&format!("{{{name}}}"), &value);
    }
    filled
}

/// Serves the tools of one JSON file.
#[derive(Debug)]
pub struct FileCatalog {
    path: PathBuf,
    poll: Duration,
    answers: Arc<Answers>,
}

impl FileCatalog {
    fn read(&self) -> Result<CatalogFile, Diagnostic> {
        let shown = self.path.display();
        let text = std::fs::read_to_string(&self.path).map_err(|e| {
            Diagnostic::new(
                "mcp_demo::catalog_file",
                format!("the catalog file `{shown}` cannot be read"),
            )
            .note(e.to_string())
            .help("set `catalog.file` to a readable JSON file, or unset it")
        })?;
        serde_json::from_str(&text).map_err(|e| {
            Diagnostic::new(
                "mcp_demo::catalog_file",
                format!("the catalog file `{shown}` is not a catalog"),
            )
            .note(e.to_string())
            .help(r#"write {"tools": [{"name": …, "inputSchema": {…}, "answer": "…"}]}"#)
        })
    }
}

impl CatalogContributor for FileCatalog {
    fn name(&self) -> &str {
        FILE_CATALOG
    }

    fn load(&self) -> Result<CatalogChange, Diagnostic> {
        let file = self.read()?;
        let mut change = CatalogChange::new(origin!());
        let mut answers = HashMap::new();
        for described in file.tools {
            let descriptor = Tool {
                name: described.name.clone(),
                description: described.description.clone(),
                input_schema: described.input_schema.clone(),
                ..Tool::default()
            };
            let answer = described.answer.clone();
            let handler = tool::try_handler(
                &descriptor,
                move |_: RequestContext, arguments: JsonObject| {
                    let answer = fill(&answer, &arguments);
                    async move { answer }
                },
            )
            .map_err(|why| Diagnostic::new("mcp_demo::catalog_file", why))?;
            answers.insert(described.name.clone(), described);
            change = change.add_tool(descriptor, handler);
        }
        *self
            .answers
            .0
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = answers;
        Ok(change)
    }

    /// Looks at the file every `poll_ms`, on a thread of its own, and
    /// reloads the catalog when its length or modification time changed.
    fn watch(&self, catalog: &Catalog) {
        let (path, poll, catalog) = (self.path.clone(), self.poll, catalog.clone());
        let stamp = move || {
            std::fs::metadata(&path)
                .ok()
                .map(|m| (m.len(), m.modified().unwrap_or(SystemTime::UNIX_EPOCH)))
        };
        // Taken now, not when the thread first runs: a change made meanwhile
        // is then seen as one.
        let mut seen = stamp();
        let spawned = std::thread::Builder::new()
            .name("catalog-file".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(poll);
                    let now = stamp();
                    if now == seen {
                        continue;
                    }
                    seen = now;
                    match catalog.reload(FILE_CATALOG) {
                        Ok(applied) => {
                            tracing::info!(version = applied.version, tools = ?applied.tools, "the catalog file was reloaded");
                        }
                        Err(refused) => {
                            tracing::warn!(%refused, "the catalog file changed, and its tools stay as they were");
                        }
                    }
                }
            });
        if let Err(error) = spawned {
            tracing::warn!(%error, "the catalog file is not watched");
        }
    }
}

fn section(_: &BootContext) -> Item {
    Item::section::<CatalogSection>()
}

fn file_catalog(boot: &BootContext) -> Item {
    let section = boot.section::<CatalogSection>();
    match section.file {
        None => Item::inactive("`catalog.file` is unset"),
        Some(path) => Item::catalog_contributor(FileCatalog {
            path,
            poll: Duration::from_millis(section.poll_ms.max(10)),
            answers: boot.shared::<Answers>(),
        }),
    }
}

register!(Registration::new(origin!(), "catalog-section", 0, section));
register!(Registration::new(origin!(), FILE_CATALOG, 0, file_catalog));

/// Adds `alias`, a tool that answers as the catalog file's tool `of` does
/// (with the same arguments), for as long as the server runs.
#[mcp_server::tool]
pub async fn catalog_add_alias(ctx: RequestContext, alias: String, of: String) -> String {
    let original = ctx
        .shared::<Answers>()
        .and_then(|answers| answers.0.read().ok()?.get(&of).cloned());
    let Some(original) = original else {
        return format!("the catalog file has no tool `{of}`");
    };
    let answer = original.answer;
    let descriptor = Tool {
        name: alias.clone(),
        description: Some(format!("An alias of `{of}`")),
        input_schema: original.input_schema,
        ..Tool::default()
    };
    let handler = match tool::try_handler(
        &descriptor,
        move |_: RequestContext, arguments: JsonObject| {
            let answer = fill(&answer, &arguments);
            async move { answer }
        },
    ) {
        Ok(handler) => handler,
        Err(why) => return why,
    };
    let change = CatalogChange::new(origin!()).add_tool(descriptor, handler);
    match ctx.catalog().apply(change) {
        Ok(applied) => format!(
            "`{alias}` now answers as `{of}` (catalog version {})",
            applied.version
        ),
        Err(refused) => refused.to_string(),
    }
}
mcp_oauth::require_scope!(tool "catalog_add_alias", "catalog:admin");
