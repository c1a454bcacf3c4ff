//! The tools, one module per kind of behaviour the suite checks.
//!
//! | module | tools |
//! |---|---|
//! | [`content`] | one result per content type, and the `isError` result |
//! | [`stream`] | tools whose work shows on the response stream: logs, progress, a slow answer |
//! | [`input`] | tools that ask the client: sampling and elicitation |
//! | [`forms`] | the elicitation forms those tools send |
//! | [`schema`] | the tool with a hand-written JSON Schema 2020-12 input schema |
//! | [`headers`] | the tool whose argument is mirrored in an `Mcp-Param-*` header |
//! | [`changes`] | tools that announce a changed tool or prompt list |
//! | [`rounds`] | tools that ask for input in rounds (2026-07-28 multi round-trip requests) |
//! | [`tasks`] | tools that run as tasks (the `mcp-tasks` extension) |
//! | [`charts`] | a tool with an interactive View (the `mcp-apps` extension) |
//! | [`guarded`] | tools the demo's interceptors guard (the `mcp-interceptors` extension) |

pub mod changes;
pub mod charts;
pub mod content;
pub mod forms;
pub mod guarded;
pub mod headers;
pub mod input;
pub mod rounds;
pub mod schema;
pub mod stream;
pub mod tasks;
