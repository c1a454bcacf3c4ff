//! Folding the customizers into each handler's config, in order, checking
//! after each that it left the handler's identity alone.

use std::collections::BTreeSet;
use std::sync::Arc;

use mcp_core::prompts::Prompt;
use mcp_core::resources::{Resource, ResourceTemplate};
use mcp_core::tools::Tool;

use super::collect::Customizer;
use super::context::BootContext;
use super::error::BootError;
use crate::customizer::{Descriptor, HandlerConfig, HandlerCustomizer, MethodDescriptor};
use crate::origin::Origin;
use crate::registry::CustomizerTarget;
use crate::target::TargetKind;

/// A descriptor kind whose customizers can be picked out of the registry.
pub(super) trait Folds: Descriptor {
    fn pick(target: &CustomizerTarget) -> Option<Arc<dyn HandlerCustomizer<Self>>>;
}

macro_rules! folds {
    ($($ty:ty => $variant:ident),* $(,)?) => {$(
        impl Folds for $ty {
            fn pick(target: &CustomizerTarget) -> Option<Arc<dyn HandlerCustomizer<Self>>> {
                match target {
                    CustomizerTarget::$variant(c) => Some(c.clone()),
                    _ => None,
                }
            }
        }
    )*};
}

folds! {
    Tool => Tool,
    Prompt => Prompt,
    Resource => Resource,
    ResourceTemplate => ResourceTemplate,
    MethodDescriptor => Method,
}

/// The customizers of every kind, and which targeted ones found their target.
pub(super) struct Folder<'p> {
    customizers: &'p [Customizer],
    matched: BTreeSet<usize>,
}

impl<'p> Folder<'p> {
    pub(super) fn new(customizers: &'p [Customizer]) -> Self {
        Self {
            customizers,
            matched: BTreeSet::new(),
        }
    }

    /// Folds the customizers of kind `D` into one handler's config.
    pub(super) fn fold<'b, D: Folds>(
        &mut self,
        descriptor: D,
        origin: Origin,
        boot: &'b BootContext,
        errors: &mut Vec<BootError>,
    ) -> HandlerConfig<'b, D> {
        let mut config = HandlerConfig::new(descriptor, origin, boot);
        for (index, customizer) in self.customizers.iter().enumerate() {
            let Some(folding) = D::pick(&customizer.target) else {
                continue;
            };
            if let Some(only) = &customizer.only {
                if only != config.descriptor().key() {
                    continue;
                }
                self.matched.insert(index);
            }
            let before = config.descriptor().identity();
            config.current = customizer.origin;
            folding.customize(&mut config);
            let after = config.descriptor().identity();
            for ((field, was), (_, is)) in before.iter().zip(&after) {
                if was != is {
                    errors.push(BootError::IdentityChanged {
                        customizer: customizer.name.clone(),
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

    /// Every customizer of one handler whose handler does not exist; `known`
    /// gives the identities of a kind, for suggestions.
    pub(super) fn unmatched(
        self,
        known: impl Fn(TargetKind) -> Vec<String>,
        errors: &mut Vec<BootError>,
    ) {
        for (index, customizer) in self.customizers.iter().enumerate() {
            let Some(only) = &customizer.only else {
                continue;
            };
            if self.matched.contains(&index) {
                continue;
            }
            let kind = match &customizer.target {
                CustomizerTarget::Tool(_) => Tool::KIND,
                CustomizerTarget::Prompt(_) => Prompt::KIND,
                CustomizerTarget::Resource(_) => Resource::KIND,
                CustomizerTarget::ResourceTemplate(_) => ResourceTemplate::KIND,
                CustomizerTarget::Method(_) => MethodDescriptor::KIND,
                CustomizerTarget::Capabilities(_) => continue,
            };
            let names = known(kind);
            errors.push(BootError::UnknownCustomizerTarget {
                customizer: customizer.name.clone(),
                origin: customizer.origin,
                kind,
                name: only.clone(),
                closest: super::closest(only, names.iter().map(String::as_str)),
            });
        }
    }
}
