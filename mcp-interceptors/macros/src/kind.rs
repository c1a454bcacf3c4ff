//! The two attributes, and the names each one's expansion uses.

use proc_macro2::{Ident, Span};

/// Which attribute is expanding.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `#[validator]`: judges payloads.
    Validator,
    /// `#[mutator]`: rewrites payloads.
    Mutator,
}

impl Kind {
    /// The attribute's name, as written after `#`.
    pub(crate) fn attr(self) -> &'static str {
        match self {
            Kind::Validator => "validator",
            Kind::Mutator => "mutator",
        }
    }

    /// The other attribute.
    pub(crate) fn other(self) -> Kind {
        match self {
            Kind::Validator => Kind::Mutator,
            Kind::Mutator => Kind::Validator,
        }
    }

    /// The runtime trait an interceptor of this kind implements.
    pub(crate) fn trait_name(self) -> &'static str {
        match self {
            Kind::Validator => "Validate",
            Kind::Mutator => "Mutate",
        }
    }

    /// The runtime trait, as an identifier.
    pub(crate) fn trait_ident(self) -> Ident {
        Ident::new(self.trait_name(), Span::call_site())
    }

    /// The trait's method (`validate`, `mutate`).
    pub(crate) fn method(self) -> Ident {
        let name = match self {
            Kind::Validator => "validate",
            Kind::Mutator => "mutate",
        };
        Ident::new(name, Span::call_site())
    }

    /// What the method answers with (`Validation`, `Mutation`).
    pub(crate) fn outcome(self) -> Ident {
        let name = match self {
            Kind::Validator => "Validation",
            Kind::Mutator => "Mutation",
        };
        Ident::new(name, Span::call_site())
    }

    /// The conversion trait a function's return type implements, and its
    /// method.
    pub(crate) fn conversion(self) -> (Ident, Ident) {
        let (trait_name, method) = match self {
            Kind::Validator => ("IntoValidation", "into_validation"),
            Kind::Mutator => ("IntoMutation", "into_mutation"),
        };
        (
            Ident::new(trait_name, Span::call_site()),
            Ident::new(method, Span::call_site()),
        )
    }

    /// The `Interceptor` constructor (`Interceptor::validator`).
    pub(crate) fn constructor(self) -> Ident {
        Ident::new(self.attr(), Span::call_site())
    }

    /// The name of the unit struct that runs a function of this kind.
    pub(crate) fn runner(self) -> Ident {
        let name = match self {
            Kind::Validator => "__McpInterceptorsValidatorFn",
            Kind::Mutator => "__McpInterceptorsMutatorFn",
        };
        Ident::new(name, Span::call_site())
    }
}
