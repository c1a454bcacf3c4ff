//! Grants: what one listener may receive, as boolean filter members and
//! items of list members.

use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::subscriptions::SubscriptionFilter;

use super::change::{Change, Topic};

/// What one listener was granted: boolean filter members, and items of
/// list members. The acknowledgement echoes it as the filter honoured.
///
/// Kept for as long as its stream is open, so it is small: sorted vectors.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grant {
    /// Sorted, without duplicates.
    flags: Vec<String>,
    /// By member, sorted; each member's items sorted, without duplicates.
    items: Vec<(String, Vec<String>)>,
}

/// Inserts `value` into the sorted `set` unless it is there.
fn insert_sorted(set: &mut Vec<String>, value: String) {
    if let Err(at) = set.binary_search(&value) {
        set.insert(at, value);
    }
}

impl Grant {
    /// Grants a boolean member, such as `toolsListChanged`.
    pub fn allow_flag(&mut self, member: impl Into<String>) {
        insert_sorted(&mut self.flags, member.into());
    }

    /// Grants one item of a list member, such as a URI of `resourceSubscriptions`.
    pub fn allow_item(&mut self, member: impl Into<String>, item: impl Into<String>) {
        let member = member.into();
        let at = match self.items.binary_search_by(|(m, _)| m.cmp(&member)) {
            Ok(at) => at,
            Err(at) => {
                self.items.insert(at, (member, Vec::new()));
                at
            }
        };
        insert_sorted(&mut self.items[at].1, item.into());
    }

    fn member(&self, member: &str) -> Option<&Vec<String>> {
        self.items
            .binary_search_by(|(m, _)| m.as_str().cmp(member))
            .ok()
            .map(|at| &self.items[at].1)
    }

    /// Takes back a boolean member.
    pub fn revoke_flag(&mut self, member: &str) {
        self.flags.retain(|f| f != member);
    }

    /// Takes back one item of a list member.
    pub fn revoke_item(&mut self, member: &str, item: &str) {
        if let Ok(at) = self.items.binary_search_by(|(m, _)| m.as_str().cmp(member)) {
            self.items[at].1.retain(|i| i != item);
            if self.items[at].1.is_empty() {
                self.items.remove(at);
            }
        }
    }

    /// Whether a boolean member is granted.
    pub fn has_flag(&self, member: &str) -> bool {
        self.flags.iter().any(|f| f == member)
    }

    /// The granted items of a list member.
    pub fn items(&self, member: &str) -> impl Iterator<Item = &str> {
        self.member(member)
            .into_iter()
            .flat_map(|items| items.iter().map(String::as_str))
    }

    /// Whether the listener receives `change`.
    pub fn admits(&self, change: &Change) -> bool {
        match &change.topic {
            Topic::Flag(member) => self.has_flag(member),
            Topic::Item { member, item } => self
                .member(member)
                .is_some_and(|items| items.binary_search(item).is_ok()),
        }
    }

    /// Whether nothing is granted.
    pub fn is_empty(&self) -> bool {
        self.flags.is_empty() && self.items.is_empty()
    }

    /// The grant as the filter the acknowledgement echoes.
    pub fn to_filter(&self) -> SubscriptionFilter {
        let mut object = JsonObject::new();
        for flag in &self.flags {
            object.insert(flag.clone(), JsonValue::Bool(true));
        }
        for (member, items) in &self.items {
            object.insert(
                member.clone(),
                JsonValue::Array(items.iter().cloned().map(JsonValue::String).collect()),
            );
        }
        serde_json::from_value(JsonValue::Object(object)).unwrap_or_default()
    }
}
