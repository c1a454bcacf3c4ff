//! The 2025-11-25 (legacy) definitions a dual-era server needs: the
//! `initialize` handshake, `ping`, `logging/setLevel`, resource subscriptions,
//! server-to-client requests and the core tasks of that revision.
//!
//! Definitions shared by both eras (tools, prompts, resources, content) live
//! in the crate's topic modules; this module holds what only the legacy era has.

pub mod elicitation;
pub mod initialize;
pub mod logging;
pub mod messages;
pub mod ping;
pub mod roots;
pub mod subscribe;
pub mod tasks;
