//! The builder: what an application tells boot besides what is linked.

use std::sync::Arc;

use mcp_core::content::Implementation;
use serde::Serialize;

use super::assemble;
use super::collect::Added;
use crate::seam::contributor::Contributor;
use crate::seam::sink::ChangeSink;
use crate::server::Server;
use crate::vocabulary::config::{Section, SettingSource, Settings};
use crate::vocabulary::extension::Extension;
use crate::vocabulary::registration::Item;
use crate::vocabulary::seam::OneActive;
use crate::vocabulary::{BootErrors, Origin};

/// The prefix of the environment variables read as settings by default.
pub const DEFAULT_ENV_PREFIX: &str = "MCP_";

/// Where environment settings come from.
#[derive(Debug, Clone)]
pub(super) struct Environment {
    /// `None`: the environment is not read.
    prefix: Option<String>,
    /// Given variables instead of the process's.
    variables: Option<Vec<(String, String)>>,
}

impl Environment {
    pub(super) fn apply(self, settings: &mut Settings) {
        let Some(prefix) = self.prefix else { return };
        match self.variables {
            Some(variables) => settings.read_environment(&prefix, variables),
            None => settings.read_environment(&prefix, std::env::vars()),
        }
    }
}

impl Server {
    /// A builder for a server.
    pub fn builder() -> Builder {
        Builder::default()
    }
}

/// Assembles a [`Server`] from linked and added registrations.
pub struct Builder {
    pub(super) info: Implementation,
    pub(super) linked: bool,
    pub(super) added: Vec<Added>,
    pub(super) expected: Vec<String>,
    pub(super) expected_linked: Vec<String>,
    pub(super) settings: Settings,
    pub(super) environment: Environment,
    /// Settings from a command line, applied over the environment's.
    pub(super) command_line: Vec<(String, serde_json::Value, SettingSource)>,
}

impl std::fmt::Debug for Builder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Builder")
            .field("info", &self.info)
            .field("linked", &self.linked)
            .field("added", &self.added.len())
            .field("expected", &self.expected)
            .field("expected_linked", &self.expected_linked)
            .finish_non_exhaustive()
    }
}

impl Default for Builder {
    fn default() -> Self {
        Self {
            info: Implementation::new("mcp-server", env!("CARGO_PKG_VERSION")),
            linked: true,
            added: Vec::new(),
            expected: Vec::new(),
            expected_linked: Vec::new(),
            settings: Settings::default(),
            environment: Environment {
                prefix: Some(DEFAULT_ENV_PREFIX.to_owned()),
                variables: None,
            },
            command_line: Vec::new(),
        }
    }
}

/// The origin of a builder call, from its caller's location.
#[track_caller]
fn here(what: &'static str) -> Origin {
    let at = std::panic::Location::caller();
    Origin {
        crate_name: "(builder)",
        crate_version: "",
        module: what,
        file: at.file(),
        line: at.line(),
    }
}

impl Builder {
    /// Names the server (`serverInfo`).
    #[must_use]
    pub fn named(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.info.name = name.into();
        self.info.version = version.into();
        self
    }

    /// Sets the whole `serverInfo`.
    #[must_use]
    pub fn info(mut self, info: Implementation) -> Self {
        self.info = info;
        self
    }

    /// Instructions for the model, returned by `server/discover` and
    /// `initialize` (the setting `server.instructions`).
    #[must_use]
    #[track_caller]
    pub fn instructions(self, instructions: impl Into<String>) -> Self {
        self.setting("server.instructions", instructions.into())
    }

    /// Ignores every linked registration: only what is added on this builder
    /// counts (for tests that need a server independent of what is linked).
    #[must_use]
    pub fn without_linked(mut self) -> Self {
        self.linked = false;
        self
    }

    /// Sets the setting `key` (dotted: `section.key`), below the
    /// environment in precedence (a command line's settings go through
    /// [`command_line_setting`](Self::command_line_setting), above it).
    #[must_use]
    #[track_caller]
    pub fn setting(mut self, key: &str, value: impl Serialize) -> Self {
        let origin = here("Builder::setting");
        let value = serde_json::to_value(value).unwrap_or_default();
        self.settings
            .set(key, value, SettingSource::Builder(origin));
        self
    }

    /// Sets the setting `key` from the command line option `option` (such
    /// as `--task-store`; boot diagnostics name it, never the value), above
    /// the environment in precedence: what is typed for one run wins over
    /// what the deployment exports.
    ///
    /// ```
    /// use mcp_server::Server;
    ///
    /// let error = Server::builder()
    ///     .without_linked()
    ///     .environment([("MCP_SERVER__PAGE_SIZE", "5")])
    ///     .command_line_setting("--page-size", "server.page_size", "lots")
    ///     .try_build()
    ///     .unwrap_err();
    /// assert!(error.to_string().contains("= note: set on the command line by `--page-size`"));
    /// ```
    #[must_use]
    pub fn command_line_setting(
        mut self,
        option: impl Into<String>,
        key: &str,
        value: impl Serialize,
    ) -> Self {
        let value = serde_json::to_value(value).unwrap_or_default();
        let source = SettingSource::CommandLine(option.into());
        self.command_line.push((key.to_owned(), value, source));
        self
    }

    /// Reads settings from environment variables named
    /// `<prefix><SECTION>__<KEY>` (default prefix `MCP_`).
    #[must_use]
    pub fn env_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.environment.prefix = Some(prefix.into());
        self
    }

    /// Reads settings from these variables instead of the process
    /// environment (with the prefix `MCP_` unless another was set).
    #[must_use]
    pub fn environment<K: Into<String>, V: Into<String>>(
        mut self,
        variables: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        self.environment
            .prefix
            .get_or_insert_with(|| DEFAULT_ENV_PREFIX.to_owned());
        self.environment.variables = Some(
            variables
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        );
        self
    }

    /// Reads no settings from the environment.
    #[must_use]
    pub fn without_environment(mut self) -> Self {
        self.environment.prefix = None;
        self
    }

    /// Sets the secret that seals the `requestState` of multi round-trip
    /// requests (`server.request_state_key`): 32 bytes or more, the same on
    /// every instance that may answer another's retry.
    #[must_use]
    #[track_caller]
    pub fn request_state_key(self, secret: impl Into<String>) -> Self {
        self.setting("server.request_state_key", secret.into())
    }

    /// Adds a registration, as if it were linked.
    #[must_use]
    pub fn register(
        mut self,
        origin: Origin,
        name: impl Into<String>,
        order: i32,
        item: Item,
    ) -> Self {
        self.added.push(Added {
            origin,
            name: name.into(),
            order,
            item,
        });
        self
    }

    /// Adds a contributor.
    #[must_use]
    pub fn contributor(
        self,
        origin: Origin,
        name: impl Into<String>,
        contributor: impl Contributor,
    ) -> Self {
        self.register(origin, name, 0, Item::contributor(contributor))
    }

    /// Supplies `member` for the one-active seam `S`, as a linked
    /// `#[store]`, `#[source]`, `#[strategy]` or `#[sink]` would: a second
    /// supplier of `S` fails boot.
    #[must_use]
    pub fn supply<S: OneActive + ?Sized>(
        self,
        origin: Origin,
        name: impl Into<String>,
        member: Arc<S>,
    ) -> Self {
        self.register(origin, name, 0, Item::supply(member))
    }

    /// Declares the one-active seam `S`, so its default is selected when
    /// nobody supplies a member.
    #[must_use]
    pub fn declare<S: OneActive + ?Sized>(self, origin: Origin) -> Self {
        self.register(origin, S::NAME, 0, Item::seam::<S>())
    }

    /// Declares the configuration section `T`, so its settings are checked.
    #[must_use]
    pub fn section<T: Section>(self, origin: Origin) -> Self {
        self.register(origin, T::KEY, 0, Item::section::<T>())
    }

    /// Requires the extension `name` to be declared: an identifier
    /// (`io.modelcontextprotocol/tasks`) or the name of the crate that
    /// declares it (`mcp-tasks`). Boot fails with a help line naming the
    /// missing dependency and `use` when no linked crate declares it.
    #[must_use]
    pub fn expect_extension(mut self, name: impl Into<String>) -> Self {
        self.expected.push(name.into());
        self
    }

    /// Requires some registration of the crate `package` to be linked (an
    /// application's own `#[tool]`s, say): boot fails with a help line
    /// naming the missing `use` when none is.
    #[must_use]
    pub fn expect_linked(mut self, package: impl Into<String>) -> Self {
        self.expected_linked.push(package.into());
        self
    }

    /// Declares `extension` on behalf of the application (a crate declares
    /// its own with [`Registration::extension`](crate::seam::Registration::extension)).
    #[must_use]
    pub fn extension(self, origin: Origin, extension: Extension) -> Self {
        let name = extension.id().to_owned();
        self.register(origin, name, 0, Item::extension(extension))
    }

    /// The number of items per page of `tools/list` and the other lists
    /// (the setting `server.page_size`, default 100).
    #[must_use]
    #[track_caller]
    pub fn page_size(self, page_size: usize) -> Self {
        self.setting("server.page_size", page_size)
    }

    /// How long clients may cache lists (`ttlMs`, default 0) and `server/discover`
    /// (default one hour): the settings `server.list_ttl_ms` and `server.discover_ttl_ms`.
    #[must_use]
    #[track_caller]
    pub fn cache_ttl(self, lists_ms: u64, discover_ms: u64) -> Self {
        self.setting("server.list_ttl_ms", lists_ms)
            .setting("server.discover_ttl_ms", discover_ms)
    }

    /// Where published changes go (default: an in-process broadcast).
    ///
    /// The change sink is a one-active seam: this counts as supplying one, so
    /// a linked `#[sink]` registration as well fails boot.
    #[must_use]
    #[track_caller]
    pub fn change_sink(self, sink: impl ChangeSink) -> Self {
        let origin = here("Builder::change_sink");
        self.supply::<dyn ChangeSink>(origin, "Builder::change_sink", Arc::new(sink))
    }

    /// Assembles the server.
    ///
    /// # Errors
    ///
    /// Every problem found, at once: collisions, identity changes by
    /// customizers, two members of one one-active seam, missing
    /// extensions, unknown or invalid settings, failed validations.
    pub fn try_build(self) -> Result<Server, BootErrors> {
        assemble::assemble(self)
    }

    /// Assembles the server.
    ///
    /// # Panics
    ///
    /// With the rendered diagnostics, when [`try_build`](Self::try_build) fails.
    pub fn build(self) -> Server {
        match self.try_build() {
            Ok(server) => server,
            Err(errors) => panic!("\n{errors}"),
        }
    }
}
