//! Transports: how bytes reach a [`Server`](crate::Server) and its answers
//! go back. Each transport decodes messages, builds the [`Caller`](crate::Caller)
//! of every request (with the legacy connection it came on, if any), hands
//! client notifications to [`Server::admit`](crate::Server::admit), and
//! delivers responses and notifications. Everything else, the legacy
//! connection included, is the server's pipeline.

mod changes;
mod deadline;
pub mod http;
mod outbound;
mod running;
pub mod stdio;
