//! Selecting one member per one-active seam, and gathering the members of
//! every registration kind: the same rules for the framework's seams and
//! kinds as for any crate's.

use std::any::TypeId;
use std::sync::Arc;

use super::collect::{Candidate, KindMember, Parts};
use crate::seam::sink::ChangeSink;
use crate::seam::source::PrincipalSource;
use crate::seam::store::{EventStore, SessionStore, UsedStateStore};
use crate::seam::strategy::KeyStrategy;
use crate::vocabulary::seam::{Placed, SeamDecl, SeamInfo, Selection};
use crate::vocabulary::sort;
use crate::vocabulary::sorted_map::SortedMap;
use crate::vocabulary::{BootContext, BootError, Origin};

/// The one-active seams the framework itself declares.
fn builtin() -> [SeamDecl; 6] {
    [
        SeamDecl::of::<dyn PrincipalSource>(),
        SeamDecl::of::<dyn KeyStrategy>(),
        SeamDecl::of::<dyn ChangeSink>(),
        SeamDecl::of::<dyn EventStore>(),
        SeamDecl::of::<dyn SessionStore>(),
        SeamDecl::of::<dyn UsedStateStore>(),
    ]
}

/// Selects the winner of every known seam into `boot`: the one supplied
/// member, or the seam's default when none was; every seam with two or more
/// fails, naming each pair.
pub(super) fn one_active(
    parts: &mut Parts,
    boot: &mut BootContext,
) -> (Vec<Selection>, Vec<BootError>) {
    // Every seam declared or supplied, by type (sorted by name for the
    // report); the first declaration's origin.
    let mut seams: SortedMap<(&'static str, TypeId), (SeamInfo, Origin)> = SortedMap::new();
    for decl in builtin() {
        seams.insert(
            (decl.seam.name, decl.seam.id),
            (decl.seam, Origin::FRAMEWORK),
        );
    }
    for (seam, origin) in &parts.seams {
        seams.get_or_insert_with((seam.name, seam.id), || (*seam, *origin));
    }
    let mut candidates: SortedMap<TypeId, Vec<Candidate>> = SortedMap::new();
    for candidate in parts.candidates.drain(..) {
        seams.get_or_insert_with((candidate.seam.name, candidate.seam.id), || {
            (candidate.seam, candidate.origin)
        });
        candidates
            .get_or_insert_with(candidate.seam.id, Vec::new)
            .push(candidate);
    }
    let mut selections = Vec::new();
    let mut winners = Vec::new();
    let mut errors = Vec::new();
    for (seam, declared_at) in seams.into_values() {
        let mut supplied = candidates.remove(&seam.id).unwrap_or_default();
        let (value, selection) = match supplied.len() {
            0 => {
                let (winner, value) = (seam.fallback)(boot);
                let selection = Selection {
                    seam: seam.name,
                    word: seam.word,
                    winner: winner.to_owned(),
                    origin: declared_at,
                    reason: "default: none was registered",
                    experimental: seam.experimental,
                };
                (value, selection)
            }
            1 => {
                let c = supplied.pop().expect("one candidate");
                let selection = Selection {
                    seam: seam.name,
                    word: seam.word,
                    winner: c.name,
                    origin: c.origin,
                    reason: "the only one registered",
                    experimental: seam.experimental,
                };
                (c.value, selection)
            }
            _ => {
                sort::sort_by(&mut supplied, |a, b| {
                    (a.origin, &a.name).cmp(&(b.origin, &b.name))
                });
                let first = (supplied[0].name.clone(), supplied[0].origin);
                for other in &supplied[1..] {
                    errors.push(BootError::DuplicateStrategy {
                        seam: seam.name,
                        first: first.clone(),
                        second: (other.name.clone(), other.origin),
                    });
                }
                continue;
            }
        };
        winners.push((seam.id, value));
        selections.push(selection);
    }
    // No default sees another seam's winner: all are made first.
    for (id, value) in winners {
        boot.actives.insert(id, Arc::from(value));
    }
    (selections, errors)
}

/// Gathers the members of every registration kind into `boot`, sorted by
/// order, key (registration name for a kind whose keys are not unique),
/// then origin; two members with one key of a unique kind fail, naming both.
/// Only the members of the kinds `gathered` picks are gathered; the rest
/// wait for a later call (each kind is gathered once).
pub(super) fn kinds(
    parts: &mut Parts,
    boot: &mut BootContext,
    gathered: &dyn Fn(TypeId) -> bool,
) -> Vec<BootError> {
    let mut errors = Vec::new();
    let mut by_kind: SortedMap<(&'static str, TypeId), Vec<KindMember>> = SortedMap::new();
    let (now, later) = std::mem::take(&mut parts.members)
        .into_iter()
        .partition(|m| gathered(m.member.kind.id));
    parts.members = later;
    for member in now {
        by_kind
            .get_or_insert_with((member.member.kind.name, member.member.kind.id), Vec::new)
            .push(member);
    }
    for (_, mut members) in by_kind {
        let kind = members[0].member.kind;
        if kind.unique {
            let mut keys: SortedMap<String, Origin> = SortedMap::new();
            let mut order: Vec<(String, Origin)> = members
                .iter()
                .map(|m| (m.member.key.clone(), m.origin))
                .collect();
            sort::sort_by(&mut order, Ord::cmp);
            for (key, origin) in order {
                match keys.get(&key) {
                    Some(first) => errors.push(BootError::DuplicateMember {
                        kind: kind.name,
                        code: kind.code,
                        help: kind.help,
                        key,
                        first: *first,
                        second: origin,
                    }),
                    None => {
                        keys.insert(key, origin);
                    }
                }
            }
            sort::sort_by(&mut members, |a, b| {
                (a.order, &a.member.key, a.origin).cmp(&(b.order, &b.member.key, b.origin))
            });
        } else {
            sort::sort_by(&mut members, |a, b| {
                (a.order, &a.name, a.origin).cmp(&(b.order, &b.name, b.origin))
            });
        }
        let placed: Arc<[Placed]> = members
            .iter()
            .map(|m| Placed {
                name: m.name.clone(),
                order: m.order,
                origin: m.origin,
            })
            .collect();
        let values = members.into_iter().map(|m| m.member.value).collect();
        boot.members
            .insert(kind.id, Arc::from((kind.gather)(values)));
        boot.placed.insert(kind.id, placed);
    }
    errors
}
