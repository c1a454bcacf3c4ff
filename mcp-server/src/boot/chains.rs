//! Building handler chains: attached and scoped interceptors sorted into
//! their strata, the guards at the start of `AUTHORIZATION`, the
//! alternate-result interceptors after `INVOCATION`.

use std::sync::Arc;

use crate::dispatch::{ChainParts, Guards, Step};
use crate::seam::customizer::{Attached, Descriptor, HandlerConfig};
use crate::seam::guard::Guard;
use crate::seam::interceptor::{
    AlternateResultInterceptor, AlternateResultInterceptors, HandlerInterceptors, Stratum,
};
use crate::vocabulary::sort;
use crate::vocabulary::{BootContext, Origin, Target, TargetKind};

/// Builds the parts of handler chains.
pub(super) struct ChainBuilder<'b> {
    boot: &'b BootContext,
    alternates: Arc<[(String, Arc<dyn AlternateResultInterceptor>)]>,
}

impl<'b> ChainBuilder<'b> {
    /// The chains of the handler-chain and alternate-result interceptors
    /// registered at `boot`.
    pub(super) fn new(boot: &'b BootContext) -> Self {
        let alternates = boot
            .entries::<AlternateResultInterceptors>()
            .map(|a| (format!("{} ({})", a.name, a.origin), a.member.clone()))
            .collect();
        Self { boot, alternates }
    }

    /// The parts of the chain of one customized handler of `method`.
    pub(super) fn configured<D: Descriptor>(
        &self,
        method: &str,
        config: HandlerConfig<'_, D>,
    ) -> (D, ChainParts) {
        let origin = config.origin();
        let (descriptor, guards, attached) = config.into_parts();
        let target = Target {
            kind: D::KIND,
            name: descriptor.key().to_owned(),
            meta: descriptor.meta().cloned(),
            origin,
        };
        let guards = Arc::new(Guards {
            target: target.clone(),
            guards: guards.into(),
        });
        let parts = self.parts(method, target, guards, attached);
        (descriptor, parts)
    }

    /// The parts of a chain whose guards are `guards` (shared with other
    /// chains: a prompt and its completions).
    pub(super) fn parts(
        &self,
        method: &str,
        target: Target,
        guards: Arc<Guards>,
        attached: Vec<Attached>,
    ) -> ChainParts {
        let mut all: Vec<Attached> = attached;
        all.extend(
            self.boot
                .entries::<HandlerInterceptors>()
                .filter(|g| g.member.scope.covers(method, target.kind))
                .map(|g| Attached {
                    stratum: g.member.stratum,
                    order: g.order,
                    name: g.name.to_owned(),
                    interceptor: g.member.interceptor.clone(),
                    origin: g.origin,
                }),
        );
        sort::sort_by(&mut all, |a, b| {
            (a.stratum, a.order, &a.name, a.origin).cmp(&(b.stratum, b.order, &b.name, b.origin))
        });
        let mut steps = Vec::with_capacity(all.len() + 1);
        let mut guards_placed = guards.is_empty();
        for a in all {
            if !guards_placed && a.stratum >= Stratum::Authorization {
                steps.push(Step::Guards);
                guards_placed = true;
            }
            steps.push(Step::Interceptor {
                stratum: a.stratum,
                name: a.name,
                origin: a.origin,
                interceptor: a.interceptor,
            });
        }
        if !guards_placed {
            steps.push(Step::Guards);
        }
        ChainParts {
            target,
            steps: steps.into(),
            guards,
            alternates: self.alternates.clone(),
            answerable: true,
        }
    }

    /// The parts of a built-in method's one chain, without guards.
    pub(super) fn unguarded(&self, method: &'static str) -> ChainParts {
        let target = Target::new(TargetKind::Method, method, Origin::FRAMEWORK);
        let guards = Arc::new(Guards {
            target: target.clone(),
            guards: Vec::<Arc<dyn Guard>>::new().into(),
        });
        self.parts(method, target, guards, Vec::new())
    }
}
