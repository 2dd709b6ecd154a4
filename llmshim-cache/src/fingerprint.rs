//! The bounded fingerprint of a memo key: one iterative walk that hashes a value and estimates its owned bytes.

use serde_json::{Number, Value};
use std::array;
use std::hash::Hasher;
use std::slice;

/// The hash and owned-byte estimate of one JSON value, produced by one bounded, iterative walk.
///
/// The walk feeds the hasher, for every value in document order, a type tag, the length of each object and
/// array, each object key in stored order, each string's contents, each boolean, and each number by kind, value
/// and `f64` bit pattern.
/// So two values that are *identical* always hash alike, while key order, `0.0` against `-0.0`
/// and `1` against `1.0` all feed different data.
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

    /// Walks `value` once, feeding `hasher`, and returns the finished hash with the owned-byte estimate.
    ///
    /// Returns `None` when the value is beyond the fixed limits; the walk stops as soon as it knows, so it never
    /// does more work than the limits allow, and it never recurses, so no nesting can overflow the stack.
    /// Whatever `hasher` was fed before is part of the hash: the memo feeds it the options key first.
    pub fn new<H: Hasher>(value: &Value, mut hasher: H) -> Option<Fingerprint> {
        let bytes = walk(value, &mut Feed(&mut hasher))?;
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

/// Where a walk sends the data it hashes.
trait Sink {
    /// Takes one byte: a type tag.
    fn byte(&mut self, byte: u8);
    /// Takes one 64-bit word: a length, an integer or a bit pattern.
    fn word(&mut self, word: u64);
    /// Takes a key or string: its length, then its bytes, so adjacent texts cannot run together.
    fn text(&mut self, text: &str) {
        self.word(text.len() as u64);
        self.bytes(text.as_bytes());
    }
    /// Takes raw bytes.
    fn bytes(&mut self, bytes: &[u8]);
}

/// A sink that hands every piece straight to a hasher.
///
/// Hashers differ in which writes they digest fastest; the default one folds each word in a few cycles, so
/// gathering pieces into larger writes would only slow it down.
struct Feed<'h, H>(&'h mut H);

impl<H: Hasher> Sink for Feed<'_, H> {
    fn byte(&mut self, byte: u8) {
        self.0.write_u8(byte);
    }

    fn word(&mut self, word: u64) {
        self.0.write_u64(word);
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }
}

/// A sink that ignores its input, for walks that only need the estimate.
struct Discard;

impl Sink for Discard {
    fn byte(&mut self, _byte: u8) {}

    fn word(&mut self, _word: u64) {}

    fn text(&mut self, _text: &str) {}

    fn bytes(&mut self, _bytes: &[u8]) {}
}

/// The estimate charged for every value.
const VALUE_BYTES: usize = 64;
/// The estimate charged for every object, on top of [`VALUE_BYTES`].
const OBJECT_BYTES: usize = 576;
/// The estimate charged for every object key and every string, on top of its bytes.
const TEXT_BYTES: usize = 32;

/// The type tags fed to the hasher, one per value.
const TAG_NULL: u8 = 0;
const TAG_FALSE: u8 = 1;
const TAG_TRUE: u8 = 2;
const TAG_INTEGER: u8 = 3;
const TAG_UNSIGNED: u8 = 4;
const TAG_FLOAT: u8 = 5;
const TAG_STRING: u8 = 6;
const TAG_ARRAY: u8 = 7;
const TAG_OBJECT: u8 = 8;

/// The unvisited rest of one open container.
enum Frame<'a> {
    Array(slice::Iter<'a, Value>),
    Object(serde_json::map::Iter<'a>),
}

/// The running totals of one walk, each checked against its limit as it grows.
struct Totals {
    values: usize,
    text: usize,
    bytes: usize,
}

impl Totals {
    /// Counts `count` more values, failing past [`Fingerprint::MAX_VALUES`].
    fn values(&mut self, count: usize) -> Option<()> {
        self.values = self.values.saturating_add(count);
        (self.values <= Fingerprint::MAX_VALUES).then_some(())
    }

    /// Counts one key or string of `len` bytes, failing past [`Fingerprint::MAX_TEXT_BYTES`].
    fn text(&mut self, len: usize) -> Option<()> {
        self.text = self.text.saturating_add(len);
        self.bytes = self.bytes.saturating_add(len).saturating_add(TEXT_BYTES);
        (self.text <= Fingerprint::MAX_TEXT_BYTES).then_some(())
    }
}

/// Walks `root` depth first in document order, feeding `sink`, and returns the owned-byte estimate.
///
/// The open containers live in a fixed array of [`Fingerprint::MAX_DEPTH`] frames on the stack, so the walk
/// allocates nothing; a container at depth `d` occupies frame `d`, and a container that would need a frame past
/// the end has members deeper than the limit.
fn walk(root: &Value, sink: &mut impl Sink) -> Option<usize> {
    let mut frames: [Option<Frame<'_>>; Fingerprint::MAX_DEPTH] = array::from_fn(|_| None);
    let mut height = 0;
    let mut totals = Totals {
        values: 1,
        text: 0,
        bytes: 0,
    };
    let mut next = Some(root);
    while let Some(value) = next.take() {
        totals.bytes = totals.bytes.saturating_add(VALUE_BYTES);
        let opened = match value {
            Value::Null => {
                sink.byte(TAG_NULL);
                None
            }
            Value::Bool(flag) => {
                sink.byte(if *flag { TAG_TRUE } else { TAG_FALSE });
                None
            }
            Value::Number(number) => {
                write_number(sink, number);
                None
            }
            Value::String(text) => {
                totals.text(text.len())?;
                sink.byte(TAG_STRING);
                sink.text(text);
                None
            }
            Value::Array(items) => {
                totals.values(items.len())?;
                sink.byte(TAG_ARRAY);
                sink.word(items.len() as u64);
                (!items.is_empty()).then(|| Frame::Array(items.iter()))
            }
            Value::Object(map) => {
                totals.values(map.len())?;
                totals.bytes = totals.bytes.saturating_add(OBJECT_BYTES);
                sink.byte(TAG_OBJECT);
                sink.word(map.len() as u64);
                (!map.is_empty()).then(|| Frame::Object(map.iter()))
            }
        };
        if let Some(frame) = opened {
            // The members of a container at depth `height` sit at `height + 1`; past the last frame they are too deep.
            *frames.get_mut(height)? = Some(frame);
            height += 1;
        }
        // Take the next value from the innermost open container, closing exhausted ones; an object's key is fed
        // and counted on the way.
        while let Some(top) = height.checked_sub(1) {
            match frames.get_mut(top) {
                Some(Some(Frame::Array(items))) => {
                    if let Some(item) = items.next() {
                        next = Some(item);
                        break;
                    }
                }
                Some(Some(Frame::Object(members))) => {
                    if let Some((key, item)) = members.next() {
                        totals.text(key.len())?;
                        sink.text(key);
                        next = Some(item);
                        break;
                    }
                }
                Some(None) | None => {}
            }
            height = top;
        }
    }
    Some(totals.bytes)
}

/// Feeds a number: its kind and value, then its `f64` bit pattern.
fn write_number(sink: &mut impl Sink, number: &Number) {
    if let Some(value) = number.as_i64() {
        sink.byte(TAG_INTEGER);
        sink.word(value.cast_unsigned());
    } else if let Some(value) = number.as_u64() {
        sink.byte(TAG_UNSIGNED);
        sink.word(value);
    } else {
        sink.byte(TAG_FLOAT);
    }
    sink.word(number.as_f64().map_or(0, f64::to_bits));
}
