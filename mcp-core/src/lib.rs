//! The Model Context Protocol wire model: every definition of the 2026-07-28
//! schema, the 2025-11-25 definitions a dual-era server still needs, the
//! official tasks and apps extensions, and the JSON-RPC 2.0 envelope.
//!
//! The model follows `schema.ts`, the normative source, and round-trips
//! losslessly: members a definition allows but this model does not name
//! (inside `_meta`, capabilities, JSON Schema values, `structuredContent`)
//! survive decode → encode unchanged.
//!
//! Every method is a type implementing [`method::Method`]: its wire name,
//! params type, result type and eras. Extensions declare their methods the
//! same way.
//!
//! ```
//! use mcp_core::jsonrpc::{self, Message};
//! use mcp_core::tools::CallToolRequestParams;
//!
//! let bytes = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#;
//! let Message::Request(request) = jsonrpc::decode(bytes).unwrap() else { unreachable!() };
//! let params: CallToolRequestParams = request.params_as().unwrap();
//! assert_eq!(params.name, "echo");
//! ```
//!
//! The guide is [docs/architecture.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/architecture.md);
//! its first section is this crate.
//!
//! # Where the official `schema.json` disagrees with `schema.ts`
//!
//! The generated schema types `JSONValue` as strings, integers, booleans,
//! objects and arrays: no `null`, no decimals. `schema.ts` allows both, and so
//! does this model (capability settings, sampling `metadata`, elicitation
//! answers may carry them).

#![cfg_attr(docsrs, feature(doc_cfg))]
pub mod cancellation;
pub mod capabilities;
pub mod completion;
pub mod content;
pub mod discover;
pub mod elicitation;
pub mod error;
pub mod ext;
pub mod json;
pub mod jsonrpc;
pub mod legacy;
pub mod logging;
pub mod messages;
pub mod meta;
pub mod method;
pub mod mrtr;
pub mod pagination;
pub mod progress;
pub mod prompts;
pub mod resources;
pub mod result;
pub mod roots;
pub mod sampling;
pub mod subscriptions;
pub mod tools;
pub mod version;

#[cfg(feature = "arbitrary")]
pub mod arb;
mod open;
mod tag;
