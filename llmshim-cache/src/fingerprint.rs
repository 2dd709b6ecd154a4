//! The bounded fingerprint of a memo key: one walk that hashes a value and estimates its owned bytes.

use serde_json::{Number, Value};
use std::hash::Hasher;

/// The hash and owned-byte estimate of one JSON value, produced by one bounded walk.
///
/// The walk folds, for every value in document order, a type tag, the length of each string, object and array,
/// each object key in stored order, each string's contents, each boolean, and each number by kind and value (an
/// integer as itself, a float as its `f64` bit pattern) into a 64-bit state, eight bytes of text at a time.
/// The state starts from what the hasher was fed before and is fed to it at the end.
/// So two values that are *identical* always hash alike, while key order, `0.0` against `-0.0`
/// and `1` against `1.0` all fold different data.
///
/// The walk gives up, and [`Fingerprint::new`] returns `None`, when any value is deeper than
/// [`MAX_DEPTH`](Fingerprint::MAX_DEPTH) (the root is at depth 0), when more than
/// [`MAX_VALUES`](Fingerprint::MAX_VALUES) values have been seen, counting the members and elements of every
/// container as soon as the container is entered, or when key and string bytes together exceed
/// [`MAX_TEXT_BYTES`](Fingerprint::MAX_TEXT_BYTES).
/// These limits are fixed; they never depend on normalization options.
///
/// ```
/// use llmshim_cache::Fingerprint;
/// use serde_json::json;
/// use std::hash::DefaultHasher;
///
/// let fingerprint = Fingerprint::new(&json!({"type": "string"}), DefaultHasher::new());
/// assert_eq!(fingerprint.map(|f| f.bytes()), Some(778));
///
/// let deep = (0..100).fold(json!([]), |inner, _| json!([inner]));
/// assert_eq!(Fingerprint::new(&deep, DefaultHasher::new()), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    hash: u64,
    bytes: usize,
}

impl Fingerprint {
    /// The deepest a value may sit (the root is at depth 0, a member or element one deeper than its container).
    pub const MAX_DEPTH: usize = 96;

    /// The most values a fingerprinted value may contain, itself included.
    pub const MAX_VALUES: usize = 32_768;

    /// The most key and string bytes (UTF-8) a fingerprinted value may contain: 8 MiB.
    pub const MAX_TEXT_BYTES: usize = 8 * 1024 * 1024;

    /// Walks `value` once and returns the finished hash with the owned-byte estimate.
    ///
    /// Returns `None` when the value is beyond the fixed limits; the walk stops as soon as it knows, so it never
    /// does more work than the limits allow, and it recurses at most [`MAX_DEPTH`](Fingerprint::MAX_DEPTH)
    /// levels, so no nesting can overflow the stack.
    /// Whatever `hasher` was fed before is part of the hash: the memo feeds it the options key first. The walk
    /// starts from `hasher`'s hash of that, folds the value in inline (a call to the hasher for every tag and word
    /// would cost more than the folding), and feeds the folded word to `hasher`, whose finish is the hash.
    pub fn new<H: Hasher>(value: &Value, mut hasher: H) -> Option<Fingerprint> {
        let mut mix = Mix(hasher.finish());
        let bytes = walk(value, &mut mix)?;
        hasher.write_u64(mix.0);
        Some(Fingerprint {
            hash: hasher.finish(),
            bytes,
        })
    }

    /// The 64-bit hash.
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The estimate of the bytes the value owns: 64 per value, plus 576 per object, plus the key's bytes + 32 per
    /// object key, plus the string's bytes + 32 per string; `{"type":"string"}` is 778.
    pub const fn bytes(&self) -> usize {
        self.bytes
    }
}

/// The owned-byte estimate of `value`, or `None` when it is beyond the fingerprint's limits.
pub(crate) fn estimate(value: &Value) -> Option<usize> {
    walk(value, &mut Discard)
}

/// Where a walk sends the words it hashes.
trait Sink {
    /// Takes one 64-bit word: a type tag with a length, an integer, a bit pattern or a piece of text.
    fn word(&mut self, word: u64);
    /// Takes `head` (a length, with a tag for a string), then the words of `text` ([`text_words`]).
    fn text(&mut self, head: u64, text: &str) {
        self.word(head);
        text_words(text.as_bytes(), |word| self.word(word));
    }
}

/// A sink that folds every word into one running 64-bit state, inline.
///
/// Each word is folded with one multiplication (the 128-bit product of the state xor the word with a fixed odd
/// constant, its halves xored together), so a word costs a handful of instructions and no call. The state starts
/// from the caller's hasher and ends in it, so hashes stay seeded per memo; a collision only ever costs a miss,
/// since the memo checks every hash match for identity.
struct Mix(u64);

/// The multiplier of [`Mix`]: an odd constant with its bits spread over the whole word.
const MULTIPLIER: u64 = 0x5851_f42d_4c95_7f2d;

impl Sink for Mix {
    #[inline]
    fn word(&mut self, word: u64) {
        let product = u128::from(self.0 ^ word) * u128::from(MULTIPLIER);
        self.0 = (product as u64) ^ ((product >> 64) as u64);
    }
}

/// A sink that ignores its input, for walks that only need the estimate.
struct Discard;

impl Sink for Discard {
    #[inline]
    fn word(&mut self, _word: u64) {}

    #[inline]
    fn text(&mut self, _head: u64, _text: &str) {}
}

/// Hands `f` the words that, with the length of `bytes`, determine `bytes`: every whole 8-byte chunk, then, when
/// bytes are left over, the last 8 bytes (overlapping the chunk before); text shorter than 8 bytes gives one word
/// from its first and last 4 bytes (overlapping), or from its first, middle and last byte when shorter than 4.
///
/// Two texts of the same length give the same words exactly when they are equal, since the words read every byte;
/// the length itself is the caller's to feed.
#[inline]
pub(crate) fn text_words(bytes: &[u8], mut f: impl FnMut(u64)) {
    let len = bytes.len();
    if len >= 8 {
        let (chunks, rest) = bytes.as_chunks::<8>();
        for chunk in chunks {
            f(u64::from_le_bytes(*chunk));
        }
        if !rest.is_empty()
            && let Some(last) = bytes.last_chunk::<8>()
        {
            f(u64::from_le_bytes(*last));
        }
    } else if len >= 4 {
        if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
            f(
                u64::from(u32::from_le_bytes(*first))
                    | (u64::from(u32::from_le_bytes(*last)) << 32),
            );
        }
    } else if len > 0 {
        let byte = |at: usize| bytes.get(at).copied().map_or(0, u64::from);
        f(byte(0) | (byte(len / 2) << 8) | (byte(len - 1) << 16));
    }
}

/// The estimate charged for every value.
const VALUE_BYTES: usize = 64;
/// The estimate charged for every object, on top of [`VALUE_BYTES`].
const OBJECT_BYTES: usize = 576;
/// The estimate charged for every object key and every string, on top of its bytes.
const TEXT_BYTES: usize = 32;

/// The type tags, in the low byte of a value's first word; a string, array or object carries its length in the
/// bytes above (lengths within the limits fit in far fewer bits).
const TAG_NULL: u64 = 0;
const TAG_FALSE: u64 = 1;
const TAG_TRUE: u64 = 2;
const TAG_INTEGER: u64 = 3;
const TAG_UNSIGNED: u64 = 4;
const TAG_FLOAT: u64 = 5;
const TAG_STRING: u64 = 6;
const TAG_ARRAY: u64 = 7;
const TAG_OBJECT: u64 = 8;

/// A tag with a length above it.
fn tagged(tag: u64, len: usize) -> u64 {
    tag | ((len as u64) << 8)
}

/// The running totals of one walk, each checked against its limit as it grows, and the sink.
struct Walk<'s, S> {
    sink: &'s mut S,
    /// Values seen, counting the members and elements of every container as soon as it is entered.
    values: usize,
    /// Key and string bytes.
    text: usize,
    /// Keys and strings.
    texts: usize,
    /// Objects.
    objects: usize,
}

impl<S: Sink> Walk<'_, S> {
    /// Counts `count` more values, failing past [`Fingerprint::MAX_VALUES`].
    #[inline]
    fn values(&mut self, count: usize) -> Option<()> {
        self.values = self.values.saturating_add(count);
        (self.values <= Fingerprint::MAX_VALUES).then_some(())
    }

    /// Counts one key or string of `len` bytes, failing past [`Fingerprint::MAX_TEXT_BYTES`].
    #[inline]
    fn text(&mut self, len: usize) -> Option<()> {
        self.text = self.text.saturating_add(len);
        self.texts += 1;
        (self.text <= Fingerprint::MAX_TEXT_BYTES).then_some(())
    }

    /// Feeds `value`, at `depth`, and everything below it, in document order.
    ///
    /// The recursion goes at most [`Fingerprint::MAX_DEPTH`] levels down: a non-empty container at that depth
    /// has members deeper than the limit, and the walk gives up there. Only containers recurse; a scalar member
    /// is fed in its container's loop.
    fn value(&mut self, value: &Value, depth: usize) -> Option<()> {
        match value {
            Value::Array(items) => {
                self.values(items.len())?;
                self.sink.word(tagged(TAG_ARRAY, items.len()));
                if !items.is_empty() {
                    if depth >= Fingerprint::MAX_DEPTH {
                        return None;
                    }
                    for item in items {
                        self.member(item, depth + 1)?;
                    }
                }
                Some(())
            }
            Value::Object(map) => {
                self.values(map.len())?;
                self.objects += 1;
                self.sink.word(tagged(TAG_OBJECT, map.len()));
                if !map.is_empty() {
                    if depth >= Fingerprint::MAX_DEPTH {
                        return None;
                    }
                    for (key, item) in map {
                        self.text(key.len())?;
                        self.sink.text(key.len() as u64, key);
                        self.member(item, depth + 1)?;
                    }
                }
                Some(())
            }
            scalar => self.scalar(scalar),
        }
    }

    /// Feeds a member or element: a container by recursion, a scalar here.
    #[expect(
        clippy::inline_always,
        reason = "left to itself the compiler calls it for every member; inlined, the walk costs less"
    )]
    #[inline(always)]
    fn member(&mut self, value: &Value, depth: usize) -> Option<()> {
        match value {
            Value::Array(_) | Value::Object(_) => self.value(value, depth),
            scalar => self.scalar(scalar),
        }
    }

    /// Feeds a scalar (a container feeds nothing here).
    #[expect(
        clippy::inline_always,
        reason = "left to itself the compiler calls it for every scalar; inlined, the walk costs less"
    )]
    #[inline(always)]
    fn scalar(&mut self, value: &Value) -> Option<()> {
        match value {
            Value::Null => self.sink.word(TAG_NULL),
            Value::Bool(flag) => self.sink.word(if *flag { TAG_TRUE } else { TAG_FALSE }),
            Value::Number(number) => write_number(self.sink, number),
            Value::String(text) => {
                self.text(text.len())?;
                self.sink.text(tagged(TAG_STRING, text.len()), text);
            }
            Value::Array(_) | Value::Object(_) => {}
        }
        Some(())
    }
}

/// Walks `root` depth first in document order, feeding `sink`, and returns the owned-byte estimate.
///
/// The walk recurses once per level and gives up below [`Fingerprint::MAX_DEPTH`], so no input can take it
/// deeper than that many frames, and it allocates nothing.
fn walk(root: &Value, sink: &mut impl Sink) -> Option<usize> {
    let mut walk = Walk {
        sink,
        values: 1,
        text: 0,
        texts: 0,
        objects: 0,
    };
    walk.value(root, 0)?;
    // Every count is far below its limit here, so none of these products or sums can overflow.
    Some(
        walk.values * VALUE_BYTES
            + walk.objects * OBJECT_BYTES
            + walk.text
            + walk.texts * TEXT_BYTES,
    )
}

/// Feeds a number: its kind and value (an integer as itself, a float as its `f64` bit pattern).
fn write_number(sink: &mut impl Sink, number: &Number) {
    if let Some(value) = number.as_i64() {
        sink.word(TAG_INTEGER);
        sink.word(value.cast_unsigned());
    } else if let Some(value) = number.as_u64() {
        sink.word(TAG_UNSIGNED);
        sink.word(value);
    } else {
        sink.word(TAG_FLOAT);
        sink.word(number.as_f64().map_or(0, f64::to_bits));
    }
}
