//! One item of a list, with what decides whether a caller sees it.

use std::sync::Arc;

use super::chain::Guards;
use crate::context::RequestContext;
use crate::seam::sink::Change;

/// One listed item with what decides its visibility.
pub(crate) struct Listed<D> {
    pub(crate) descriptor: D,
    pub(crate) guards: Arc<Guards>,
    /// Whether it appears in its list (a customizer may unlist it).
    pub(crate) listed: bool,
}

/// The guards of the members a change touched: a listener hears of the
/// change when it may see one of them, before or after.
pub(crate) struct Audience(pub(crate) Vec<Arc<Guards>>);

impl Audience {
    /// `change`, heard only by callers who may see one of `guards`; by
    /// everyone when one of them is unguarded, by no one when there are none.
    pub(crate) fn screen(change: Change, guards: Vec<Arc<Guards>>) -> Change {
        if guards.iter().any(|g| g.is_empty()) {
            return change;
        }
        let mut change = change;
        change.audience.0 = Some(Arc::new(Audience(guards)));
        change
    }

    /// Whether the caller of `ctx` may hear of `change`.
    pub(crate) fn admits(change: &Change, ctx: &RequestContext) -> bool {
        match change
            .audience
            .0
            .as_ref()
            .map(|a| a.downcast_ref::<Audience>())
        {
            None => true,
            Some(Some(audience)) => audience.0.iter().any(|g| g.allow(ctx)),
            Some(None) => false,
        }
    }
}
