//! A Model Context Protocol server framework whose extensions activate by being linked.
//!
//! Application authors write tools, prompts and resources; extension crates
//! register contributors, customizers, interceptors, stores and sinks at link
//! time; at boot the framework assembles one immutable server and refuses to
//! start, with a precise diagnostic, when the pieces do not fit.
//!
//! The wire model this crate speaks is [`mcp-core`](https://docs.rs/mcp-core).
