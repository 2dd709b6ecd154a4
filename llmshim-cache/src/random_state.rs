//! The default hasher of a memo: fast on the many small writes of a fingerprint, and seeded randomly per process.

use std::fmt;
use std::hash::{self, BuildHasher};

/// The default `S` of [`Memo`](crate::Memo): builds [`MemoHasher`]s from a seed chosen randomly for each process
/// and varied for each instance.
///
/// Hashes therefore differ between processes and between memos, while results never do.
/// It is the fast variant of foldhash, which digests a key's fields and the fingerprint's folded word several times
/// faster than the standard library's `SipHash`; a memo checks every hash match for identity, so the hash needs speed
/// and spread, not resistance to attack.
#[derive(Clone, Debug, Default)]
pub struct RandomState(hashbrown::DefaultHashBuilder);

impl RandomState {
    /// A builder with a fresh random seed.
    pub fn new() -> Self {
        RandomState::default()
    }
}

impl BuildHasher for RandomState {
    type Hasher = MemoHasher;

    #[inline]
    fn build_hasher(&self) -> MemoHasher {
        MemoHasher(self.0.build_hasher())
    }
}

/// The hasher that [`RandomState`] builds.
#[derive(Clone)]
pub struct MemoHasher(hashbrown::DefaultHasher);

impl fmt::Debug for MemoHasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoHasher").finish_non_exhaustive()
    }
}

impl hash::Hasher for MemoHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0.finish()
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }

    #[inline]
    fn write_u8(&mut self, value: u8) {
        self.0.write_u8(value);
    }

    #[inline]
    fn write_u16(&mut self, value: u16) {
        self.0.write_u16(value);
    }

    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.0.write_u32(value);
    }

    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.0.write_u64(value);
    }

    #[inline]
    fn write_u128(&mut self, value: u128) {
        self.0.write_u128(value);
    }

    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.0.write_usize(value);
    }
}
