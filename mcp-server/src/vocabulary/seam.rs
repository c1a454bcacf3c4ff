//! Seams any crate can declare: a one-active seam (a store, source,
//! strategy or sink with a framework-style default) and a registration kind
//! with many members.
//!
//! The framework's own seams are declared the same way, so an extension's
//! seam gets exactly what a built-in one gets: for a one-active seam, its
//! default when nobody supplies a member, the supplied one otherwise, a
//! boot failure naming both when two are supplied, a boot-report line saying
//! which won and why, and a typed lookup of the winner from the server and
//! from every request context; for a kind, its members collected, sorted and
//! checked for collisions at boot, and a typed lookup of them.
//!
//! ```
//! use std::sync::Arc;
//! use mcp_server::seam::{OneActive, SeamWord};
//! use mcp_server::boot::BootContext;
//!
//! /// Where notes are kept.
//! pub trait NoteStore: Send + Sync + 'static {
//!     fn count(&self) -> usize;
//! }
//!
//! #[derive(Default)]
//! struct NoNotes;
//! impl NoteStore for NoNotes {
//!     fn count(&self) -> usize { 0 }
//! }
//!
//! impl OneActive for dyn NoteStore {
//!     const NAME: &'static str = "NoteStore";
//!     const WORD: SeamWord = SeamWord::Store;
//!     fn fallback(_: &BootContext) -> (&'static str, Arc<Self>) {
//!         ("NoNotes", Arc::new(NoNotes))
//!     }
//! }
//!
//! // Declared by its crate; a deployment may supply another member.
//! let server = mcp_server::Server::builder()
//!     .without_linked()
//!     .declare::<dyn NoteStore>(mcp_server::origin!())
//!     .build();
//! assert_eq!(server.active::<dyn NoteStore>().unwrap().count(), 0);
//! assert!(server.report().to_string().contains("NoteStore: `NoNotes`"));
//! ```

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use crate::vocabulary::BootContext;
use crate::vocabulary::Origin;

/// The word a seam is named for, which tells its connection and merge rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum SeamWord {
    /// Returns values at boot; the framework unions them.
    Contributor,
    /// Folds into a framework-owned config at boot.
    Customizer,
    /// Wraps requests; receives `next`.
    Interceptor,
    /// Keeps state a deployment chooses where to keep (exactly one active).
    Store,
    /// Tells the framework a fact, such as who is calling (exactly one active).
    Source,
    /// Decides how the framework does a thing (exactly one active).
    Strategy,
    /// Delivers one way (exactly one active where it is a seam).
    Sink,
    /// Inspects the assembled server at boot, changing nothing.
    Validator,
    /// Marks a linked extension crate.
    Extension,
}

impl SeamWord {
    /// The word as written in reports: `Store`, `Contributor`, …
    pub fn as_str(self) -> &'static str {
        match self {
            SeamWord::Contributor => "Contributor",
            SeamWord::Customizer => "Customizer",
            SeamWord::Interceptor => "Interceptor",
            SeamWord::Store => "Store",
            SeamWord::Source => "Source",
            SeamWord::Strategy => "Strategy",
            SeamWord::Sink => "Sink",
            SeamWord::Validator => "Validator",
            SeamWord::Extension => "Extension",
        }
    }
}

impl fmt::Display for SeamWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A seam where exactly one member is active: implemented on the trait
/// object type of the seam's trait (`impl OneActive for dyn TaskStore`).
///
/// The member is found at run time with [`Server::active`](crate::Server::active)
/// or [`RequestContext::active`](crate::RequestContext::active).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a one-active seam",
    note = "declare the seam with `impl mcp_server::seam::OneActive for dyn YourTrait {{ .. }}`"
)]
pub trait OneActive: Send + Sync + 'static {
    /// The seam's name in reports and diagnostics, such as `TaskStore`.
    const NAME: &'static str;
    /// Its seam word: [`SeamWord::Store`], [`SeamWord::Source`],
    /// [`SeamWord::Strategy`] or [`SeamWord::Sink`].
    const WORD: SeamWord;
    /// Whether the seam is experimental: its contract may change before
    /// 1.0, and the boot report marks its selection so.
    const EXPERIMENTAL: bool = false;
    /// The framework-style default, used when nobody supplies a member: its
    /// name for the report, and the member. It may read configuration.
    fn fallback(boot: &BootContext) -> (&'static str, Arc<Self>);
}

/// A candidate member of a one-active seam, as a registration supplies it
/// ([`Item::supply`](super::registration::Item::supply)).
pub(crate) struct Supplied {
    pub(crate) seam: SeamInfo,
    pub(crate) value: Box<dyn Any + Send + Sync>,
}

impl fmt::Debug for Supplied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Supplied")
            .field("seam", &self.seam.name)
            .finish_non_exhaustive()
    }
}

impl Supplied {
    /// Supplies `member` for seam `S`.
    pub(crate) fn new<S: OneActive + ?Sized>(member: Arc<S>) -> Self {
        Self {
            seam: SeamInfo::of::<S>(),
            value: Box::new(member),
        }
    }
}

/// What boot needs to know of a one-active seam, with its type erased.
#[derive(Clone, Copy)]
pub(crate) struct SeamInfo {
    pub(crate) id: TypeId,
    pub(crate) name: &'static str,
    pub(crate) word: SeamWord,
    pub(crate) experimental: bool,
    /// Makes the default: its name and the member, as a boxed `Arc<S>`.
    pub(crate) fallback: fn(&BootContext) -> (&'static str, Box<dyn Any + Send + Sync>),
}

impl SeamInfo {
    pub(crate) fn of<S: OneActive + ?Sized>() -> Self {
        fn fallback<S: OneActive + ?Sized>(
            boot: &BootContext,
        ) -> (&'static str, Box<dyn Any + Send + Sync>) {
            let (name, member) = S::fallback(boot);
            (name, Box::new(member))
        }
        Self {
            id: TypeId::of::<S>(),
            name: S::NAME,
            word: S::WORD,
            experimental: S::EXPERIMENTAL,
            fallback: fallback::<S>,
        }
    }
}

/// The declaration of a one-active seam: boot selects its default when
/// nobody supplies a member ([`Item::seam`](super::registration::Item::seam)).
pub(crate) struct SeamDecl {
    pub(crate) seam: SeamInfo,
}

impl fmt::Debug for SeamDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeamDecl")
            .field("seam", &self.seam.name)
            .finish()
    }
}

impl SeamDecl {
    /// Declares seam `S`.
    pub(crate) fn of<S: OneActive + ?Sized>() -> Self {
        Self {
            seam: SeamInfo::of::<S>(),
        }
    }
}

/// A kind of registration with many members, declared by any crate: members
/// are collected at boot, sorted by (order, key, origin), and two members
/// with one key fail boot naming both. The framework declares its own kinds
/// (contributors, customizers, interceptors, validators) the same way.
///
/// ```
/// use mcp_server::seam::{Item, Kind, SeamWord};
///
/// /// A greeting some crate contributes.
/// pub struct Greeting { pub language: &'static str, pub text: &'static str }
///
/// pub struct Greetings;
/// impl Kind for Greetings {
///     type Member = Greeting;
///     const NAME: &'static str = "greeting";
///     const CODE: &'static str = "greetings::duplicate_greeting";
///     const WORD: SeamWord = SeamWord::Contributor;
///     fn key(member: &Greeting) -> String { member.language.to_owned() }
/// }
///
/// let server = mcp_server::Server::builder()
///     .without_linked()
///     .register(mcp_server::origin!(), "hello", 0,
///         Item::member::<Greetings>(Greeting { language: "en", text: "hello" }))
///     .build();
/// assert_eq!(server.members::<Greetings>()[0].text, "hello");
/// ```
pub trait Kind: 'static {
    /// The member type.
    type Member: Send + Sync + 'static;
    /// What one member is called in reports and diagnostics (`greeting`).
    const NAME: &'static str;
    /// The diagnostic code of a collision (`my_crate::duplicate_greeting`).
    const CODE: &'static str;
    /// The seam word the kind belongs to, for the boot report.
    const WORD: SeamWord;
    /// The help line of a collision.
    const HELP: &'static str = "rename one, or remove one crate from the build";
    /// Whether a member's key is its identity, so two members with one key
    /// fail boot. A kind whose members are told apart by their registration
    /// alone (the framework's contributors, interceptors and validators)
    /// says `false`: its members never collide, and are sorted by (order,
    /// registration name, origin).
    const UNIQUE: bool = true;
    /// Whether the boot report shows each member's order.
    const ORDERED: bool = true;
    /// Whether the kind is experimental: its contract may change before
    /// 1.0, and the boot report marks its members so.
    const EXPERIMENTAL: bool = false;
    /// The identity of a member: two members with one key collide.
    fn key(member: &Self::Member) -> String;
    /// How the boot report names a member: by default its kind and key
    /// (``greeting `en` ``), or its kind alone when keys are not identities
    /// ([`UNIQUE`](Self::UNIQUE) is `false`).
    fn describe(member: &Self::Member) -> String {
        if Self::UNIQUE {
            format!("{} `{}`", Self::NAME, Self::key(member))
        } else {
            Self::NAME.to_owned()
        }
    }
}

/// One member of a [`Kind`], as a registration supplies it
/// ([`Item::member`](super::registration::Item::member)).
pub(crate) struct Member {
    pub(crate) kind: KindInfo,
    pub(crate) key: String,
    /// How the boot report names it.
    pub(crate) description: String,
    pub(crate) value: Box<dyn Any + Send + Sync>,
}

impl fmt::Debug for Member {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Member")
            .field("kind", &self.kind.name)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl Member {
    /// A member of kind `K`.
    pub(crate) fn new<K: Kind>(member: K::Member) -> Self {
        Self {
            kind: KindInfo::of::<K>(),
            key: K::key(&member),
            description: K::describe(&member),
            value: Box::new(member),
        }
    }
}

/// A value whose type boot knows only through its seam or kind.
pub(crate) type Erased = Box<dyn Any + Send + Sync>;

/// What boot needs to know of a kind, with its type erased.
#[derive(Clone, Copy)]
pub(crate) struct KindInfo {
    pub(crate) id: TypeId,
    pub(crate) name: &'static str,
    pub(crate) code: &'static str,
    pub(crate) help: &'static str,
    pub(crate) word: SeamWord,
    pub(crate) unique: bool,
    pub(crate) ordered: bool,
    pub(crate) experimental: bool,
    /// Gathers the sorted members into a boxed `Arc<[K::Member]>`.
    pub(crate) gather: fn(Vec<Erased>) -> Erased,
}

impl KindInfo {
    fn of<K: Kind>() -> Self {
        fn gather<K: Kind>(members: Vec<Erased>) -> Erased {
            let members: Arc<[K::Member]> = members
                .into_iter()
                .filter_map(|m| m.downcast::<K::Member>().ok().map(|m| *m))
                .collect();
            Box::new(members)
        }
        Self {
            id: TypeId::of::<K>(),
            name: K::NAME,
            code: K::CODE,
            help: K::HELP,
            word: K::WORD,
            unique: K::UNIQUE,
            ordered: K::ORDERED,
            experimental: K::EXPERIMENTAL,
            gather: gather::<K>,
        }
    }
}

/// Where one member of a kind was registered: its registration's name,
/// order and origin ([`BootContext::entries`](crate::boot::BootContext::entries)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry<'a, M> {
    /// The registration's name.
    pub name: &'a str,
    /// The registration's order.
    pub order: i32,
    /// Where the registration was written.
    pub origin: Origin,
    /// The member.
    pub member: &'a M,
}

/// The registration of one member, in the order of its kind's members.
#[derive(Debug, Clone)]
pub(crate) struct Placed {
    pub(crate) name: String,
    pub(crate) order: i32,
    pub(crate) origin: Origin,
}

/// Which member of a one-active seam won, and why (a boot-report line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Selection {
    /// The seam, such as `PrincipalSource`.
    pub seam: &'static str,
    /// Its seam word.
    pub word: SeamWord,
    /// The winner's name.
    pub winner: String,
    /// Where the winner was registered ([`Origin::FRAMEWORK`] for a
    /// built-in default).
    pub origin: Origin,
    /// Why it won.
    pub reason: &'static str,
    /// Whether the seam is experimental ([`OneActive::EXPERIMENTAL`]).
    pub experimental: bool,
}
