//! One item of a list, with what decides whether a caller sees it.

use std::sync::Arc;

use super::chain::Guards;

/// One listed item with what decides its visibility.
pub(crate) struct Listed<D> {
    pub(crate) descriptor: D,
    pub(crate) guards: Arc<Guards>,
    /// Whether it appears in its list (a customizer may unlist it).
    pub(crate) listed: bool,
}
