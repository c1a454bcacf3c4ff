//! The vocabulary every layer speaks in: where a registration was written,
//! what a request aims at, how boot fails and what it knows, how seams and
//! kinds are declared and registered, the configuration, and who is
//! calling. It imports nothing above it.

pub mod auth;
pub(crate) mod boot_context;
pub mod config;
pub(crate) mod diagnostic;
pub(crate) mod error;
pub(crate) mod extension;
pub(crate) mod future;
pub(crate) mod lock;
pub(crate) mod origin;
pub(crate) mod registration;
pub(crate) mod render;
pub(crate) mod seam;
pub(crate) mod shutdown;
pub(crate) mod sort;
pub(crate) mod sorted_map;
pub(crate) mod target;

pub use boot_context::BootContext;
pub(crate) use diagnostic::closest;
pub use diagnostic::{BootError, BootErrors, Diagnostic};
pub(crate) use future::BoxFuture;
pub(crate) use lock::lock;
pub use origin::Origin;
pub use render::{Colour, Rendered};
pub use shutdown::{Drained, Held, Recording, Shutdown};
pub use target::{Target, TargetKind};
