//! Tools the demo's interceptors guard (see [`crate::interceptors`]): the
//! PII redactor rewrites what goes in and out of them, and the injection
//! guard refuses what looks like an attack. No other tool is touched, so
//! the conformance suite's traffic passes as it is.

use mcp_server::tool;

/// The tools the demo's interceptors keep to.
pub const GUARDED: &[&str] = &["support_ticket", "customer_profile", "search_orders"];

/// Opens a support ticket with a customer's message (personal data in it
/// is redacted before the ticket is written).
#[tool]
pub async fn support_ticket(message: String) -> String {
    format!("Ticket opened: {message}")
}

/// A customer's profile (contact details in it are redacted on the way out).
#[tool]
pub async fn customer_profile(customer_id: String) -> String {
    format!("Customer {customer_id}: Ada Lovelace, ada@example.com, +1 555 010 0199, prefers email")
}

/// Searches orders by a free-text query (queries that look like an
/// injection are refused).
#[tool]
pub async fn search_orders(query: String) -> String {
    format!("No orders match `{query}`")
}
