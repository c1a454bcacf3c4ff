//! Folding the customizers into each handler's config, in order, checking
//! after each that it left the handler's identity alone.

use std::any::TypeId;
use std::collections::BTreeSet;

use mcp_core::prompts::Prompt;
use mcp_core::resources::{Resource, ResourceTemplate};
use mcp_core::tools::Tool;

use crate::seam::customizer::{Customizers, Descriptor, HandlerConfig, MethodDescriptor};
use crate::vocabulary::sort;
use crate::vocabulary::{BootContext, BootError, Origin, TargetKind, closest};

/// Which targeted customizers found their target, by kind and place.
#[derive(Default)]
pub(super) struct Folder {
    matched: BTreeSet<(TypeId, usize)>,
}

impl Folder {
    /// Counts what `other` matched as matched here too.
    pub(super) fn absorb(&mut self, other: Folder) {
        self.matched.extend(other.matched);
    }

    /// Folds the customizers of kind `D` into one handler's config.
    pub(super) fn fold<'b, D: Descriptor>(
        &mut self,
        descriptor: D,
        origin: Origin,
        boot: &'b BootContext,
        errors: &mut Vec<BootError>,
    ) -> HandlerConfig<'b, D> {
        let mut config = HandlerConfig::new(descriptor, origin, boot);
        for (index, customizer) in boot.entries::<Customizers<D>>().enumerate() {
            if let Some(only) = &customizer.member.only {
                if only != config.descriptor().key() {
                    continue;
                }
                self.matched.insert((TypeId::of::<Customizers<D>>(), index));
            }
            let before = config.descriptor().identity();
            config.current = customizer.origin;
            customizer.member.customizer.customize(&mut config);
            let after = config.descriptor().identity();
            for ((field, was), (_, is)) in before.iter().zip(&after) {
                if was != is {
                    errors.push(BootError::IdentityChanged {
                        customizer: customizer.name.to_owned(),
                        origin: customizer.origin,
                        kind: D::KIND,
                        target: before[0].1.clone(),
                        field,
                        before: was.clone(),
                        after: is.clone(),
                    });
                }
            }
        }
        config
    }

    /// Every customizer of one handler whose handler does not exist, in
    /// registration order; `known` gives the identities of a kind, for
    /// suggestions.
    pub(super) fn unmatched(
        &self,
        boot: &BootContext,
        known: &dyn Fn(TargetKind) -> Vec<String>,
        errors: &mut Vec<BootError>,
    ) {
        let mut found = Vec::new();
        self.unmatched_of::<Tool>(boot, known, &mut found);
        self.unmatched_of::<Prompt>(boot, known, &mut found);
        self.unmatched_of::<Resource>(boot, known, &mut found);
        self.unmatched_of::<ResourceTemplate>(boot, known, &mut found);
        self.unmatched_of::<MethodDescriptor>(boot, known, &mut found);
        sort::sort_by(&mut found, |a, b| a.0.cmp(&b.0));
        errors.extend(found.into_iter().map(|(_, error)| error));
    }

    /// The unmatched customizers of kind `D`, each with its place in the
    /// registration order.
    fn unmatched_of<D: Descriptor>(
        &self,
        boot: &BootContext,
        known: &dyn Fn(TargetKind) -> Vec<String>,
        found: &mut Vec<((i32, String, Origin), BootError)>,
    ) {
        let kind = TypeId::of::<Customizers<D>>();
        for (index, customizer) in boot.entries::<Customizers<D>>().enumerate() {
            let Some(only) = &customizer.member.only else {
                continue;
            };
            if self.matched.contains(&(kind, index)) {
                continue;
            }
            let names = known(D::KIND);
            let place = (
                customizer.order,
                customizer.name.to_owned(),
                customizer.origin,
            );
            found.push((
                place,
                BootError::UnknownCustomizerTarget {
                    customizer: customizer.name.to_owned(),
                    origin: customizer.origin,
                    kind: D::KIND,
                    name: only.clone(),
                    closest: closest(only, names.iter().map(String::as_str)),
                },
            ));
        }
    }
}
