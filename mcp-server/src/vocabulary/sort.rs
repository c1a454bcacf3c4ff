//! Stable sorting through one sort of positions, for code that sorts many
//! kinds of things once (at boot, on a catalog change) and never per request.
//!
//! `slice::sort_by` compiles a sorting routine, several kilobytes of machine
//! code, for every element type and comparison it is called with. Boot sorts
//! some twenty kinds of registrations, so a small server paid for twenty
//! copies. Here the routine runs once, over positions compared through a
//! `dyn Fn`, and each element type adds only the few instructions that move
//! its elements into place.

use std::cmp::Ordering;

/// Sorts `items` by `compare`, stably: equal items keep their order.
pub(crate) fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    let order = positions_in_order(items.len(), &|a, b| compare(&items[a], &items[b]));
    permute(items, order);
}

/// Sorts `items` by the key `key` gives each, computing each key once,
/// stably: items with equal keys keep their order.
pub(crate) fn sort_by_cached_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    let keys: Vec<K> = items.iter().map(key).collect();
    let order = positions_in_order(items.len(), &|a, b| keys[a].cmp(&keys[b]));
    permute(items, order);
}

/// The positions `0..len`, sorted stably by `compare`: the one sorting
/// routine every caller shares.
fn positions_in_order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Moves `items` so that the item at `order[i]` ends at `i`, by swaps.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for i in 0..items.len() {
        // The item wanted at `i` started at `order[i]`; if that place was
        // already filled, the item was swapped onward, to where that place's
        // own wanted item came from.
        let mut from = order[i];
        while from < i {
            from = order[from];
        }
        items.swap(i, from);
        order[i] = from;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every arrangement of `n` items, by Heap's algorithm.
    fn arrangements(n: usize) -> Vec<Vec<usize>> {
        fn walk(k: usize, items: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if k <= 1 {
                out.push(items.clone());
                return;
            }
            for i in 0..k {
                walk(k - 1, items, out);
                let j = if k.is_multiple_of(2) { i } else { 0 };
                items.swap(j, k - 1);
            }
        }
        let mut out = Vec::new();
        walk(n, &mut (0..n).collect(), &mut out);
        out
    }

    #[test]
    fn every_arrangement_sorts_as_the_standard_stable_sort_does() {
        for n in 0..=7 {
            for arrangement in arrangements(n) {
                // Keys with ties (value / 2), tagged by their first place so
                // that stability shows.
                let items: Vec<(usize, usize)> = arrangement
                    .iter()
                    .enumerate()
                    .map(|(at, v)| (v / 2, at))
                    .collect();
                let mut expected = items.clone();
                expected.sort_by_key(|a| a.0);
                let mut sorted = items.clone();
                sort_by(&mut sorted, |a, b| a.0.cmp(&b.0));
                assert_eq!(sorted, expected, "sort_by of {arrangement:?}");
                let mut cached = items.clone();
                sort_by_cached_key(&mut cached, |item| item.0);
                assert_eq!(cached, expected, "sort_by_cached_key of {arrangement:?}");
            }
        }
    }

    #[test]
    fn items_that_cannot_be_copied_are_moved_into_place() {
        let mut names: Vec<String> = ["delta", "alpha", "charlie", "bravo"]
            .map(String::from)
            .into();
        sort_by(&mut names, |a, b| a.cmp(b));
        assert_eq!(names, ["alpha", "bravo", "charlie", "delta"]);
    }
}
