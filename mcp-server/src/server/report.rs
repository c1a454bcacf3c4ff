//! The boot report: everything assembled, per seam word, with origins; the
//! resolved pipeline of every method, in order; which strategy won and why.

use std::fmt;

use mcp_core::content::Implementation;
use serde::Serialize;

use crate::vocabulary::Origin;
use crate::vocabulary::seam::{SeamWord, Selection};

/// One registered member of a seam.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Registered {
    /// The seam word.
    pub seam: SeamWord,
    /// What exactly: `tool`, `call-tool customizer`, `raw interceptor`, …
    pub kind: String,
    /// Its name.
    pub name: String,
    /// Its order, where the seam has one.
    pub order: Option<i32>,
    /// Where it was registered.
    pub origin: Origin,
    /// Whether its kind is experimental ([`Kind::EXPERIMENTAL`](crate::seam::Kind::EXPERIMENTAL)).
    pub experimental: bool,
}

/// What boot assembled (text with [`Display`](fmt::Display), JSON with `serde`).
#[derive(Debug, Clone, Serialize)]
pub struct BootReport {
    /// The server's identity.
    pub server: Implementation,
    /// Every member of every seam, grouped by seam word in the order of the taxonomy.
    pub members: Vec<Registered>,
    /// The winner of each one-active seam.
    pub selections: Vec<Selection>,
    /// The declared extensions, sorted by identifier, each with its members.
    pub extensions: Vec<ExtensionReport>,
    /// The raw interceptors, outermost first.
    pub raw_interceptors: Vec<String>,
    /// Every method's pipeline.
    pub methods: Vec<MethodReport>,
    /// What boot accepted but an operator should fix (`BootContext::warn`).
    pub warnings: Vec<String>,
}

/// One declared extension: what it is, what it needs, what its crate registers.
#[derive(Debug, Clone, Serialize)]
pub struct ExtensionReport {
    /// Its identifier.
    pub id: String,
    /// Its version.
    pub version: String,
    /// Where it was declared.
    pub origin: Origin,
    /// The eras whose clients are told of it in the server's capabilities.
    pub advertised: Vec<mcp_core::version::Era>,
    /// What it requires of the server, described (all met, or boot failed).
    pub requires: Vec<String>,
    /// Everything else its crate registers, as the member list names it.
    pub members: Vec<String>,
}

/// One method's resolved pipeline.
#[derive(Debug, Clone, Serialize)]
pub struct MethodReport {
    /// The wire name.
    pub method: String,
    /// The eras it exists in.
    pub eras: Vec<mcp_core::version::Era>,
    /// Who provides it ([`Origin::FRAMEWORK`] for built-ins).
    pub owner: Origin,
    /// Its typed interceptors, outermost first.
    pub typed_interceptors: Vec<String>,
    /// Each handler with its chain, outermost first.
    pub handlers: Vec<HandlerReport>,
}

/// One handler's chain.
#[derive(Debug, Clone, Serialize)]
pub struct HandlerReport {
    /// The target, such as ``tool `echo` ``.
    pub target: String,
    /// Its steps, outermost first, ending with the handler.
    pub chain: Vec<String>,
}

impl BootReport {
    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

impl fmt::Display for BootReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "boot report for {} {}",
            self.server.name, self.server.version
        )?;
        for warning in &self.warnings {
            writeln!(f, "warning: {warning}")?;
        }
        for seam in [
            SeamWord::Contributor,
            SeamWord::Customizer,
            SeamWord::Interceptor,
            SeamWord::Store,
            SeamWord::Source,
            SeamWord::Strategy,
            SeamWord::Sink,
            SeamWord::Validator,
            SeamWord::Extension,
        ] {
            let members: Vec<&Registered> =
                self.members.iter().filter(|m| m.seam == seam).collect();
            if members.is_empty() {
                continue;
            }
            writeln!(f, "\n{seam}s ({})", members.len())?;
            for m in members {
                let order = m.order.map(|o| format!(" order {o}")).unwrap_or_default();
                let experimental = if m.experimental {
                    " (experimental)"
                } else {
                    ""
                };
                writeln!(
                    f,
                    "  {} `{}`{order}{experimental} — {}",
                    m.kind, m.name, m.origin
                )?;
            }
        }
        if !self.extensions.is_empty() {
            writeln!(f, "\ndeclared extensions ({})", self.extensions.len())?;
        }
        for e in &self.extensions {
            let eras: Vec<String> = e
                .advertised
                .iter()
                .map(|era| format!("{era:?}").to_lowercase())
                .collect();
            let advertised = if eras.is_empty() {
                "not advertised".to_owned()
            } else {
                format!("advertised to {}", eras.join(", "))
            };
            writeln!(f, "  {} {} ({advertised}) — {}", e.id, e.version, e.origin)?;
            for requirement in &e.requires {
                writeln!(f, "    requires {requirement}")?;
            }
            for member in &e.members {
                writeln!(f, "    {member}")?;
            }
        }
        writeln!(f, "\none-active seams")?;
        for s in &self.selections {
            let experimental = if s.experimental {
                " (experimental)"
            } else {
                ""
            };
            writeln!(
                f,
                "  {} {}{experimental}: `{}` — {} ({})",
                s.word, s.seam, s.winner, s.reason, s.origin
            )?;
        }
        writeln!(f, "\nraw interceptors (outermost first)")?;
        for r in &self.raw_interceptors {
            writeln!(f, "  {r}")?;
        }
        writeln!(f, "\nmethods")?;
        for m in &self.methods {
            let eras: Vec<String> = m
                .eras
                .iter()
                .map(|e| format!("{e:?}").to_lowercase())
                .collect();
            writeln!(f, "  {} [{}] — {}", m.method, eras.join(", "), m.owner)?;
            for t in &m.typed_interceptors {
                writeln!(f, "    typed {t}")?;
            }
            for h in &m.handlers {
                writeln!(f, "    {}:", h.target)?;
                for step in &h.chain {
                    writeln!(f, "      {step}")?;
                }
            }
        }
        Ok(())
    }
}
