//! A map kept as a vector of entries sorted by key, for maps built at boot
//! or on a catalog change and read per request.
//!
//! `BTreeMap` compiles its node code, several kilobytes, for every key and
//! value type it holds. The server holds a dozen such maps of few entries,
//! each read far more often than written; a sorted vector looks up as
//! fast, iterates in the same order, and each type adds a binary search
//! and a few moves.

use std::borrow::Borrow;
use std::fmt;

/// A map whose entries are kept sorted by key: lookups by binary search,
/// iteration in key order, and insertion and removal in linear time.
#[derive(Clone)]
pub(crate) struct SortedMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    /// An empty map.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Where `key` is, or where it would go.
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value under `key`.
    pub(crate) fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|at| &self.entries[at].1)
    }

    /// The value under `key`, to change.
    pub(crate) fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|at| &mut self.entries[at].1)
    }

    /// Whether a value is under `key`.
    pub(crate) fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Puts `value` under `key`; the value it replaces, if any.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(at) => Some(std::mem::replace(&mut self.entries[at].1, value)),
            Err(at) => {
                self.entries.insert(at, (key, value));
                None
            }
        }
    }

    /// The value under `key`, put there by `make` if none was.
    pub(crate) fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let at = match self.find(&key) {
            Ok(at) => at,
            Err(at) => {
                self.entries.insert(at, (key, make()));
                at
            }
        };
        &mut self.entries[at].1
    }

    /// Keeps only the entries `keep` says yes to.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&K, &V) -> bool) {
        self.entries.retain(|(k, v)| keep(k, v));
    }

    /// Takes the value under `key` out of the map.
    pub(crate) fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|at| self.entries.remove(at).1)
    }
}

impl<K, V> SortedMap<K, V> {
    /// The entries, in key order.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + Clone {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The keys, in order.
    pub(crate) fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    /// How many entries the map holds.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map holds nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The values, in key order, taken out of the map.
    pub(crate) fn into_values(self) -> impl DoubleEndedIterator<Item = V> {
        self.entries.into_iter().map(|(_, v)| v)
    }

    /// The values, in key order.
    pub(crate) fn values(&self) -> impl DoubleEndedIterator<Item = &V> + Clone {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    /// The entries, in key order, taken out of the map.
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    /// The entries, in key order.
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    /// A map of `entries`; of two with one key, the later stays, as in
    /// `BTreeMap`.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(entries: I) -> Self {
        let mut map = Self::new();
        for (key, value) in entries {
            map.insert(key, value);
        }
        map
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_entry_with_the_same_key_wins_when_a_map_is_collected() {
        let map: SortedMap<&str, i32> = [("b", 1), ("a", 2), ("b", 3)].into_iter().collect();
        assert_eq!(map.iter().collect::<Vec<_>>(), [(&"a", &2), (&"b", &3)]);
        assert!(!map.is_empty());
        assert_eq!(map.into_values().collect::<Vec<_>>(), [2, 3]);
    }

    #[test]
    fn entries_are_found_replaced_removed_and_iterated_in_key_order() {
        let mut map = SortedMap::new();
        for (key, value) in [("m", 1), ("c", 2), ("x", 3), ("a", 4)] {
            assert_eq!(map.insert(key.to_owned(), value), None);
        }
        assert_eq!(map.insert("c".to_owned(), 20), Some(2));
        assert_eq!(map.get("c"), Some(&20));
        assert_eq!(map.get("b"), None);
        assert!(map.contains_key("x"));
        *map.get_mut("a").expect("inserted") += 1;
        let keys: Vec<&str> = map.keys().map(String::as_str).collect();
        assert_eq!(keys, ["a", "c", "m", "x"]);
        assert_eq!(map.values().copied().collect::<Vec<_>>(), [5, 20, 1, 3]);
        assert_eq!(map.remove("m"), Some(1));
        assert_eq!(map.remove("m"), None);
        assert_eq!(map.len(), 3);
        map.retain(|key, _| key != "a");
        *map.get_or_insert_with("b".to_owned(), || 0) += 7;
        *map.get_or_insert_with("c".to_owned(), || 0) += 1;
        let entries: Vec<(String, i32)> = map.into_iter().collect();
        assert_eq!(
            entries,
            [("b".into(), 7), ("c".into(), 21), ("x".into(), 3)]
        );
    }
}
