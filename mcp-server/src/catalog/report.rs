//! The catalog report: every member a server serves, with where it came
//! from and since when.

use std::fmt;

use serde::Serialize;

use crate::vocabulary::sort;
use crate::vocabulary::{Origin, TargetKind};

/// Since when a member is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Since {
    /// Boot assembled it; only a new build changes it.
    Boot,
    /// A catalog change added it, at this catalog version.
    Version(u64),
}

/// One member in the catalog report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct CatalogEntry {
    /// What kind of member it is.
    pub kind: TargetKind,
    /// Its identity: a tool's or prompt's name, a URI, a URI template.
    pub key: String,
    /// The contributor of boot, or the change that added it.
    pub origin: Origin,
    /// Since when it is served.
    pub since: Since,
}

/// Every member a server serves, by kind and identity, with where each
/// came from: the catalog as a newcomer reads it.
///
/// ```
/// use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
/// use mcp_server::handler::handler_fn;
/// use mcp_server::seam::contributor::contributor_fn;
/// use mcp_server::{Server, origin};
///
/// let tool = |name: &str| Tool { name: name.into(), ..Default::default() };
/// let answer = || handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("ok")) });
/// let server = Server::builder()
///     .without_linked()
///     .contributor(origin!(), "tools", contributor_fn(move |c| { c.tool(tool("ping"), answer()); }))
///     .build();
/// let change = mcp_server::catalog::CatalogChange::new(origin!()).add_tool(tool("pong"), answer());
/// server.catalog().apply(change).unwrap();
/// let report = server.catalog().report().to_string();
/// assert!(report.starts_with("catalog, version 1: 2 members\n"), "{report}");
/// assert!(report.contains("tool `ping`"));
/// assert!(report.contains("since version 1"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[non_exhaustive]
pub struct CatalogReport {
    /// The catalog's version.
    pub version: u64,
    /// Every member, by kind, then identity.
    pub entries: Vec<CatalogEntry>,
}

impl CatalogReport {
    /// A report of `entries` at `version`, sorted by kind and identity.
    pub(crate) fn new(version: u64, mut entries: Vec<CatalogEntry>) -> Self {
        sort::sort_by(&mut entries, |a, b| (a.kind, &a.key).cmp(&(b.kind, &b.key)));
        Self { version, entries }
    }
}

impl fmt::Display for CatalogReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "catalog, version {}: {} members",
            self.version,
            self.entries.len()
        )?;
        let width = self
            .entries
            .iter()
            .map(|e| e.kind.word().len() + e.key.len() + 3)
            .max()
            .unwrap_or(0);
        for entry in &self.entries {
            let name = format!("{} `{}`", entry.kind.word(), entry.key);
            let since = match entry.since {
                Since::Boot => "since boot".to_owned(),
                Since::Version(v) => format!("since version {v}"),
            };
            writeln!(f, "  {name:<width$}  {since:<16}  {}", entry.origin)?;
        }
        Ok(())
    }
}
