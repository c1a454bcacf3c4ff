//! Transports, and the one interface every transport uses: how bytes
//! reach a [`Server`](crate::Server) and its answers go back.
//!
//! A transport decodes each message ([`decode`]) and tells the server who
//! sent it with a [`Peer`]: the credentials, the legacy [`Session`] the
//! message comes on (from which the era follows), and where the request's
//! notifications ([`NotificationSink`]), cancellation and questions to the
//! client ([`ClientRequester`]) go. Then:
//!
//! - a request is admitted once ([`Server::admit`](crate::Server::admit): era, principal, route,
//!   `_meta`, and the [`Headers`] that mirror it, if the transport has
//!   any), served ([`Server::serve`](crate::Server::serve)), and answered with the encoded
//!   [`Outcome`]; a [`Refusal`] carries the outcome to answer with
//!   instead. Whatever goes out before the answer (progress, log
//!   messages, a listen stream's changes, requests to the client) reaches
//!   the peer's sinks as it is made;
//! - a client notification goes through
//!   [`Server::admit_notification`](crate::Server::admit_notification),
//!   and is acted on (a cancellation, with [`InFlight`]) only if admitted;
//! - a client's response settles the server's request it answers
//!   ([`Outbound`]).
//!
//! A transport that keeps legacy sessions tells each of the changes it
//! hears of ([`ChangeFeed`]). [`stdio`] and [`http`] (behind the `http`
//! feature) are built on this interface alone, and so can any other.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! use mcp_server::core::jsonrpc::{self, Message};
//! use mcp_server::transport::Peer;
//!
//! let server = mcp_server::Server::builder().without_linked().build();
//! let line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{
//!     "io.modelcontextprotocol/protocolVersion":"2026-07-28",
//!     "io.modelcontextprotocol/clientCapabilities":{}}}}"#;
//! let Ok(Message::Request(request)) = jsonrpc::decode(line) else { unreachable!() };
//! let answer = match server.admit(request, &Peer::modern(), None).await {
//!     Ok(admitted) => server.serve(admitted).await.encode(),
//!     Err(refusal) => refusal.into_outcome().encode(),
//! };
//! // This server has no tools, so it does not serve `tools/list`.
//! assert!(String::from_utf8(answer).unwrap().contains("-32601"));
//! # });
//! ```

mod changes;
#[cfg(feature = "http")]
pub mod http;
mod in_flight;
mod outbound;
pub mod stdio;

pub use changes::ChangeFeed;
pub use in_flight::InFlight;
pub use outbound::{Outbound, Pending, Requester};

pub use crate::context::Session;
pub use crate::context::input::ClientRequester;
pub use crate::seam::sink::{DiscardSink, NotificationSink};
pub use crate::server::{Admitted, Headers, Outcome, Peer, Refusal, Seed, encode_error};
pub use mcp_core::jsonrpc::decode;
