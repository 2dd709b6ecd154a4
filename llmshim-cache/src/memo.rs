//! The memo: lookups and inserts under one lock, with fingerprinting, estimating and cloning outside it.

mod table;

use crate::entry::Entry;
use crate::fingerprint::{self, Fingerprint};
use crate::hit::Hit;
use crate::limits::Limits;
use crate::memo::table::Table;
use crate::patch::Patch;
use crate::random_state::RandomState;
use crate::stats::Stats;
use llmshim_core::Normalization;
use parking_lot::Mutex;
use serde_json::Value;
use std::fmt;
use std::hash::{BuildHasher, Hash, Hasher};
use std::mem;
use std::sync::{Arc, OnceLock};

/// The fixed part of every entry's charge, on top of its input and output estimates.
const ENTRY_BYTES: usize = 512;

/// What [`Memo::lookup`] found.
#[must_use = "a miss must be computed and inserted, a hit applied"]
pub enum Lookup<K> {
    /// An entry with the same key and an identical input: apply it to the caller's value.
    Hit(Hit<K>),
    /// No such entry: compute the result, then hand this fingerprint to [`Memo::insert`] with the same key and
    /// input.
    Miss(Fingerprint),
    /// The input is beyond the bounded key work ([`Fingerprint`]'s fixed limits): compute the result without the
    /// memo and do not insert it.
    Unkeyed,
}

impl<K> fmt::Debug for Lookup<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lookup::Hit(hit) => f.debug_tuple("Hit").field(hit).finish(),
            Lookup::Miss(fingerprint) => f.debug_tuple("Miss").field(fingerprint).finish(),
            Lookup::Unkeyed => f.write_str("Unkeyed"),
        }
    }
}

/// A bounded, process-local memo from a key and an exact input to an output and its report.
///
/// `K` is whatever decides the result besides the input (the facade uses its effective `Options`); `S` builds
/// the hasher that turns a key and an input into the 64-bit hash the entries are found by.
/// The default, [`RandomState`], is fast and seeded randomly, so hashes differ between processes while results
/// never do.
///
/// A lookup accepts a hash match only when the stored key equals the key and the stored input is identical to the
/// input (object key order and the `f64` bit pattern of every number included), so a collision can only cause a
/// miss.
/// The memo holds at most [`Limits::max_entries`] entries charging at most [`Limits::max_bytes`], and evicts the
/// entry whose last use carries the smallest logical-clock stamp.
/// Only lookup and insert take the lock (a `parking_lot::Mutex`); fingerprinting, estimating, cloning and
/// dropping happen outside it, so a `Memo` is meant to be shared, for instance as an `Arc<Memo<K>>`.
pub struct Memo<K, S = RandomState> {
    limits: Limits,
    hasher: S,
    /// The word every fingerprint walk starts from, derived from the seed alone (the finish of a hasher fed
    /// nothing): worked out by the first lookup and kept, so later lookups do not build a hasher for it.
    start: OnceLock<u64>,
    state: Mutex<State<K>>,
}

/// Everything the lock guards.
struct State<K> {
    table: Table<K>,
    /// The logical clock, advanced by every keyed lookup and every insert.
    clock: u64,
    hits: u64,
    misses: u64,
    inserts: u64,
    evictions: u64,
}

impl<K> Memo<K, RandomState> {
    /// An empty memo with `limits` and a randomly seeded hasher.
    pub fn new(limits: Limits) -> Self {
        Memo::with_hasher(limits, RandomState::new())
    }
}

impl<K> Default for Memo<K, RandomState> {
    /// An empty memo with the default [`Limits`]: 512 entries and 16 MiB.
    fn default() -> Self {
        Memo::new(Limits::default())
    }
}

impl<K, S> Memo<K, S> {
    /// An empty memo with `limits` whose hashes come from `hasher`.
    ///
    /// Any hasher gives the same results; a poor one only costs misses.
    pub fn with_hasher(limits: Limits, hasher: S) -> Self {
        Memo {
            limits,
            hasher,
            start: OnceLock::new(),
            state: Mutex::new(State {
                table: Table::new(),
                clock: 0,
                hits: 0,
                misses: 0,
                inserts: 0,
                evictions: 0,
            }),
        }
    }

    /// The limits this memo was built with.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The counters and the current contents.
    pub fn stats(&self) -> Stats {
        let state = self.state.lock();
        Stats {
            hits: state.hits,
            misses: state.misses,
            inserts: state.inserts,
            evictions: state.evictions,
            entries: state.table.len(),
            bytes: state.table.bytes(),
        }
    }

    /// Removes every entry; the counters are kept, and live [`Hit`]s stay valid.
    pub fn clear(&self) {
        let old = mem::replace(&mut self.state.lock().table, Table::new());
        // The entries are dropped here, after the lock is released.
        drop(old);
    }
}

impl<K: Eq + Hash, S: BuildHasher> Memo<K, S> {
    /// Looks up the result for `key` and `input`.
    ///
    /// The input is fingerprinted outside the lock; an input beyond the bounded key work gives
    /// [`Lookup::Unkeyed`] without touching the memo.
    /// Under the lock the logical clock advances, and the entry with the same hash is accepted only if its key
    /// equals `key` and its input is identical to `input`; it is then stamped as the most recently used and a
    /// shared handle is returned, to be applied outside the lock.
    /// Otherwise the result is [`Lookup::Miss`] with the fingerprint to insert under.
    /// A lookup that finds an exact no-op entry allocates nothing, and neither does a miss.
    pub fn lookup(&self, key: &K, input: &Value) -> Lookup<K> {
        let mut words = scratch::take();
        let found = self.find(key, input, &mut words);
        scratch::give(words);
        found
    }

    /// [`Memo::lookup`] with `words` to hold the input's encoding.
    fn find(&self, key: &K, input: &Value, words: &mut Vec<u64>) -> Lookup<K> {
        // The walk starts from the seed alone, so the folded word an entry keeps serves every key.
        let start = *self
            .start
            .get_or_init(|| self.hasher.build_hasher().finish());
        let mut hasher = self.hasher.build_hasher();
        key.hash(&mut hasher);
        let Some(fingerprint) = Fingerprint::recorded(input, start, hasher, words) else {
            return Lookup::Unkeyed;
        };
        let mut guard = self.state.lock();
        let state = &mut *guard;
        state.clock += 1;
        // Identity is the equality of the two encodings: one comparison of word slices, the entry's read in order.
        let found = state.table.hit(fingerprint.hash(), state.clock, |entry| {
            entry.key == *key && *entry.input == **words
        });
        if let Some(entry) = found {
            state.hits += 1;
            drop(guard);
            Lookup::Hit(Hit::new(entry))
        } else {
            state.misses += 1;
            Lookup::Miss(fingerprint)
        }
    }

    /// [`Memo::lookup`] for an `input` identical to the one `same` was found or stored for (under any key of this
    /// memo), without walking `input` again: the hash is `key`'s followed by the word `same`'s entry keeps, and an
    /// entry with that hash is accepted only if its key equals `key` and its input's encoding equals `same`'s. When
    /// none is, `input` is looked up as [`Memo::lookup`] looks it up (a miss hands back the fingerprint to insert
    /// under).
    ///
    /// For a caller that normalizes one value under two keys, such as a strict result it then has to give up for
    /// the plain one: the second lookup costs a hash and a comparison instead of a walk of the value. For an `input`
    /// that is not identical to `same`'s input the result is unspecified (an entry for `same`'s input may be found),
    /// but this never panics.
    pub fn lookup_as(&self, key: &K, input: &Value, same: &Hit<K>) -> Lookup<K> {
        let known = same.entry();
        let mut hasher = self.hasher.build_hasher();
        key.hash(&mut hasher);
        hasher.write_u64(known.folded);
        let hash = hasher.finish();
        {
            let mut guard = self.state.lock();
            let state = &mut *guard;
            state.clock += 1;
            let found = state.table.hit(hash, state.clock, |entry| {
                entry.key == *key && entry.input == known.input
            });
            if let Some(entry) = found {
                state.hits += 1;
                drop(guard);
                return Lookup::Hit(Hit::new(entry));
            }
        }
        self.lookup(key, input)
    }

    /// Stores `output` and `report` as the result for `key` and `input`.
    ///
    /// `fingerprint` must be the one [`Memo::lookup`] returned for this `key` and `input`; an entry stored under
    /// another fingerprint is merely never found.
    /// The insert is skipped when `max_entries` is 0, when `output` is beyond the fingerprint's limits, or when the
    /// entry's charge (input estimate + output estimate + 512) exceeds `max_bytes`.
    /// Otherwise, under the lock, an entry with the same hash is replaced, and least recently used entries are
    /// evicted until the new one fits both limits.
    /// Estimating the output, working out the patch from the input to it (what a hit applies) and dropping evicted
    /// entries happen outside the lock.
    pub fn insert(
        &self,
        fingerprint: Fingerprint,
        key: K,
        input: Value,
        output: Value,
        report: Normalization,
    ) {
        drop(self.insert_hit(fingerprint, key, input, output, report));
    }

    /// [`Memo::insert`], also handing back a hit on the stored entry (`None` when the insert was skipped), for a
    /// caller that reads the entry at once, such as [`Hit::remembered`] to derive its word while the output is at
    /// hand. The hit counts as no lookup.
    pub fn insert_hit(
        &self,
        fingerprint: Fingerprint,
        key: K,
        input: Value,
        output: Value,
        report: Normalization,
    ) -> Option<Hit<K>> {
        let charge = fingerprint::estimate(&output).and_then(|output_bytes| {
            let charge = fingerprint
                .bytes()
                .saturating_add(output_bytes)
                .saturating_add(ENTRY_BYTES);
            (self.limits.max_entries > 0 && charge <= self.limits.max_bytes).then_some(charge)
        });
        let Some(charge) = charge else {
            // Values that were not fingerprinted may nest arbitrarily deep, so they are dropped without recursion.
            llmshim_core::json::dismantle(input);
            llmshim_core::json::dismantle(output);
            return None;
        };
        // The entry keeps the input as its encoding, which is all a lookup compares and smaller than the value.
        let Some(encoded) = fingerprint::encode(&input) else {
            llmshim_core::json::dismantle(input);
            llmshim_core::json::dismantle(output);
            return None;
        };
        let patch = Patch::between(&input, &output);
        // The input has an encoding, so it is within the fingerprint's depth and is dropped normally.
        drop(input);
        // What the patch keeps of the output (the frames of its nests) is charged with the entry.
        let charge = charge.saturating_add(patch.held_bytes());
        if charge > self.limits.max_bytes {
            llmshim_core::json::dismantle(output);
            return None;
        }
        let entry = Arc::new(Entry {
            key,
            input: encoded,
            folded: fingerprint.folded(),
            output,
            report,
            patch,
            charge,
            word: OnceLock::new(),
        });
        let mut removed = Vec::new();
        {
            let mut guard = self.state.lock();
            let state = &mut *guard;
            state.clock += 1;
            removed.extend(state.table.remove(fingerprint.hash()));
            while state.table.len() >= self.limits.max_entries
                || state.table.bytes().saturating_add(charge) > self.limits.max_bytes
            {
                let Some(oldest) = state.table.pop_oldest() else {
                    break;
                };
                state.evictions += 1;
                removed.push(oldest);
            }
            state
                .table
                .push(fingerprint.hash(), state.clock, Arc::clone(&entry));
            state.inserts += 1;
        }
        // The replaced and evicted entries are dropped here, after the lock is released.
        drop(removed);
        Some(Hit::new(entry))
    }
}

/// The buffer a lookup writes the input's encoding into, one per thread, so that a lookup allocates only when an input
/// outgrows every one before it on its thread.
mod scratch {
    use std::cell::Cell;

    /// A buffer that grew beyond this many words (512 KiB) is freed after its lookup instead of kept.
    const KEPT_WORDS: usize = 1 << 16;

    thread_local! {
        static WORDS: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
    }

    /// The thread's buffer (an empty one while it is out, or while the thread is being torn down).
    pub(super) fn take() -> Vec<u64> {
        WORDS.try_with(Cell::take).unwrap_or_default()
    }

    /// Gives the buffer back to the thread, unless it grew too large to keep.
    pub(super) fn give(words: Vec<u64>) {
        if words.capacity() <= KEPT_WORDS {
            // During teardown the buffer is simply dropped.
            let _ = WORDS.try_with(|cell| cell.set(words));
        }
    }
}

impl<K, S> fmt::Debug for Memo<K, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Memo")
            .field("limits", &self.limits)
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}
