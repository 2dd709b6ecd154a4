//! One memo entry: the key, the input, the output, the report, the `unchanged` flag and the charge.

use llmshim_core::Normalization;
use serde_json::Value;

/// What the memo stores for one normalization, shared between the table and live hits.
///
/// Entries are immutable once built, so a [`Hit`](crate::Hit) can read one outside the lock.
pub(crate) struct Entry<K> {
    /// The effective options the output was computed under.
    pub(crate) key: K,
    /// The input, compared for identity on every hash match.
    pub(crate) input: Value,
    /// The output, cloned out on a hit unless `unchanged`.
    pub(crate) output: Value,
    /// The report, returned as stored.
    pub(crate) report: Normalization,
    /// The output is identical to the input, so a hit leaves the caller's value in place.
    pub(crate) unchanged: bool,
    /// The estimated owned bytes this entry charges against the byte cap.
    pub(crate) charge: usize,
}
