//! The Skills extension of MCP (`io.modelcontextprotocol/skills`,
//! SEP-2640) for `mcp-server`: skills, directories that teach an agent a
//! workflow with a `SKILL.md`, served as resources and listed with
//! `skills/list` and `skills/get`.
//!
//! Activate it by linking: `use mcp_skills as _;` in the application's
//! crate root (or any use of its items). Skills come from three places:
//!
//! - a directory carried in the binary: `mcp_skills::embed!("skills");`;
//! - a directory on disk, the `skills.dir` setting, reloaded through the
//!   runtime catalog when a file in it changes;
//! - code: a contributor's [`ContributeSkills::skill`], with files given
//!   as bytes or made per read (listed `"resources": "dynamic"`).
//!
//! ```
//! use mcp_server::Server;
//! use mcp_server::seam::contributor::contributor_fn;
//! use mcp_server::testing::MemoryClient;
//! use mcp_skills::{ContributeSkills, Skill};
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let server = Server::builder()
//!     .contributor(mcp_server::origin!(), "skills", contributor_fn(|into| {
//!         into.skill(Skill::new(
//!             "greeting",
//!             "---\nname: greeting\ndescription: Greet the user warmly\n---\nSay hello by name.\n",
//!         ));
//!     }))
//!     .build();
//! let client = MemoryClient::new(&server);
//! let skill = client
//!     .request_raw("skills/get", serde_json::json!({"uri": "skill://greeting/SKILL.md"}))
//!     .await
//!     .unwrap();
//! assert_eq!(skill["skill"]["frontmatter"]["description"], "Greet the user warmly");
//! let read = client
//!     .request_raw("resources/read", serde_json::json!({"uri": "skill://greeting/SKILL.md"}))
//!     .await
//!     .unwrap();
//! assert_eq!(read["contents"][0]["mimeType"], "text/markdown");
//! # });
//! ```
//!
//! The extension is built on the public seams of `mcp-server` only:
//!
//! | what | seam |
//! |---|---|
//! | each file of a skill, served by `resources/read` | a contributor (embedded, made by code) or a catalog contributor (on disk) |
//! | only `SKILL.md` in `resources/list` | a customizer of every resource, which unlists the other files |
//! | `skills/list`, `skills/get`, `resources/directory/read` | typed methods, contributed; what a guard hides is left out ([`RequestContext::may_see`](mcp_server::RequestContext::may_see)) |
//! | the capability, and its need of `resources` | a declared extension with a requirement |
//! | the boot checks (`mcp_skills::bad_name`, …) | a validator |
//! | settings | the `skills` configuration section ([`config::SkillsSection`]) |
//!
//! The guide is [docs/skills.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/skills.md).

pub mod config;
mod frontmatter;
mod made;
mod methods;
mod place;
mod registry;
mod serve;
mod skill;
pub mod wire;

use std::path::PathBuf;
use std::time::Duration;

use mcp_server::boot::{BootContext, Diagnostic, Validator};
use mcp_server::core::json::JsonObject;
use mcp_server::core::resources::Resource;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::{Extension, Item, Registration, Requirement, TargetKind};
use mcp_server::{Server, origin, register};

pub use made::{ContributeSkills, Skill};
#[doc(hidden)]
pub use mcp_skills_macros::embedded_files;
#[doc(hidden)]
pub use place::embedded;

use crate::config::SkillsSection;
use crate::methods::Answers;
use crate::place::OnDisk;
use crate::registry::Registry;

/// `io.modelcontextprotocol/skills` under `capabilities.extensions`, in
/// `server/discover` and in a 2025-11-25 `initialize` alike, with
/// `directoryRead`; it requires the `resources` capability.
fn extension(boot: &BootContext) -> Item {
    let mut settings = JsonObject::new();
    let directory_read = boot.section::<SkillsSection>().directory_read;
    settings.insert(wire::DIRECTORY_READ.into(), directory_read.into());
    Item::extension(
        Extension::new(wire::EXTENSION_ID, env!("CARGO_PKG_VERSION"))
            .advertises(settings)
            .also_to_legacy_clients()
            .requires(Requirement::capability("resources")),
    )
}

fn section(_: &BootContext) -> Item {
    Item::section::<SkillsSection>()
}

fn methods(boot: &BootContext) -> Item {
    let answers = Answers {
        registry: boot.shared::<Registry>(),
        section: boot.section::<SkillsSection>(),
    };
    Item::contributor(contributor_fn(move |into| {
        // Skills on disk come after boot: resources are served before the first.
        into.serve(TargetKind::Resource);
        methods::contribute(&answers, into);
    }))
}

fn on_disk(boot: &BootContext) -> Item {
    let section = boot.section::<SkillsSection>();
    Item::catalog_contributor(OnDisk {
        dir: (!section.dir.is_empty()).then(|| PathBuf::from(&section.dir)),
        poll: Duration::from_millis(section.poll_ms.max(10)),
        ttl_ms: section.ttl_ms,
        registry: boot.shared::<Registry>(),
        origin: origin!(),
        seen: Default::default(),
        catalog: Default::default(),
    })
}

fn checks(_: &BootContext) -> Item {
    Item::validator(Checks)
}

fn every_resource(_: &BootContext) -> Item {
    Item::customizer::<Resource>(Unlist)
}

register!(Registration::extension(origin!(), "mcp-skills", extension));
register!(Registration::new(origin!(), "skills-section", 0, section));
register!(Registration::new(origin!(), "skills-methods", 0, methods));
register!(Registration::new(origin!(), "skills-on-disk", 0, on_disk));
register!(Registration::new(origin!(), "skills-checks", 0, checks));
register!(Registration::new(
    origin!(),
    "skills-resources",
    0,
    every_resource
));

/// Reports, all at once, what was wrong with the skills of every place.
struct Checks;

impl Validator for Checks {
    fn validate(&self, _: &Server, boot: &BootContext) -> Vec<Diagnostic> {
        let (errors, warnings) = boot.shared::<Registry>().take_held();
        for warning in warnings {
            boot.warn(warning);
        }
        errors
    }
}

/// Keeps every file of a skill but its `SKILL.md` out of `resources/list`:
/// the manifest and directory reads name them.
struct Unlist;

impl HandlerCustomizer<Resource> for Unlist {
    fn customize(&self, config: &mut HandlerConfig<'_, Resource>) {
        let uri = &config.descriptor().uri;
        if config
            .boot()
            .shared::<Registry>()
            .index()
            .unlisted
            .contains(uri)
        {
            config.unlist();
        }
    }
}

/// Serves the directory `dir` (relative to the crate's `Cargo.toml`) of
/// skills, carried in the binary: each directory in it with a `SKILL.md`
/// is a skill, its files at `skill://<its path>/<file path>`. A changed file rebuilds the
/// crate; a file added or removed needs a rebuild to be seen (`cargo`
/// cannot watch a directory for a macro).
///
/// ```
/// // The fixtures of this crate's tests: `tests/skills/glossary/SKILL.md`, ...
/// mcp_skills::embed!("tests/skills");
/// ```
#[macro_export]
macro_rules! embed {
    ($dir:literal) => {
        const _: () = {
            fn make(_: &::mcp_server::boot::BootContext) -> ::mcp_server::seam::Item {
                $crate::embedded($dir, $crate::embedded_files!($dir), ::mcp_server::origin!())
            }
            ::mcp_server::register!(::mcp_server::seam::Registration::new(
                ::mcp_server::origin!(),
                ::core::concat!("skills embedded from ", $dir),
                0,
                make
            ));
        };
    };
}

/// The guide, `docs/skills.md`, compiled as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../../docs/skills.md")]
struct SkillsGuide;
