//! Collecting: every registration, linked or added, sorted; its item made in
//! its stage and filed by the mechanism that registers it.

use std::any::TypeId;
use std::collections::BTreeSet;

use crate::server::report::Registered;
use crate::vocabulary::extension::Extensions;
use crate::vocabulary::registration::{self, Item, Registered as Made, Stage};
use crate::vocabulary::seam::{Member, SeamInfo};
use crate::vocabulary::sort;
use crate::vocabulary::{BootContext, BootError, Origin};

/// A registration added on the builder rather than linked.
pub(super) struct Added {
    pub(super) origin: Origin,
    pub(super) name: String,
    pub(super) order: i32,
    pub(super) item: Item,
}

/// A registration, its item made or still to make.
pub(super) struct Entry {
    origin: Origin,
    name: String,
    order: i32,
    stage: Stage,
    item: Making,
}

enum Making {
    Later(fn(&BootContext) -> Item),
    Now(Item),
}

/// Every registration, sorted: inventory's order is unspecified.
pub(super) fn registrations(linked: bool, added: Vec<Added>) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    if linked {
        entries.extend(registration::linked().map(|r| Entry {
            origin: r.origin,
            name: r.name.to_owned(),
            order: r.order,
            stage: r.stage,
            item: Making::Later(r.make),
        }));
    }
    entries.extend(added.into_iter().map(|a| Entry {
        // What the builder adds is made already; one-active members and
        // seam declarations among it count as made before selection.
        stage: if matches!(a.item.0, Made::Supply(_) | Made::Seam(_)) || declares_extension(&a.item)
        {
            Stage::Supply
        } else {
            Stage::Assemble
        },
        origin: a.origin,
        name: a.name,
        order: a.order,
        item: Making::Now(a.item),
    }));
    sort::sort_by(&mut entries, |a, b| {
        (a.order, &a.name, a.origin).cmp(&(b.order, &b.name, b.origin))
    });
    entries
}

/// Whether `item` declares an extension, which is made with the
/// one-active seams so that everything made after can ask about it.
fn declares_extension(item: &Item) -> bool {
    matches!(&item.0, Made::Member(m) if m.kind.id == TypeId::of::<Extensions>())
}

/// A candidate member of a one-active seam.
pub(super) struct Candidate {
    pub(super) seam: SeamInfo,
    pub(super) name: String,
    pub(super) origin: Origin,
    pub(super) value: Box<dyn std::any::Any + Send + Sync>,
}

/// A member of a registration kind, with its registration.
pub(super) struct KindMember {
    pub(super) member: Member,
    pub(super) name: String,
    pub(super) order: i32,
    pub(super) origin: Origin,
}

/// Everything made from the registrations, by mechanism.
#[derive(Default)]
pub(super) struct Parts {
    pub(super) candidates: Vec<Candidate>,
    pub(super) seams: Vec<(SeamInfo, Origin)>,
    pub(super) members: Vec<KindMember>,
    /// The crates with any registration.
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
            Making::Later(make) => make(boot),
            Making::Now(item) => item,
        };
        let late = match (stage, &item.0) {
            (Stage::Assemble, Made::Supply(s)) => Some(s.seam.name),
            (Stage::Assemble, Made::Seam(d)) => Some(d.seam.name),
            _ => None,
        };
        if stage == Stage::Assemble && declares_extension(&item) {
            let Made::Member(member) = item.0 else {
                unreachable!("an extension is declared as a member")
            };
            errors.push(BootError::ExtensionDeclaredTooLate {
                extension: member.key,
                origin: entry.origin,
            });
            continue;
        }
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

/// Files one made item by its mechanism and records it for the report.
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
    let mut record = |kind: String, order: Option<i32>, experimental: bool| {
        parts.registered.push(Registered {
            seam,
            kind,
            name: name.clone(),
            order,
            origin,
            experimental,
        });
    };
    match item.0 {
        Made::Member(member) => {
            let shown = member.kind.ordered.then_some(order);
            record(member.description.clone(), shown, member.kind.experimental);
            parts.members.push(KindMember {
                member,
                name,
                order,
                origin,
            });
        }
        Made::Supply(s) => {
            record(
                format!("`{}` member", s.seam.name),
                None,
                s.seam.experimental,
            );
            parts.candidates.push(Candidate {
                seam: s.seam,
                name,
                origin,
                value: s.value,
            });
        }
        Made::Seam(decl) => {
            record(
                format!("`{}` seam", decl.seam.name),
                None,
                decl.seam.experimental,
            );
            parts.seams.push((decl.seam, origin));
        }
        Made::Section(info) => {
            record(format!("configuration section `{}`", info.key), None, false);
            boot.declare_section(info);
        }
        Made::Inactive(why) => {
            record(format!("inactive: {why}"), None, false);
        }
    }
}
