//! Seams: how a crate declares its own and registers members of any, and
//! one module per seam word, each with the framework's own contracts.
//!
//! | seam word | when it runs | merge rule | module |
//! |---|---|---|---|
//! | Contributor | once, at boot | union; a collision fails boot naming both | [`contributor`] |
//! | Customizer | once per target, at boot | folded in order; may not change identity | [`customizer`] |
//! | Interceptor | per request | sorted by order, then name; lower is outermost | [`interceptor`] (and the [`guard`]s a customizer attaches) |
//! | Store / Source / Strategy | chosen at boot, used per request | exactly one active; default when none; two fail boot | [`store`], [`source`], [`strategy`] |
//! | Sink | at run time | one-way delivery | [`sink`] |
//!
//! Every registration is plain data ([`Registration`]) submitted with
//! [`register!`](crate::register): linking the crate that writes it
//! activates it. What it registers is an [`Item`]: a member of a
//! registration kind ([`Kind`], many members, collisions named), a member
//! of a one-active seam ([`OneActive`], exactly one active), or a
//! declaration of either. The framework declares its own seams and kinds
//! with the very same mechanism.

pub mod contributor;
pub mod customizer;
pub mod guard;
pub mod interceptor;
pub mod sink;
pub mod source;
pub mod store;
pub mod strategy;

pub use crate::vocabulary::extension::{Assembled, Extension, Extensions, Requirement};
pub use crate::vocabulary::registration::{Item, Registration, Stage, linked};
pub use crate::vocabulary::seam::{Entry, Kind, OneActive, SeamWord, Selection};
pub use crate::vocabulary::{Origin, Target, TargetKind};
