//! What boot knows, handed to everything it makes and runs: configuration,
//! the winners of the one-active seams, the members of every registration
//! kind, and state crates create to share.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use super::diagnostic::BootError;
use crate::vocabulary::config::{Section, SectionInfo, Settings};
use crate::vocabulary::extension::Extensions;
use crate::vocabulary::lock;
use crate::vocabulary::seam::{Entry, Kind, OneActive, Placed};

/// What boot knows so far, handed to registrations' `make` functions,
/// contributors (`Contributions::boot`), customizers (`HandlerConfig::boot`),
/// defaults of one-active seams and validators.
///
/// Members of one-active seams are made before selection, so their boot
/// context has configuration and shared state but no winners yet;
/// everything else is made and run after.
pub struct BootContext {
    settings: Settings,
    sections: Mutex<Vec<SectionInfo>>,
    pub(crate) actives: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
    pub(crate) members: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
    /// By kind: where each member was registered, in the members' order.
    pub(crate) placed: HashMap<TypeId, Arc<[Placed]>>,
    state: Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
    errors: Mutex<Vec<BootError>>,
    warnings: Mutex<Vec<String>>,
}

impl fmt::Debug for BootContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BootContext")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl BootContext {
    pub(crate) fn new(settings: Settings) -> Self {
        Self {
            settings,
            sections: Mutex::new(Vec::new()),
            actives: HashMap::new(),
            members: HashMap::new(),
            placed: HashMap::new(),
            state: Mutex::new(HashMap::new()),
            errors: Mutex::new(Vec::new()),
            warnings: Mutex::new(Vec::new()),
        }
    }

    /// The configuration section `T` (its default when nothing is set).
    /// Reading a section declares it: its settings are checked at the end of
    /// boot, and a bad one fails boot naming the key.
    pub fn section<T: Section>(&self) -> T {
        self.declare_section(SectionInfo::of::<T>());
        self.settings.read::<T>()
    }

    pub(crate) fn declare_section(&self, section: SectionInfo) {
        let mut sections = lock(&self.sections);
        if !sections.iter().any(|s| s.id == section.id) {
            sections.push(section);
        }
    }

    /// The winner of the one-active seam `S`; `None` while one-active
    /// members are being made, for a seam nobody declared or supplied, and
    /// when two members of the seam were supplied (boot then fails).
    pub fn active<S: OneActive + ?Sized>(&self) -> Option<Arc<S>> {
        self.actives
            .get(&TypeId::of::<S>())?
            .downcast_ref::<Arc<S>>()
            .cloned()
    }

    /// The members of registration kind `K`, sorted (available to
    /// contributors, customizers and validators).
    pub fn members<K: Kind>(&self) -> &[K::Member] {
        self.members
            .get(&TypeId::of::<K>())
            .and_then(|m| m.downcast_ref::<Arc<[K::Member]>>())
            .map_or(&[], |m| &m[..])
    }

    /// The members of registration kind `K`, sorted, each with the name,
    /// order and origin of its registration (for a kind whose diagnostics
    /// name where a member was written).
    pub fn entries<K: Kind>(&self) -> impl Iterator<Item = Entry<'_, K::Member>> {
        let placed = self
            .placed
            .get(&TypeId::of::<K>())
            .map_or(&[][..], |p| &p[..]);
        self.members::<K>()
            .iter()
            .zip(placed)
            .map(|(member, placed)| Entry {
                name: &placed.name,
                order: placed.order,
                origin: placed.origin,
                member,
            })
    }

    /// Whether extension `id` (an identifier, or the name of the crate that
    /// declares it) is declared. Extensions are declared before anything
    /// else is made, so every contributor, customizer and `make` function
    /// can ask.
    pub fn has_extension(&self, id: &str) -> bool {
        self.entries::<Extensions>()
            .any(|e| e.member.id() == id || e.origin.crate_name == id)
    }

    /// Whether the setting `key` (`redis.url`) is set, from any source.
    pub fn is_set(&self, key: &str) -> bool {
        self.settings.is_set(key)
    }

    /// The state of type `T` shared by whatever boot makes: made with
    /// `T::default()` by the first to ask, the same value for every later
    /// one, and found at run time with `Server::shared` and
    /// `RequestContext::shared`.
    pub fn shared<T: Default + Send + Sync + 'static>(&self) -> Arc<T> {
        let mut state = lock(&self.state);
        let entry = state
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Arc::new(T::default()));
        entry
            .clone()
            .downcast::<T>()
            .expect("the state of a type is of that type")
    }

    /// Makes boot fail with `error`, once everything else was checked.
    pub fn fail(&self, error: BootError) {
        lock(&self.errors).push(error);
    }

    /// Adds a warning to the boot report (and logs it): something boot
    /// accepts but an operator should fix.
    pub fn warn(&self, warning: impl Into<String>) {
        let warning = warning.into();
        tracing::warn!(target: "mcp_server::boot", "{warning}");
        lock(&self.warnings).push(warning);
    }

    pub(crate) fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.warnings))
    }

    pub(crate) fn take_errors(&self) -> Vec<BootError> {
        std::mem::take(&mut *lock(&self.errors))
    }

    pub(crate) fn check_settings(&self) -> Vec<BootError> {
        self.settings.check(&lock(&self.sections))
    }

    /// The shared state made so far.
    pub(crate) fn state(&self) -> HashMap<TypeId, Arc<dyn Any + Send + Sync>> {
        lock(&self.state).clone()
    }
}
