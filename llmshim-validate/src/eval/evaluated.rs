//! What a schema evaluated at one instance location, for `unevaluatedProperties` and `unevaluatedItems`.

use hashbrown::HashSet;

/// The properties and items evaluated so far by successful subschemas at one instance location.
#[derive(Debug, Default)]
pub(crate) struct Evaluated<'v> {
    pub(crate) all_properties: bool,
    pub(crate) properties: HashSet<&'v str>,
    pub(crate) all_items: bool,
    /// The number of leading items evaluated (`prefixItems`).
    pub(crate) items: usize,
    /// Items evaluated one by one (`contains`).
    pub(crate) marked: HashSet<usize>,
}

impl<'v> Evaluated<'v> {
    /// Adds everything `other` evaluated.
    pub(crate) fn merge(&mut self, other: Evaluated<'v>) {
        self.all_properties |= other.all_properties;
        self.all_items |= other.all_items;
        self.items = self.items.max(other.items);
        if !self.all_properties {
            self.properties.extend(other.properties);
        }
        if !self.all_items {
            self.marked.extend(other.marked);
        }
    }

    /// Whether the property `name` was evaluated.
    pub(crate) fn has_property(&self, name: &str) -> bool {
        self.all_properties || self.properties.contains(name)
    }

    /// Whether the item at `index` was evaluated.
    pub(crate) fn has_item(&self, index: usize) -> bool {
        self.all_items || index < self.items || self.marked.contains(&index)
    }
}
