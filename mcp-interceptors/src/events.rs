//! Which events an interceptor may hook.

/// Methods the proposal keeps out of interception: the handshake, liveness
/// and completion; `server/discover` is the handshake of 2026-07-28, and a
/// `subscriptions/listen` stream carries notifications, which are never
/// interceptable either.
pub const NOT_INTERCEPTABLE: &[&str] = &[
    "initialize",
    "ping",
    "completion/complete",
    "server/discover",
    "subscriptions/listen",
];

/// Prefixes the extension reserves for itself.
const RESERVED_PREFIXES: &[&str] = &["interceptors/", "interceptor/", "notifications/"];

/// Whether a request of method `event` may be intercepted.
///
/// ```
/// use mcp_interceptors::events::is_interceptable;
///
/// assert!(is_interceptable("tools/call"));
/// assert!(is_interceptable("acme/search"));
/// assert!(!is_interceptable("initialize"));
/// assert!(!is_interceptable("interceptor/invoke"));
/// assert!(!is_interceptable("notifications/progress"));
/// ```
pub fn is_interceptable(event: &str) -> bool {
    !NOT_INTERCEPTABLE.contains(&event) && !RESERVED_PREFIXES.iter().any(|p| event.starts_with(p))
}
