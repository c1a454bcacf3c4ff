//! Extensions as declared units: what a crate is (an identifier, a version,
//! what it advertises) and what it needs from the server it joins.
//!
//! A crate declares its extension once, with [`Item::extension`]
//! registered by [`Registration::extension`]; everything else the crate
//! registers belongs to that extension. Boot refuses two declarations of
//! one identifier, naming both crates, and an extension whose
//! [`Requirement`] the assembled server does not meet, naming the
//! extension and the requirement. Requirements are checked once everything
//! is registered, so the order of registration never matters; a refused
//! extension fails boot, so nothing of it is ever served.
//!
//! ```
//! use mcp_server::Server;
//! use mcp_server::seam::{Extension, Item, Requirement};
//!
//! let error = Server::builder()
//!     .without_linked()
//!     .extension(
//!         mcp_server::origin!(),
//!         Extension::new("dev.acme/notes-cloud", "1.0.0")
//!             .requires(Requirement::extension("dev.acme/notes")),
//!     )
//!     .try_build()
//!     .unwrap_err();
//! assert!(error.to_string().contains(
//!     "extension `dev.acme/notes-cloud` requires extension `dev.acme/notes`"
//! ));
//! ```
//!
//! [`Item::extension`]: super::registration::Item::extension
//! [`Registration::extension`]: super::registration::Registration::extension

use std::fmt;
use std::sync::Arc;

use mcp_core::capabilities::ServerCapabilities;
use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::version::Era;

use super::boot_context::BootContext;
use super::seam::{Kind, SeamWord};

/// One extension a crate declares: identifier, version, the capability
/// entry it advertises and the requirements it has of the server.
///
/// ```
/// use mcp_server::seam::{Extension, Requirement};
///
/// let tasks = Extension::new("io.example/jobs", "0.2.0")
///     .advertises(serde_json::Map::new())
///     .requires(Requirement::capability("tools"));
/// assert_eq!(tasks.id(), "io.example/jobs");
/// assert_eq!(tasks.requirements()[0].to_string(), "the `tools` capability");
/// ```
#[derive(Clone)]
pub struct Extension {
    id: String,
    version: String,
    advertised: Option<Advertised>,
    legacy: bool,
    requires: Vec<Requirement>,
}

/// What an extension puts under its identifier in `capabilities.extensions`.
#[derive(Clone)]
enum Advertised {
    Fixed(JsonObject),
    Made(Arc<dyn Fn(&BootContext) -> JsonObject + Send + Sync>),
}

impl fmt::Debug for Extension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Extension")
            .field("id", &self.id)
            .field("version", &self.version)
            .field("advertised", &self.advertised.is_some())
            .field("legacy", &self.legacy)
            .field("requires", &self.requires)
            .finish()
    }
}

impl Extension {
    /// The extension `id` (`vendor.domain/name`, or a crate's own name for
    /// an extension no client needs to know of), at `version`.
    pub fn new(id: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            version: version.into(),
            advertised: None,
            legacy: false,
            requires: Vec::new(),
        }
    }

    /// Advertises the extension to 2026-07-28 clients: `settings` under its
    /// identifier in the `extensions` member of the server's capabilities.
    #[must_use]
    pub fn advertises(mut self, settings: JsonObject) -> Self {
        self.advertised = Some(Advertised::Fixed(settings));
        self
    }

    /// Advertises settings made at boot, once every member is registered
    /// (say, the events of every linked interceptor).
    #[must_use]
    pub fn advertises_with(
        mut self,
        settings: impl Fn(&BootContext) -> JsonObject + Send + Sync + 'static,
    ) -> Self {
        self.advertised = Some(Advertised::Made(Arc::new(settings)));
        self
    }

    /// Advertises the extension to 2025-11-25 clients too, in the same
    /// `extensions` member (which that version's clients read, though its
    /// schema does not name it).
    #[must_use]
    pub fn also_to_legacy_clients(mut self) -> Self {
        self.legacy = true;
        self
    }

    /// Requires `requirement` of the assembled server: boot fails, naming
    /// the extension and the requirement, when it is not met.
    #[must_use]
    pub fn requires(mut self, requirement: Requirement) -> Self {
        self.requires.push(requirement);
        self
    }

    /// The identifier.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The version.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// What it requires, in the order declared.
    pub fn requirements(&self) -> &[Requirement] {
        &self.requires
    }

    /// Whether clients of `era` are told of it.
    pub fn is_advertised(&self, era: Era) -> bool {
        self.advertised.is_some() && (era == Era::Modern || self.legacy)
    }

    /// Writes its capability entry into `capabilities`, for clients of `era`.
    pub(crate) fn advertise(
        &self,
        era: Era,
        capabilities: &mut ServerCapabilities,
        boot: &BootContext,
    ) {
        if !self.is_advertised(era) {
            return;
        }
        let settings = match &self.advertised {
            Some(Advertised::Fixed(settings)) => settings.clone(),
            Some(Advertised::Made(make)) => make(boot),
            None => return,
        };
        capabilities
            .extensions
            .get_or_insert_default()
            .insert(self.id.clone(), settings);
    }
}

/// The kind of declared extensions: one per identifier, so two crates
/// that claim one identifier fail boot, naming both.
#[derive(Debug)]
pub struct Extensions;

impl Kind for Extensions {
    type Member = Arc<Extension>;
    const NAME: &'static str = "extension";
    const CODE: &'static str = "mcp::duplicate_extension";
    const WORD: SeamWord = SeamWord::Extension;
    const HELP: &'static str =
        "two crates claim one extension identifier: remove one of them from the build";
    const ORDERED: bool = false;
    fn key(member: &Arc<Extension>) -> String {
        member.id.clone()
    }
    fn describe(member: &Arc<Extension>) -> String {
        format!("extension `{}` {}", member.id, member.version)
    }
}

/// What an extension needs of the assembled server, described for the
/// diagnostic that names it when it is not met.
///
/// ```
/// use mcp_server::seam::Requirement;
///
/// let resources = Requirement::capability("resources");
/// assert_eq!(resources.to_string(), "the `resources` capability");
/// let custom = Requirement::new("notes or a notes mirror", |server| {
///     server.has_extension("dev.acme/notes") || server.has_extension("dev.acme/notes-mirror")
/// });
/// assert_eq!(custom.to_string(), "notes or a notes mirror");
/// ```
#[derive(Clone)]
pub struct Requirement {
    description: String,
    met: Arc<dyn Fn(&Assembled<'_>) -> bool + Send + Sync>,
}

impl fmt::Debug for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description)
    }
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description)
    }
}

impl Requirement {
    /// A requirement `description` names, met when `met` says so.
    pub fn new(
        description: impl Into<String>,
        met: impl Fn(&Assembled<'_>) -> bool + Send + Sync + 'static,
    ) -> Self {
        Self {
            description: description.into(),
            met: Arc::new(met),
        }
    }

    /// Another extension, `id` (an identifier, or the name of the crate
    /// that declares it), is declared.
    pub fn extension(id: impl Into<String>) -> Self {
        let id = id.into();
        Self::new(format!("extension `{id}`"), move |server| {
            server.has_extension(&id)
        })
    }

    /// The server offers the core capability `name` to 2026-07-28 clients
    /// (`tools`, `prompts`, `resources`, `completions`, `logging`; a dotted
    /// path such as `resources.subscribe` reaches a setting).
    pub fn capability(name: &'static str) -> Self {
        Self::new(format!("the `{name}` capability"), move |server| {
            server.offers(name)
        })
    }

    /// The setting `key` (`redis.url`) is set, from any source.
    pub fn setting(key: &'static str) -> Self {
        Self::new(format!("the setting `{key}`"), move |server| {
            server.boot().is_set(key)
        })
    }

    /// Whether `server` meets it.
    pub fn is_met(&self, server: &Assembled<'_>) -> bool {
        (self.met)(server)
    }
}

/// The server as boot assembled it, for [`Requirement`]s: its capabilities,
/// its extensions, and the boot context with its configuration.
#[derive(Debug)]
pub struct Assembled<'a> {
    pub(crate) capabilities: &'a ServerCapabilities,
    pub(crate) extensions: &'a [Arc<Extension>],
    pub(crate) packages: &'a [&'static str],
    pub(crate) boot: &'a BootContext,
}

impl Assembled<'_> {
    /// Whether extension `id` (an identifier, or the name of the crate that
    /// declares it) is declared.
    pub fn has_extension(&self, id: &str) -> bool {
        self.extensions.iter().any(|e| e.id == id) || self.packages.contains(&id)
    }

    /// Whether the capabilities offered to 2026-07-28 clients hold `path`
    /// (`tools`, `resources.subscribe`), neither null nor `false`.
    pub fn offers(&self, path: &str) -> bool {
        let Ok(mut value) = serde_json::to_value(self.capabilities) else {
            return false;
        };
        for segment in path.split('.') {
            value = match value {
                JsonValue::Object(mut object) => object.remove(segment).unwrap_or_default(),
                _ => JsonValue::Null,
            };
        }
        !matches!(value, JsonValue::Null | JsonValue::Bool(false))
    }

    /// The capabilities offered to 2026-07-28 clients.
    pub fn capabilities(&self) -> &ServerCapabilities {
        self.capabilities
    }

    /// The boot context: configuration, members, shared state.
    pub fn boot(&self) -> &BootContext {
        self.boot
    }
}
