//! The bounded fingerprint of a memo key: one walk that hashes a value and estimates its owned bytes.

use serde_json::{Map, Number, Value};
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
    /// The word the walk folded the value into, before it was fed to the hasher.
    folded: u64,
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
            folded: mix.0,
        })
    }

    /// The memo's fingerprint: like [`Fingerprint::new`], but the walk starts from `start` (a word the memo derives
    /// from its seed alone) instead of from `hasher`'s state, so the folded word of a value is the same whatever key
    /// `hasher` was fed; the folded word is then fed to `hasher`, whose finish is the hash. The memo keeps the folded
    /// word with an entry, so a lookup of the same value under another key needs no walk ([`Memo::lookup_as`]).
    /// Also leaves in `words` (cleared first) every word the walk folded: the value's [`encoding`](encode), which the
    /// memo compares with an entry's instead of walking the stored input. `words` keeps its capacity, so a caller
    /// that reuses it allocates only when a value outgrows it.
    ///
    /// [`Memo::lookup_as`]: crate::Memo::lookup_as
    pub(crate) fn recorded<H: Hasher>(
        value: &Value,
        start: u64,
        mut hasher: H,
        words: &mut Vec<u64>,
    ) -> Option<Fingerprint> {
        words.clear();
        let mut record = Record {
            held: [0; HELD_WORDS],
            count: 0,
            words,
        };
        let bytes = walk(value, &mut record)?;
        record.spill();
        let folded = fold(start, record.words);
        hasher.write_u64(folded);
        Some(Fingerprint {
            hash: hasher.finish(),
            bytes,
            folded,
        })
    }

    /// The word the walk folded the value into (what [`Fingerprint::recorded`] feeds the hasher after the key).
    pub(crate) const fn folded(&self) -> u64 {
        self.folded
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
    #[expect(
        clippy::inline_always,
        reason = "left to itself the compiler calls it for every key and string; inlined, the walk costs less"
    )]
    #[inline(always)]
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
        self.0 = folded_multiply(self.0 ^ word, MULTIPLIER);
    }
}

/// The folded word of a recorded encoding: `start` with the words folded in, a word count at the end.
///
/// The words go in blocks of eight through four running states, each taking a pair per block with one
/// multiplication (the 128-bit product of the state xor the first word with the second word xor a word derived
/// from `start`, its halves xored together); the pairs after the last whole block go through the first state, a
/// last odd word alone, and the four states are then folded into one with the word count.
///
/// Folding the recorded words after the walk, in one tight loop over the buffer, costs fewer instructions than
/// folding each word as the walk meets it ([`Mix`], one multiplication a word, its state kept through the walk's
/// calls), and four states let four multiplications run at once where one state would wait for each product before
/// the next. Like [`Mix`], it only has to spread: the memo checks every hash match for identity.
fn fold(start: u64, words: &[u64]) -> u64 {
    // The second word of each pair is xored with a word of the seed's, so no fixed word zeroes the product.
    let key = start.rotate_left(32) ^ MULTIPLIER;
    // The states start apart from each other and, for all but a handful of seeds, from `key`: a state equal to
    // `key` folds a pair and its swap alike (a collision, which costs only a miss).
    let mut states = [
        start,
        start ^ 0x243f_6a88_85a3_08d3,
        start ^ 0x1319_8a2e_0370_7344,
        start ^ 0xa409_3822_299f_31d0,
    ];
    let (blocks, tail) = words.as_chunks::<8>();
    for block in blocks {
        for (state, pair) in states.iter_mut().zip(block.as_chunks::<2>().0) {
            let [first, second] = *pair;
            *state = folded_multiply(*state ^ first, second ^ key);
        }
    }
    let [mut state, second, third, fourth] = states;
    let (pairs, rest) = tail.as_chunks::<2>();
    for &[first, second] in pairs {
        state = folded_multiply(state ^ first, second ^ key);
    }
    if let Some(&last) = rest.first() {
        state = folded_multiply(state ^ last, key.rotate_left(17));
    }
    let state = folded_multiply(state ^ second, third ^ key);
    folded_multiply(state ^ fourth ^ words.len() as u64, MULTIPLIER)
}

/// The 128-bit product of `a` and `b`, its halves xored together.
#[inline]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// How many words [`Record`] holds before it appends them to its buffer: 1 KiB of stack, which most tool schemas
/// encodings fit in whole, so they are appended in one piece.
const HELD_WORDS: usize = 128;

/// A sink that keeps every word, in order: held in a small array of its own (one store a word) and appended to
/// `words` a whole array at a time, which costs less than a push for every word. The words are folded afterwards,
/// all at once ([`fold`]).
struct Record<'w> {
    held: [u64; HELD_WORDS],
    /// The words in `held`.
    count: usize,
    words: &'w mut Vec<u64>,
}

impl Record<'_> {
    /// Appends the held words to `words`.
    fn spill(&mut self) {
        self.words
            .extend_from_slice(self.held.get(..self.count).unwrap_or_default());
        self.count = 0;
    }

    /// Appends the full array to `words`, then holds `word`.
    #[cold]
    fn spill_and_hold(&mut self, word: u64) {
        self.spill();
        if let Some(slot) = self.held.first_mut() {
            *slot = word;
            self.count = 1;
        }
    }
}

impl Sink for Record<'_> {
    #[inline]
    fn word(&mut self, word: u64) {
        if let Some(slot) = self.held.get_mut(self.count) {
            *slot = word;
            self.count += 1;
        } else {
            self.spill_and_hold(word);
        }
    }
}

/// A sink that only keeps the words, in order.
struct Keep(Vec<u64>);

impl Sink for Keep {
    #[inline]
    fn word(&mut self, word: u64) {
        self.0.push(word);
    }
}

/// The encoding of `value`: every word a fingerprint walk of it folds, in order, or `None` when it is beyond the
/// fingerprint's limits.
///
/// Two values are identical in the memo's sense (the same kinds, keys in the same order, equal texts and booleans,
/// numbers of the same kind with the same bits) exactly when their encodings are equal, since the encoding can be
/// read back ([`decode`]): each value starts with a word whose low byte is its type tag and whose upper bytes hold a
/// string's, array's or object's length; a number's second word is its value or bits; an object's members follow as
/// a key length, the key's text words and the member's value; and a text of a given length always takes the same
/// number of words, which read every byte ([`text_words`]). So the memo compares an input with an entry's by one
/// comparison of two word slices, the entry's read in order, instead of walking the stored value.
pub(crate) fn encode(value: &Value) -> Option<Box<[u64]>> {
    let mut keep = Keep(Vec::new());
    walk(value, &mut keep)?;
    Some(keep.0.into_boxed_slice())
}

/// The value whose [`encoding`](encode) `words` is, or `None` when `words` is no value's encoding.
pub(crate) fn decode(words: &[u64]) -> Option<Value> {
    let mut reader = Reader { words, at: 0 };
    let value = reader.value(0)?;
    (reader.at == words.len()).then_some(value)
}

/// Reads an encoding back, word by word.
struct Reader<'w> {
    words: &'w [u64],
    at: usize,
}

impl Reader<'_> {
    fn next(&mut self) -> Option<u64> {
        let word = *self.words.get(self.at)?;
        self.at += 1;
        Some(word)
    }

    /// The words left, an upper bound on the members or elements still to read.
    fn left(&self) -> usize {
        self.words.len().saturating_sub(self.at)
    }

    /// The value starting at the next word, at `depth` (no deeper than the fingerprint goes).
    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > Fingerprint::MAX_DEPTH {
            return None;
        }
        let head = self.next()?;
        let len = usize::try_from(head >> 8).ok()?;
        Some(match head & 0xff {
            TAG_NULL if len == 0 => Value::Null,
            TAG_FALSE if len == 0 => Value::Bool(false),
            TAG_TRUE if len == 0 => Value::Bool(true),
            TAG_INTEGER if len == 0 => Value::from(self.next()?.cast_signed()),
            TAG_UNSIGNED if len == 0 => Value::from(self.next()?),
            TAG_FLOAT if len == 0 => Value::Number(Number::from_f64(f64::from_bits(self.next()?))?),
            TAG_STRING => Value::String(self.text(len)?),
            TAG_ARRAY => {
                let mut items = Vec::with_capacity(len.min(self.left()));
                for _ in 0..len {
                    items.push(self.value(depth + 1)?);
                }
                Value::Array(items)
            }
            TAG_OBJECT => {
                let mut map = Map::with_capacity(len.min(self.left()));
                for _ in 0..len {
                    let key_len = usize::try_from(self.next()?).ok()?;
                    let key = self.text(key_len)?;
                    let item = self.value(depth + 1)?;
                    if map.insert(key, item).is_some() {
                        return None;
                    }
                }
                Value::Object(map)
            }
            _ => return None,
        })
    }

    /// A text of `len` bytes from its words ([`text_words`]).
    fn text(&mut self, len: usize) -> Option<String> {
        if len > Fingerprint::MAX_TEXT_BYTES {
            return None;
        }
        let mut bytes = vec![0u8; len];
        if len >= 8 {
            for chunk in bytes.as_chunks_mut::<8>().0 {
                *chunk = self.next()?.to_le_bytes();
            }
            if !len.is_multiple_of(8) {
                let last = self.next()?.to_le_bytes();
                *bytes.last_chunk_mut::<8>()? = last;
            }
        } else if len >= 4 {
            let word = self.next()?;
            *bytes.last_chunk_mut::<4>()? = ((word >> 32) as u32).to_le_bytes();
            *bytes.first_chunk_mut::<4>()? = (word as u32).to_le_bytes();
        } else if len > 0 {
            let word = self.next()?;
            let mut put = |at: usize, shift: u32| {
                if let Some(byte) = bytes.get_mut(at) {
                    *byte = (word >> shift) as u8;
                }
            };
            put(len - 1, 16);
            put(len / 2, 8);
            put(0, 0);
        }
        String::from_utf8(bytes).ok()
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
#[expect(
    clippy::inline_always,
    reason = "left to itself the compiler calls it for every key and string; inlined, the walk costs less"
)]
#[inline(always)]
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

#[cfg(test)]
mod tests {
    use crate::fingerprint::{decode, encode, fold};
    use serde_json::{Value, json};
    use std::collections::HashSet;

    fn nested(levels: usize) -> Value {
        (0..levels).fold(json!(null), |inner, _| json!([inner]))
    }

    /// Equal encodings exactly where the values are identical, and every encoding reads back as its value.
    #[test]
    fn encodings_are_equal_exactly_for_identical_values_and_read_back() {
        let pairs = [
            (json!({"a": 1, "b": 2}), json!({"a": 1, "b": 2})),
            (json!({"a": 1, "b": 2}), json!({"b": 2, "a": 1})),
            (json!(0.0), json!(-0.0)),
            (json!(1), json!(1.0)),
            (json!(u64::MAX), json!(u64::MAX)),
            (json!(-1), json!(u64::MAX)),
            (json!(i64::MIN), json!(i64::MIN)),
            (json!([1, [2, {"x": "y"}]]), json!([1, [2, {"x": "y"}]])),
            (json!([1, [2, {"x": "y"}]]), json!([1, [2, {"x": "z"}]])),
            (json!({"a": []}), json!({"a": {}})),
            (json!([]), json!([null])),
            (json!([true, false, null]), json!([false, true, null])),
            (json!({"ab": "c"}), json!({"a": "bc"})),
            (json!(["ab", "c"]), json!(["a", "bc"])),
            (json!({"": ""}), json!({"": ""})),
            (json!("é€😀"), json!("é€😀")),
        ];
        for (a, b) in &pairs {
            let (ea, eb) = (encode(a), encode(b));
            assert!(
                ea.is_some() && eb.is_some(),
                "{a} and {b} are within the limits"
            );
            assert_eq!(ea == eb, llmshim_core::json::identical(a, b), "{a} vs {b}");
            for (value, words) in [(a, &ea), (b, &eb)] {
                let back = words.as_deref().and_then(decode);
                assert!(
                    back.is_some_and(|back| llmshim_core::json::identical(&back, value)),
                    "{value} reads back"
                );
            }
        }
    }

    /// Texts of every length around the word sizes, with one byte changed at every position in turn, as keys and
    /// as strings.
    #[test]
    fn texts_encode_equal_exactly_when_their_bytes_are() {
        for len in 0..=40 {
            let text: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            let as_string = |t: &str| encode(&json!([t, 1]));
            let as_key = |t: &str| encode(&json!({t: 1}));
            assert_eq!(as_string(&text), as_string(&text.clone()));
            for at in 0..len {
                let mut bytes = text.clone().into_bytes();
                bytes[at] = b'#';
                let other = String::from_utf8(bytes).expect("ASCII");
                assert_ne!(as_string(&text), as_string(&other), "{text:?} vs {other:?}");
                assert_ne!(as_key(&text), as_key(&other), "{text:?} vs {other:?}");
            }
            assert_ne!(as_string(&text), as_string(&format!("{text}a")));
            let back = as_key(&text).as_deref().and_then(decode);
            assert_eq!(back, Some(json!({text.clone(): 1})));
        }
    }

    /// The memo's walk records exactly the encoding (held words spilled in order, past the held array's size too),
    /// and folds identical values alike and these different ones apart.
    #[test]
    fn the_recorded_words_are_the_encoding_and_fold_by_value() {
        use crate::Fingerprint;
        use std::hash::DefaultHasher;
        let long: String = (0..300u32)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        let values = [
            json!(null),
            json!({"type": "string"}),
            json!({"a": [1, 2.5, -3, true, null, "x"], "b": {"c": long.clone()}}),
            json!(
                (0..100)
                    .map(|i| json!({"k": i, "s": "abcdefghi"}))
                    .collect::<Vec<_>>()
            ),
            json!({"type": "strinG"}),
            json!([long]),
        ];
        let mut words = vec![7];
        let mut folded = Vec::new();
        for value in &values {
            let fingerprint = Fingerprint::recorded(value, 5, DefaultHasher::new(), &mut words)
                .expect("within the limits");
            assert_eq!(Some(words.clone().into_boxed_slice()), encode(value));
            let again = Fingerprint::recorded(&value.clone(), 5, DefaultHasher::new(), &mut words);
            assert_eq!(again, Some(fingerprint));
            folded.push(fingerprint.folded());
        }
        folded.sort_unstable();
        folded.dedup();
        assert_eq!(folded.len(), values.len());
    }

    /// Only values within the fingerprint's limits have an encoding, and words that are no encoding do not read.
    #[test]
    fn deep_values_have_no_encoding_and_stray_words_do_not_read() {
        assert!(encode(&nested(96)).is_some());
        assert_eq!(encode(&nested(97)), None);
        let words = encode(&json!({"a": [1, "bc"]})).expect("small");
        assert_eq!(decode(&words[..words.len() - 1]), None);
        let mut longer = words.to_vec();
        longer.push(0);
        assert_eq!(decode(&longer), None);
        assert_eq!(decode(&[0xff]), None);
    }

    /// The fold reads every word where it stands: over word lists of every length up to five of its blocks of
    /// eight words, changing any one word, swapping two neighbours or dropping the last word gives another folded
    /// word, under two starts.
    #[test]
    fn the_fold_reads_every_word_in_its_place() {
        for start in [0, 0x0123_4567_89ab_cdef] {
            for len in 0..=40u64 {
                let words: Vec<u64> = (1..=len).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
                let mut seen = HashSet::new();
                assert!(seen.insert(fold(start, &words)));
                for at in 0..words.len() {
                    let mut changed = words.clone();
                    if let Some(word) = changed.get_mut(at) {
                        *word ^= 1 << (at % 64);
                    }
                    assert!(seen.insert(fold(start, &changed)), "len {len}, word {at}");
                    if at + 1 < words.len() {
                        let mut swapped = words.clone();
                        swapped.swap(at, at + 1);
                        assert!(seen.insert(fold(start, &swapped)), "len {len}, swap {at}");
                    }
                }
                if let Some((_, shorter)) = words.split_last() {
                    assert!(seen.insert(fold(start, shorter)), "len {len}, shorter");
                }
            }
        }
    }
}
