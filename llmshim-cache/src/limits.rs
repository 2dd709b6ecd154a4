//! The bounds of one memo: how many entries it keeps and how many estimated owned bytes they may charge.

/// How many entries a [`Memo`](crate::Memo) keeps and how many estimated owned bytes they may charge.
///
/// An entry's charge is the owned-byte estimate of its input plus that of its output plus 512 (see
/// [`Fingerprint::bytes`](crate::Fingerprint::bytes)).
/// A `max_entries` of 0 caches nothing, and an entry whose charge alone exceeds `max_bytes` is never stored.
///
/// ```
/// use llmshim_cache::Limits;
///
/// let limits = Limits::default().with_max_entries(2).with_max_bytes(4096);
/// assert_eq!((limits.max_entries, limits.max_bytes), (2, 4096));
/// assert_eq!(Limits::default().max_entries, 512);
/// assert_eq!(Limits::default().max_bytes, 16 * 1024 * 1024);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Limits {
    /// The most entries the memo holds at once; 512 by default.
    pub max_entries: usize,
    /// The most estimated owned bytes all entries may charge together; 16 MiB (16 777 216) by default.
    pub max_bytes: usize,
}

impl Limits {
    /// The default entry count, 512.
    pub const DEFAULT_MAX_ENTRIES: usize = 512;

    /// The default byte cap, 16 MiB.
    pub const DEFAULT_MAX_BYTES: usize = 16 * 1024 * 1024;

    /// These limits with `max_entries` set to `max_entries`.
    #[must_use]
    pub const fn with_max_entries(mut self, max_entries: usize) -> Self {
        self.max_entries = max_entries;
        self
    }

    /// These limits with `max_bytes` set to `max_bytes`.
    #[must_use]
    pub const fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }
}

impl Default for Limits {
    /// The limits of the facade's process-wide memo: 512 entries and 16 MiB.
    fn default() -> Self {
        Limits {
            max_entries: Limits::DEFAULT_MAX_ENTRIES,
            max_bytes: Limits::DEFAULT_MAX_BYTES,
        }
    }
}
