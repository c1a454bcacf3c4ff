//! Transports: how bytes reach a [`Server`](crate::Server) and its answers
//! go back. Each transport decodes messages, builds the [`Caller`](crate::Caller)
//! of every request, runs the legacy lifecycle when a 2025-11-25 client asks
//! for it, and delivers responses and notifications.

pub mod http;
mod outbound;
mod running;
pub mod stdio;
