//! Tools the demo's interceptors guard (see [`crate::interceptors`]): the
//! PII redactor rewrites what goes in and out of them, and the injection
//! guard refuses what looks like an attack. No other tool is touched, so
//! the conformance suite's traffic passes as it is.

use mcp_server::core::elicitation::ElicitRequestParams;
use mcp_server::{RequestContext, tool};

/// The tools the demo's interceptors keep to.
pub const GUARDED: &[&str] = &[
    "support_ticket",
    "customer_profile",
    "search_orders",
    "confirm_invoice",
];

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

/// Asks the client to confirm where a customer's invoice goes (the
/// redactor removes the contact details from the question on its way out).
#[tool]
pub async fn confirm_invoice(
    ctx: RequestContext,
    customer_id: String,
) -> Result<String, mcp_server::context::InputError> {
    let question: ElicitRequestParams = serde_json::from_value(serde_json::json!({
        "mode": "form",
        "message": format!("Send the invoice of {customer_id} to ada@example.com or +1 555 010 0199?"),
        "requestedSchema": {"type": "object", "properties": {"send": {"type": "boolean"}}, "required": ["send"]}
    }))
    .map_err(|e| mcp_server::context::InputError::Malformed(e.to_string()))?;
    let answer = ctx.elicit(question).await?;
    Ok(format!("Invoice of {customer_id}: {:?}", answer.action))
}
