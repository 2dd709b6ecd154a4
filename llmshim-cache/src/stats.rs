//! The counters a memo reports: hits, misses, inserts, evictions, and what it holds now.

/// A snapshot of a [`Memo`](crate::Memo)'s counters and contents.
///
/// The four counters only grow; [`Memo::clear`](crate::Memo::clear) empties the memo but keeps them.
///
/// ```
/// use llmshim_cache::{Limits, Memo, Stats};
///
/// let memo: Memo<u8> = Memo::new(Limits::default());
/// assert_eq!(memo.stats(), Stats::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Stats {
    /// Lookups that found an entry with the same key and an identical input.
    pub hits: u64,
    /// Lookups of a fingerprinted input that found no such entry; lookups without a key count in neither.
    pub misses: u64,
    /// Entries stored; skipped inserts are not counted.
    pub inserts: u64,
    /// Entries removed to make room for a new one; an entry replaced by one with the same hash is not counted.
    pub evictions: u64,
    /// The entries held now.
    pub entries: usize,
    /// The bytes the held entries charge now: for each, its input and output estimates plus 512.
    pub bytes: usize,
}
