//! Support code shared by the workspace-level integration tests, which prove
//! the `mcp-core` wire model against the official MCP schemas.
//!
//! - [`schema`]: the official `schema.json` documents and validators for
//!   their definitions.
//! - [`table`]: every schema definition mapped to the Rust type that models it.
//! - [`generators`]: generators for definitions narrower than their Rust type.
//! - [`examples`]: the official example messages.
//! - [`diff`]: readable differences between JSON values.
//! - [`redis`]: a `redis-server` of a test's own.
//! - [`sse`]: server-sent events read off a response.
//! - [`http`]: Streamable HTTP requests of both protocol eras, sent to an
//!   in-process router or, in HTTP/1.1, to a server process of a test's own
//!   on a free loopback port.
//! - [`conversation`]: the conversations every line transport holds as
//!   stdio does, one set of test bodies run over each transport.
//! - [`process`]: a server binary of a test's own, spoken to over stdio.

pub mod conversation;
pub mod diff;
pub mod examples;
pub mod generators;
pub mod http;
pub mod process;
pub mod redis;
pub mod schema;
pub mod sse;
pub mod table;
