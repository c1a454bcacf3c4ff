//! Applying a change to the runtime catalog: boot again, for the members it
//! touches. Each tool it adds is folded by the customizers and chained as
//! boot does; the new snapshot replaces the old one whole, or nothing
//! changes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use mcp_core::method::Method;
use mcp_core::tools::{CallTool, Tool};

use super::chains::ChainBuilder;
use super::fold::Folder;
use crate::catalog::{Applied, CatalogChange, Edit, Editor, Refused};
use crate::dispatch::dynamic::{Dynamic, Member, Snapshot};
use crate::dispatch::{Listed, unknown_tool};
use crate::handler::Handler;
use crate::seam::sink::{Change, ChangeSink, Fanout};
use crate::vocabulary::{BootContext, BootError, Diagnostic, Origin, TargetKind, closest, lock};

/// The runtime catalog of one server, with what boot assembled it from.
pub(crate) struct RuntimeCatalog {
    pub(crate) boot: Arc<BootContext>,
    pub(crate) dynamic: Arc<Dynamic>,
    /// The tools boot assembled, by name: a change may not take their names.
    pub(crate) fixed_tools: HashMap<String, Origin>,
    /// Whether the server serves tools at all (it had some at boot).
    pub(crate) serves_tools: bool,
    pub(crate) changes: Arc<Fanout>,
    /// One change at a time, each on the snapshot the one before left.
    pub(crate) writer: Mutex<()>,
}

impl Editor for RuntimeCatalog {
    fn apply(&self, change: CatalogChange) -> Result<Applied, Refused> {
        let _writer = lock(&self.writer);
        let current = self.dynamic.load();
        let mut tools = current.tools.clone();
        let mut errors = Vec::new();
        let mut touched = Vec::with_capacity(change.edits.len());
        let mut folder = Folder::default();
        let chains = ChainBuilder::new(&self.boot);
        let origin = change.origin;
        for edit in change.edits {
            let (tool, handler, replaces) = match edit {
                Edit::Remove(name) => {
                    match self.uneditable(&name, origin, &tools) {
                        None => {
                            tools.remove(&name);
                            touched.push(name);
                        }
                        Some(error) => errors.push(error),
                    }
                    continue;
                }
                Edit::Add(tool, handler) => (tool, handler, false),
                Edit::Replace(tool, handler) => (tool, handler, true),
            };
            let name = tool.name.clone();
            let taken = if !self.serves_tools {
                Some(no_tools(&name, origin))
            } else if replaces {
                self.uneditable(&name, origin, &tools)
            } else if let Some(first) = self.fixed_tools.get(&name) {
                Some(duplicate(&name, *first, origin))
            } else {
                tools
                    .get(&name)
                    .map(|first| duplicate(&name, first.origin, origin))
            };
            if let Some(error) = taken {
                errors.push(error);
                continue;
            }
            let member = self.member(tool, handler, origin, &mut folder, &chains, &mut errors);
            tools.insert(name.clone(), Arc::new(member));
            touched.push(name);
        }
        if !errors.is_empty() {
            return Err(Refused(errors));
        }
        let version = current.version + 1;
        self.dynamic.store(Snapshot { version, tools });
        if !touched.is_empty() {
            self.changes.publish(Change::tools_list_changed());
        }
        Ok(Applied {
            version,
            tools: touched,
        })
    }

    fn version(&self) -> u64 {
        self.dynamic.peek().version
    }

    fn tools(&self) -> Vec<Tool> {
        let snapshot = self.dynamic.peek();
        snapshot
            .tools
            .values()
            .map(|m| m.listed.descriptor.clone())
            .collect()
    }

    fn origin_of_tool(&self, name: &str) -> Option<Origin> {
        self.dynamic.peek().tools.get(name).map(|m| m.origin)
    }
}

impl RuntimeCatalog {
    /// A tool, folded by the customizers and chained as boot chains one.
    fn member(
        &self,
        tool: Tool,
        handler: Arc<dyn Handler<CallTool>>,
        origin: Origin,
        folder: &mut Folder,
        chains: &ChainBuilder<'_>,
        errors: &mut Vec<BootError>,
    ) -> Member<Tool, CallTool> {
        let config = folder.fold(tool, origin, &self.boot, errors);
        let listed = config.is_listed();
        let (descriptor, parts) = chains.configured(CallTool::NAME, config);
        let guards = parts.guards.clone();
        let chain = parts.with(handler, unknown_tool);
        Member {
            listed: Listed {
                descriptor,
                guards,
                listed,
            },
            chain: Arc::new(chain),
            origin,
        }
    }

    /// Why the tool `name` may not be replaced or removed, if it may not:
    /// the runtime catalog must hold it, and boot must not have assembled it.
    fn uneditable(
        &self,
        name: &str,
        origin: Origin,
        tools: &std::collections::BTreeMap<String, Arc<Member<Tool, CallTool>>>,
    ) -> Option<BootError> {
        if let Some(fixed) = self.fixed_tools.get(name) {
            return Some(BootError::Extension(
                Diagnostic::new(
                    "mcp::fixed_member",
                    format!("tool `{name}` was assembled at boot, and a catalog change cannot replace or remove it"),
                )
                .note(format!("the tool:   {fixed}"))
                .note(format!("the change: {origin}"))
                .help("change what boot assembles and build again, or add a runtime tool of another name"),
            ));
        }
        if tools.contains_key(name) {
            return None;
        }
        let mut diagnostic = Diagnostic::new(
            "mcp::not_in_catalog",
            format!("tool `{name}` is not in the runtime catalog"),
        )
        .note(format!("the change: {origin}"));
        diagnostic = match closest(name, tools.keys().map(String::as_str)) {
            Some(closest) => diagnostic.help(format!("did you mean `{closest}`?")),
            None => diagnostic.help("add it first, with `CatalogChange::add_tool`"),
        };
        Some(BootError::Extension(diagnostic))
    }
}

/// The diagnostic of boot for a tool contributed twice.
fn duplicate(name: &str, first: Origin, second: Origin) -> BootError {
    BootError::Duplicate {
        kind: TargetKind::Tool,
        name: name.to_owned(),
        first,
        second,
    }
}

/// A tool for a server that serves none.
fn no_tools(name: &str, origin: Origin) -> BootError {
    BootError::Extension(
        Diagnostic::new(
            "mcp::no_tools",
            format!("tool `{name}` cannot be added: this server serves no tools"),
        )
        .note(format!("the change: {origin}"))
        .note("a server serves tools, and advertises them, when boot assembles at least one")
        .help("contribute a tool at boot"),
    )
}
