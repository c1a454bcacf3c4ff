//! Handler-chain interceptors registered for a scope: every handler of
//! every method, of one method, or of one kind, in one stratum.

use std::fmt;
use std::sync::Arc;

use super::chain::{HandlerInterceptor, Stratum};
use crate::vocabulary::TargetKind;
use crate::vocabulary::registration::Item;
use crate::vocabulary::seam::{Kind, SeamWord};

/// Which handlers a registered handler-chain interceptor applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every handler of every method.
    All,
    /// Every handler of one method.
    Method(&'static str),
    /// Every handler of one kind.
    Kind(TargetKind),
}

impl Scope {
    pub(crate) fn covers(self, method: &str, kind: TargetKind) -> bool {
        match self {
            Scope::All => true,
            Scope::Method(m) => m == method,
            Scope::Kind(k) => k == kind,
        }
    }
}

/// A handler-chain interceptor with its stratum and scope: a member of
/// [`HandlerInterceptors`].
#[derive(Clone)]
pub struct Scoped {
    /// The stratum it sits in.
    pub stratum: Stratum,
    /// The handlers it applies to.
    pub scope: Scope,
    /// The interceptor.
    pub interceptor: Arc<dyn HandlerInterceptor>,
}

impl fmt::Debug for Scoped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scoped")
            .field("stratum", &self.stratum)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

/// The kind of handler-chain interceptors registered for a scope: each
/// joins the chain of every handler in its scope, sorted into its stratum
/// by (order, registration name, origin).
#[derive(Debug)]
pub struct HandlerInterceptors;

impl Kind for HandlerInterceptors {
    type Member = Scoped;
    const NAME: &'static str = "handler-chain interceptor";
    const CODE: &'static str = "mcp::duplicate_handler_interceptor";
    const WORD: SeamWord = SeamWord::Interceptor;
    const UNIQUE: bool = false;
    fn key(_: &Scoped) -> String {
        String::new()
    }
    fn describe(member: &Scoped) -> String {
        format!("{} handler-chain interceptor", member.stratum)
    }
}

impl Item {
    /// A handler-chain interceptor in `stratum` of every handler in `scope`
    /// ([`HandlerInterceptors`]).
    pub fn handler_interceptor(
        stratum: Stratum,
        scope: Scope,
        interceptor: impl HandlerInterceptor,
    ) -> Self {
        Self::member::<HandlerInterceptors>(Scoped {
            stratum,
            scope,
            interceptor: Arc::new(interceptor),
        })
    }
}
