//! The memo's entry table: a hash index over a slab of slots, linked in order of their logical-clock stamps.

use crate::entry::Entry;
use hashbrown::HashTable;
use std::sync::Arc;

/// The end of the recency list.
const NIL: usize = usize::MAX;

/// The entries of one memo, at most one per hash.
///
/// The hash index only finds slots; it is never iterated.
/// Every slot carries the logical-clock stamp of its last use, and the slots are linked from the smallest stamp
/// (`oldest`) to the largest (`newest`): a use always carries a stamp larger than any before it and moves its slot
/// to the newest end, so the oldest end is always the entry with the smallest stamp, and evicting it costs O(1).
pub(crate) struct Table<K> {
    /// Hash to slot number.
    index: HashTable<(u64, usize)>,
    /// The slab; a vacant slot has no entry and sits on `free`.
    slots: Vec<Slot<K>>,
    /// Vacant slot numbers, reused before the slab grows.
    free: Vec<usize>,
    /// The occupied slot with the smallest stamp, or [`NIL`].
    oldest: usize,
    /// The occupied slot with the largest stamp, or [`NIL`].
    newest: usize,
    /// The occupied slots.
    len: usize,
    /// The charges of the occupied slots, summed.
    bytes: usize,
}

/// One slot of the slab.
struct Slot<K> {
    /// The hash the entry is indexed under.
    hash: u64,
    /// The logical-clock value of the entry's last use.
    stamp: u64,
    /// The neighbour with the next smaller stamp, or [`NIL`].
    older: usize,
    /// The neighbour with the next larger stamp, or [`NIL`].
    newer: usize,
    /// The entry, or `None` while the slot is vacant.
    entry: Option<Arc<Entry<K>>>,
}

impl<K> Table<K> {
    /// An empty table.
    pub(crate) fn new() -> Self {
        Table {
            index: HashTable::new(),
            slots: Vec::new(),
            free: Vec::new(),
            oldest: NIL,
            newest: NIL,
            len: 0,
            bytes: 0,
        }
    }

    /// The entries held.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The charges of the entries held, summed.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// The entry stored under `hash`, if `accept` takes it; it is then stamped with `stamp` and a handle returned.
    ///
    /// Allocates nothing.
    pub(crate) fn hit(
        &mut self,
        hash: u64,
        stamp: u64,
        accept: impl FnOnce(&Entry<K>) -> bool,
    ) -> Option<Arc<Entry<K>>> {
        let &(_, slot) = self.index.find(hash, |&(h, _)| h == hash)?;
        let entry = self.slots.get(slot)?.entry.as_ref()?;
        if !accept(entry) {
            return None;
        }
        let entry = Arc::clone(entry);
        self.unlink(slot);
        self.link_newest(slot, stamp);
        Some(entry)
    }

    /// Removes and returns the entry stored under `hash`, uncharging it.
    pub(crate) fn remove(&mut self, hash: u64) -> Option<Arc<Entry<K>>> {
        let ((_, slot), _) = self
            .index
            .find_entry(hash, |&(h, _)| h == hash)
            .ok()?
            .remove();
        self.vacate(slot)
    }

    /// Removes and returns the entry with the smallest stamp, uncharging it.
    pub(crate) fn pop_oldest(&mut self) -> Option<Arc<Entry<K>>> {
        let slot = self.oldest;
        let hash = self.slots.get(slot)?.hash;
        // The vacated index entry is of no further use.
        let _ = self
            .index
            .find_entry(hash, |&(_, s)| s == slot)
            .ok()?
            .remove();
        self.vacate(slot)
    }

    /// Stores `entry` under its hash, stamped with `stamp`, and charges it.
    ///
    /// The caller has removed any entry with the same hash, and `stamp` is larger than every stamp so far.
    pub(crate) fn push(&mut self, hash: u64, stamp: u64, entry: Arc<Entry<K>>) {
        self.bytes = self.bytes.saturating_add(entry.charge);
        self.len += 1;
        let occupied = Slot {
            hash,
            stamp,
            older: NIL,
            newer: NIL,
            entry: Some(entry),
        };
        let slot = if let Some(slot) = self.free.pop() {
            if let Some(place) = self.slots.get_mut(slot) {
                *place = occupied;
            }
            slot
        } else {
            self.slots.push(occupied);
            self.slots.len() - 1
        };
        self.link_newest(slot, stamp);
        self.index.insert_unique(hash, (hash, slot), |&(h, _)| h);
    }

    /// Empties the slot, unlinks it, uncharges its entry and returns the entry.
    fn vacate(&mut self, slot: usize) -> Option<Arc<Entry<K>>> {
        self.unlink(slot);
        let entry = self.slots.get_mut(slot)?.entry.take()?;
        self.free.push(slot);
        self.len -= 1;
        self.bytes = self.bytes.saturating_sub(entry.charge);
        Some(entry)
    }

    /// Takes the slot out of the recency list.
    fn unlink(&mut self, slot: usize) {
        let Some(&Slot { older, newer, .. }) = self.slots.get(slot) else {
            return;
        };
        match self.slots.get_mut(older) {
            Some(before) => before.newer = newer,
            None => self.oldest = newer,
        }
        match self.slots.get_mut(newer) {
            Some(after) => after.older = older,
            None => self.newest = older,
        }
    }

    /// Puts the slot at the newest end of the recency list with `stamp`.
    fn link_newest(&mut self, slot: usize, stamp: u64) {
        let previous = self.newest;
        if let Some(place) = self.slots.get_mut(slot) {
            debug_assert!(place.stamp <= stamp, "stamps only grow");
            place.stamp = stamp;
            place.older = previous;
            place.newer = NIL;
        }
        match self.slots.get_mut(previous) {
            Some(before) => before.newer = slot,
            None => self.oldest = slot,
        }
        self.newest = slot;
    }
}

#[cfg(test)]
mod tests {
    use crate::entry::Entry;
    use crate::memo::table::Table;
    use llmshim_core::Normalization;
    use serde_json::Value;
    use std::sync::Arc;

    fn entry(charge: usize) -> Arc<Entry<()>> {
        Arc::new(Entry {
            key: (),
            input: Box::new([]),
            folded: 0,
            output: Value::Null,
            report: Normalization::default(),
            patch: crate::patch::Patch::Keep,
            charge,
            word: std::sync::OnceLock::new(),
        })
    }

    /// Drives the table and a plain model (a list of hash, stamp and charge) with the same pseudo-random
    /// operations, and checks after each that they agree on size, charge and which entry is oldest.
    #[test]
    fn the_table_agrees_with_a_model_sorted_by_stamp() {
        let mut table = Table::new();
        let mut model: Vec<(u64, u64, usize)> = Vec::new();
        let mut state = 7u64;
        for stamp in 1..5_000u64 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let hash = (state >> 33) % 24;
            let charge = usize::try_from(hash).unwrap_or(0) + 1;
            match (state >> 20) % 3 {
                0 => {
                    let found = table.hit(hash, stamp, |_| true).is_some();
                    let modelled = model.iter_mut().find(|(h, _, _)| *h == hash);
                    assert_eq!(found, modelled.is_some());
                    if let Some(slot) = modelled {
                        slot.1 = stamp;
                    }
                }
                1 => {
                    table.remove(hash);
                    model.retain(|(h, _, _)| *h != hash);
                    table.push(hash, stamp, entry(charge));
                    model.push((hash, stamp, charge));
                }
                _ => {
                    let popped = table.pop_oldest().map(|e| e.charge);
                    let oldest = model
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, (_, s, _))| *s)
                        .map(|(i, _)| i);
                    let modelled = oldest.map(|i| model.remove(i).2);
                    assert_eq!(popped, modelled);
                }
            }
            assert_eq!(table.len(), model.len());
            assert_eq!(
                table.bytes(),
                model.iter().map(|(_, _, c)| c).sum::<usize>()
            );
        }
    }
}
