//! A fuzz driver on stable Rust: hostile messages through the envelope
//! decoder of `mcp-core` and through the full dispatch of the demo server
//! (`Server::handle`, the byte-level entry point every transport uses),
//! and through its transports: hostile HTTP requests through its
//! Streamable HTTP router in process ([`http`]), hostile lines through its
//! stdio transport over in-memory pipes ([`stdio`]); with zero panics and
//! a bounded time per input as the bar.
//!
//! Each input is drawn from the run's seed and its own number
//! ([`generate`]): a valid message of either era ([`seeds`]) mutated
//! ([`mutate`]), damaged byte by byte ([`damage`]), given a hostile value
//! ([`hostile`]) or written with textual quirks ([`text`]); or random JSON
//! or bytes ([`random`]). It is sent by a stateless 2026-07-28 caller, a
//! connection before `initialize`, or a 2025-11-25 session of its own or
//! shared ([`target`]), with the request states and task ids it names made
//! for real ([`state`]), and judged ([`judge`]): a panic anywhere
//! ([`panics`]), no reply within the time limit, or a reply that is not
//! what it should be ([`check`]) fails it. [`driver`] runs many inputs on
//! worker threads, the targets ([`target::TargetKind`]) taking turns, and
//! writes each kind of failure to the corpus ([`corpus`]).
//!
//! ```no_run
//! let totals = mcp_fuzz::driver::run(&mcp_fuzz::driver::Config::new(1_000, 7));
//! assert!(totals.passed());
//! ```

pub mod busy;
mod catalogue;
pub mod check;
pub mod cli;
pub mod corpus;
pub mod damage;
pub mod dice;
pub mod driver;
pub mod generate;
pub mod guard;
pub mod hostile;
pub mod http;
pub mod judge;
pub mod mutate;
pub mod panics;
pub mod random;
pub mod report;
mod schema_example;
pub mod seeds;
pub mod state;
pub mod stdio;
mod tally;
pub mod target;
pub mod text;
pub mod totals;
mod worker;
