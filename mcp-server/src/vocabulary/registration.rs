//! Link-time registration: what crates submit through [`register!`](crate::register),
//! and what a builder adds by hand, in one shape.
//!
//! A registration is plain data: its [`Origin`], a name, an order, and a
//! function that makes the registered [`Item`] at boot from the
//! [`BootContext`]. Being `const`, it can be submitted from any crate; being
//! collected at link time, linking the crate activates it. The framework
//! sorts what it collects, since link order is unspecified.
//!
//! An item is one of four things, whoever declared the seam or kind it
//! belongs to: a member of a registration kind ([`Item::member`]), a
//! member of a one-active seam ([`Item::supply`]), or the declaration of a
//! one-active seam ([`Item::seam`]) or of a configuration section
//! ([`Item::section`]). The framework's own kinds (contributors,
//! customizers, interceptors, validators) are kinds like any crate's; each
//! seam's module adds a shorthand, such as `Item::contributor`.
//!
//! Members of one-active seams are made first ([`Registration::supply`]), so
//! the winners can be handed to everything else, which is made after
//! ([`Registration::new`]).
//!
//! ```
//! use mcp_server::boot::BootContext;
//! use mcp_server::seam::{Extension, Item, Registration};
//!
//! fn declare(_: &BootContext) -> Item { Item::extension(Extension::new("doc.example/notes", "1.0.0")) }
//! mcp_server::register!(Registration::extension(mcp_server::origin!(), "doc-extension", declare));
//! assert!(mcp_server::seam::linked().any(|r| r.name == "doc-extension"));
//! ```

use std::fmt;
use std::sync::Arc;

use super::boot_context::BootContext;
use super::config::{Section, SectionInfo};
use super::extension::{Extension, Extensions};
use super::origin::Origin;
use super::seam::{Kind, Member, OneActive, SeamDecl, SeamWord, Supplied};

/// When a registration's item is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Before one-active seams are selected: their members and declarations,
    /// and the declarations of extensions.
    Supply,
    /// After selection, with the winners in the boot context: everything else.
    Assemble,
}

/// One registration, submitted with [`register!`](crate::register) or added on a builder.
#[derive(Clone, Copy)]
pub struct Registration {
    /// Where it was written.
    pub origin: Origin,
    /// Its name, shown in the boot report and used to sort.
    pub name: &'static str,
    /// Its order among its seam's members: lower runs first (outermost).
    pub order: i32,
    /// When its item is made.
    pub stage: Stage,
    /// Makes the registered item at boot.
    pub make: fn(&BootContext) -> Item,
}

impl fmt::Debug for Registration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registration")
            .field("origin", &self.origin)
            .field("name", &self.name)
            .field("order", &self.order)
            .field("stage", &self.stage)
            .finish_non_exhaustive()
    }
}

impl Registration {
    /// A registration made once one-active seams are selected; `const`, so
    /// it can be submitted.
    pub const fn new(
        origin: Origin,
        name: &'static str,
        order: i32,
        make: fn(&BootContext) -> Item,
    ) -> Self {
        Self {
            origin,
            name,
            order,
            stage: Stage::Assemble,
            make,
        }
    }

    /// A registration of a one-active seam's member ([`Item::supply`]) or
    /// declaration ([`Item::seam`]), made before selection (its boot
    /// context has configuration and shared state, but no selected seams yet).
    pub const fn supply(
        origin: Origin,
        name: &'static str,
        make: fn(&BootContext) -> Item,
    ) -> Self {
        Self {
            origin,
            name,
            order: 0,
            stage: Stage::Supply,
            make,
        }
    }
}

impl Registration {
    /// A registration of a crate's extension declaration
    /// ([`Item::extension`]), made first, so everything else made at boot
    /// can ask [`BootContext::has_extension`].
    pub const fn extension(
        origin: Origin,
        name: &'static str,
        make: fn(&BootContext) -> Item,
    ) -> Self {
        Self::supply(origin, name, make)
    }
}

inventory::collect!(Registration);

/// Submits a [`Registration`] at link time: linking the crate that writes
/// it activates it.
///
/// ```
/// use mcp_server::boot::BootContext;
/// use mcp_server::seam::{Extension, Item, Registration};
/// fn declare(_: &BootContext) -> Item { Item::extension(Extension::new("my.example/notes", "1.0.0")) }
/// mcp_server::register!(Registration::extension(mcp_server::origin!(), "my-extension", declare));
/// ```
#[macro_export]
macro_rules! register {
    ($registration:expr) => {
        $crate::__private::inventory::submit! { $registration }
    };
}

/// Every registration linked into this program, in no particular order.
pub fn linked() -> impl Iterator<Item = &'static Registration> {
    inventory::iter::<Registration>.into_iter()
}

/// What a registration registers: a member of a kind or of a one-active
/// seam, or a declaration, whoever declared the kind or seam.
///
/// ```
/// use mcp_server::seam::{Item, Kind, SeamWord};
///
/// /// A greeting some crate contributes.
/// pub struct Greetings;
/// impl Kind for Greetings {
///     type Member = &'static str;
///     const NAME: &'static str = "greeting";
///     const CODE: &'static str = "greetings::duplicate_greeting";
///     const WORD: SeamWord = SeamWord::Contributor;
///     fn key(member: &&'static str) -> String { (*member).to_owned() }
/// }
/// let item = Item::member::<Greetings>("hello");
/// assert_eq!(item.word(), SeamWord::Contributor);
/// ```
pub struct Item(pub(crate) Registered);

/// What an item holds, by the mechanism that registers it.
pub(crate) enum Registered {
    /// A member of a registration kind.
    Member(Member),
    /// A member of a one-active seam.
    Supply(Supplied),
    /// The declaration of a one-active seam.
    Seam(SeamDecl),
    /// The declaration of a configuration section.
    Section(SectionInfo),
    /// Nothing, in this configuration; the text says why.
    Inactive(&'static str),
}

impl Item {
    /// A member of the registration kind `K`.
    pub fn member<K: Kind>(member: K::Member) -> Self {
        Self(Registered::Member(Member::new::<K>(member)))
    }

    /// `member` for the one-active seam `S`: a second supplier of `S`
    /// fails boot. Register it with [`Registration::supply`].
    pub fn supply<S: OneActive + ?Sized>(member: Arc<S>) -> Self {
        Self(Registered::Supply(Supplied::new(member)))
    }

    /// Declares the one-active seam `S`, so its default is selected when
    /// nobody supplies a member. Register it with [`Registration::supply`].
    pub fn seam<S: OneActive + ?Sized>() -> Self {
        Self(Registered::Seam(SeamDecl::of::<S>()))
    }

    /// Declares the configuration section `T`, so its settings are checked
    /// even when nothing reads it at boot.
    pub fn section<T: Section>() -> Self {
        Self(Registered::Section(SectionInfo::of::<T>()))
    }

    /// Registers nothing in this configuration: what an extension that is
    /// linked but not configured registers; `why` goes in the boot report.
    pub fn inactive(why: &'static str) -> Self {
        Self(Registered::Inactive(why))
    }

    /// Declares the extension its crate is: everything else the crate
    /// registers belongs to it. Register it with [`Registration::extension`].
    pub fn extension(extension: Extension) -> Self {
        Self::member::<Extensions>(Arc::new(extension))
    }

    /// The seam word of this item, for the boot report.
    pub fn word(&self) -> SeamWord {
        match &self.0 {
            Registered::Member(m) => m.kind.word,
            Registered::Supply(s) => s.seam.word,
            Registered::Seam(s) => s.seam.word,
            Registered::Section(_) | Registered::Inactive(_) => SeamWord::Extension,
        }
    }
}

impl fmt::Debug for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word().as_str())
    }
}
