//! One memo entry: the key, the input, the output, the report, the patch between them and the charge.

use crate::patch::Patch;
use llmshim_core::Normalization;
use serde_json::Value;
use std::sync::OnceLock;

/// What the memo stores for one normalization, shared between the table and live hits.
///
/// Entries are immutable once built, so a [`Hit`](crate::Hit) can read one outside the lock.
pub(crate) struct Entry<K> {
    /// The effective options the output was computed under.
    pub(crate) key: K,
    /// The input's encoding (`fingerprint::encode`), compared with the looked-up input's on every hash match:
    /// equal encodings are identical values.
    pub(crate) input: Box<[u64]>,
    /// The word the memo's fingerprint walk folded the input into, which does not depend on the key: the hash of
    /// the same input under another key is that key's hash followed by this word.
    pub(crate) folded: u64,
    /// The output, which a hit's patch copies the parts of that the input does not have.
    pub(crate) output: Value,
    /// The report, returned as stored.
    pub(crate) report: Normalization,
    /// The edit from the input to the output; [`Patch::Keep`] when they are identical, so a hit leaves the
    /// caller's value in place.
    pub(crate) patch: Patch,
    /// The estimated owned bytes this entry charges against the byte cap.
    pub(crate) charge: usize,
    /// The word a caller derives from the output, set by the first hit asked for it ([`Hit::remembered`]).
    ///
    /// [`Hit::remembered`]: crate::Hit::remembered
    pub(crate) word: OnceLock<u64>,
}
