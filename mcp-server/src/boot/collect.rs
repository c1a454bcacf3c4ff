//! Collecting: every registration, linked or added, sorted; its item made in
//! its stage and filed under its seam.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::context::BootContext;
use super::error::BootError;
use super::report::Registered;
use super::{Added, validate::Validator};
use crate::contributor::Contributor;
use crate::dispatch::PendingTyped;
use crate::interceptor::{AlternateResultInterceptor, HandlerInterceptor, RawInterceptor, Stratum};
use crate::origin::Origin;
use crate::registry::{self, CustomizerTarget, Item, Scope, Stage};
use crate::seam::{KindInfo, Member, SeamInfo};

/// A registration, its item made or still to make.
pub(super) struct Entry {
    origin: Origin,
    name: String,
    order: i32,
    stage: Stage,
    item: Made,
}

enum Made {
    Later(fn(&BootContext) -> Item),
    Now(Item),
}

/// Every registration, sorted: inventory's order is unspecified.
pub(super) fn registrations(linked: bool, added: Vec<Added>) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    if linked {
        entries.extend(registry::linked().map(|r| Entry {
            origin: r.origin,
            name: r.name.to_owned(),
            order: r.order,
            stage: r.stage,
            item: Made::Later(r.make),
        }));
    }
    entries.extend(added.into_iter().map(|a| Entry {
        // What the builder adds is made already; one-active members and
        // seam declarations among it count as made before selection.
        stage: if matches!(a.item, Item::Supply(_) | Item::Seam(_)) {
            Stage::Supply
        } else {
            Stage::Assemble
        },
        origin: a.origin,
        name: a.name,
        order: a.order,
        item: Made::Now(a.item),
    }));
    entries.sort_by(|a, b| (a.order, &a.name, a.origin).cmp(&(b.order, &b.name, b.origin)));
    entries
}

/// A customizer, with its place in the fold.
pub(super) struct Customizer {
    pub(super) name: String,
    pub(super) origin: Origin,
    pub(super) target: CustomizerTarget,
    pub(super) only: Option<String>,
}

/// A handler-chain interceptor registered for a scope.
pub(super) struct Global {
    pub(super) stratum: Stratum,
    pub(super) scope: Scope,
    pub(super) order: i32,
    pub(super) name: String,
    pub(super) origin: Origin,
    pub(super) interceptor: Arc<dyn HandlerInterceptor>,
}

/// A candidate member of a one-active seam.
pub(super) struct Candidate {
    pub(super) seam: SeamInfo,
    pub(super) name: String,
    pub(super) origin: Origin,
    pub(super) value: Box<dyn std::any::Any + Send + Sync>,
}

/// A member of a registration kind.
pub(super) struct KindMember {
    pub(super) kind: KindInfo,
    pub(super) key: String,
    pub(super) order: i32,
    pub(super) origin: Origin,
    pub(super) value: Box<dyn std::any::Any + Send + Sync>,
}

/// Everything made from the registrations, by seam.
#[derive(Default)]
pub(super) struct Parts {
    pub(super) contributors: Vec<(Origin, String, Arc<dyn Contributor>)>,
    pub(super) customizers: Vec<Customizer>,
    pub(super) raw: Vec<(String, Arc<dyn RawInterceptor>)>,
    pub(super) typed: Vec<PendingTyped>,
    pub(super) globals: Vec<Global>,
    pub(super) alternates: Vec<(String, Arc<dyn AlternateResultInterceptor>)>,
    pub(super) candidates: Vec<Candidate>,
    pub(super) seams: Vec<(SeamInfo, Origin)>,
    pub(super) members: Vec<KindMember>,
    pub(super) validators: Vec<(String, Origin, Arc<dyn Validator>)>,
    /// The crates with any registration: linked extensions.
    pub(super) crates: BTreeSet<&'static str>,
    /// Every registration, for the report.
    pub(super) registered: Vec<Registered>,
}

/// Makes the items of `stage` and files them.
pub(super) fn make(
    stage: Stage,
    entries: &mut Vec<Entry>,
    boot: &BootContext,
    parts: &mut Parts,
) -> Vec<BootError> {
    let mut errors = Vec::new();
    let (now, later): (Vec<Entry>, Vec<Entry>) = std::mem::take(entries)
        .into_iter()
        .partition(|e| e.stage == stage);
    *entries = later;
    for entry in now {
        let item = match entry.item {
            Made::Later(make) => make(boot),
            Made::Now(item) => item,
        };
        let late = match (stage, &item) {
            (Stage::Assemble, Item::Supply(s)) => Some(s.seam.name),
            (Stage::Assemble, Item::Seam(d)) => Some(d.seam.name),
            _ => None,
        };
        if let Some(seam) = late {
            errors.push(BootError::SuppliedTooLate {
                name: entry.name,
                origin: entry.origin,
                seam,
            });
            continue;
        }
        file(entry.origin, entry.name, entry.order, item, boot, parts);
    }
    errors
}

/// Files one made item under its seam and records it for the report.
fn file(
    origin: Origin,
    name: String,
    order: i32,
    item: Item,
    boot: &BootContext,
    parts: &mut Parts,
) {
    parts.crates.insert(origin.crate_name);
    let seam = item.word();
    let mut record = |kind: String, order: Option<i32>| {
        parts.registered.push(Registered {
            seam,
            kind,
            name: name.clone(),
            order,
            origin,
        });
    };
    match item {
        Item::Contributor(c) => {
            record("contributor".into(), None);
            parts.contributors.push((origin, name, c));
        }
        Item::Customizer(c) => {
            let kind = match &c.only {
                Some(only) => format!("{} of `{only}`", c.target.kind()),
                None => c.target.kind().to_owned(),
            };
            record(kind, Some(order));
            parts.customizers.push(Customizer {
                name,
                origin,
                target: c.target,
                only: c.only,
            });
        }
        Item::RawInterceptor(r) => {
            record("raw interceptor".into(), Some(order));
            parts
                .raw
                .push((format!("{name} order {order} ({origin})"), r));
        }
        Item::TypedInterceptor(t) => {
            record(format!("typed interceptor for `{}`", t.method), Some(order));
            parts.typed.push(PendingTyped {
                name,
                origin,
                item: t,
            });
        }
        Item::HandlerInterceptor {
            stratum,
            scope,
            interceptor,
        } => {
            record(format!("{stratum} handler-chain interceptor"), Some(order));
            parts.globals.push(Global {
                stratum,
                scope,
                order,
                name,
                origin,
                interceptor,
            });
        }
        Item::AlternateResultInterceptor(a) => {
            record("alternate-result interceptor".into(), Some(order));
            parts.alternates.push((format!("{name} ({origin})"), a));
        }
        Item::Supply(s) => {
            record(format!("`{}` member", s.seam.name), None);
            parts.candidates.push(Candidate {
                seam: s.seam,
                name,
                origin,
                value: s.value,
            });
        }
        Item::Seam(decl) => {
            record(format!("`{}` seam", decl.seam.name), None);
            parts.seams.push((decl.seam, origin));
        }
        Item::Member(Member { kind, key, value }) => {
            record(format!("{} `{key}`", kind.name), Some(order));
            parts.members.push(KindMember {
                kind,
                key,
                order,
                origin,
                value,
            });
        }
        Item::Section(decl) => {
            record(format!("configuration section `{}`", decl.info.key), None);
            boot.declare_section(decl.info);
        }
        Item::Validator(v) => {
            record("validator".into(), None);
            parts.validators.push((name, origin, v));
        }
        Item::Extension => {
            record("extension".into(), None);
        }
        Item::Inactive(why) => {
            record(format!("inactive: {why}"), None);
        }
    }
}
