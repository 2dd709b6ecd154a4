//! Identity of JSON values checked without allocating, for the lookup path.

use crate::Fingerprint;
use crate::fingerprint::text_words;
use serde_json::{Number, Value};

/// Whether `a` and `b` are identical: the same kinds, object keys in the same order, equal strings and booleans,
/// and numbers of the same kind with the same `f64` bits.
///
/// This is `llmshim_core::json::identical`, computed by a recursion at most [`Fingerprint::MAX_DEPTH`] levels deep
/// so that a memo hit allocates nothing; inputs nested deeper than any fingerprinted value are handed to the core
/// function, so the answer never depends on the bound.
pub(crate) fn identical(a: &Value, b: &Value) -> bool {
    bounded(a, b).unwrap_or_else(|| llmshim_core::json::identical(a, b))
}

/// Compares depth first; `None` means the values nest deeper than [`Fingerprint::MAX_DEPTH`].
///
/// The recursion is bounded by that depth: a container that would open a level below it gives up instead.
fn bounded(a: &Value, b: &Value) -> Option<bool> {
    same(a, b, 0)
}

/// [`bounded`] of two values at `depth`; only containers recurse, a scalar member is compared in its container's
/// loop.
fn same(a: &Value, b: &Value, depth: usize) -> Option<bool> {
    match (a, b) {
        (Value::Array(p), Value::Array(q)) => {
            if p.len() != q.len() {
                return Some(false);
            }
            if depth >= Fingerprint::MAX_DEPTH && !p.is_empty() {
                return None;
            }
            for (x, y) in p.iter().zip(q) {
                if !member(x, y, depth + 1)? {
                    return Some(false);
                }
            }
            Some(true)
        }
        (Value::Object(p), Value::Object(q)) => {
            if p.len() != q.len() {
                return Some(false);
            }
            if depth >= Fingerprint::MAX_DEPTH && !p.is_empty() {
                return None;
            }
            for ((kp, vp), (kq, vq)) in p.iter().zip(q) {
                if !same_text(kp, kq) || !member(vp, vq, depth + 1)? {
                    return Some(false);
                }
            }
            Some(true)
        }
        _ => Some(same_scalar(a, b)),
    }
}

/// [`same`] of a member or element: containers by recursion, scalars here.
#[expect(
    clippy::inline_always,
    reason = "left to itself the compiler calls it for every member; inlined, the comparison costs less"
)]
#[inline(always)]
fn member(a: &Value, b: &Value, depth: usize) -> Option<bool> {
    match a {
        Value::Array(_) | Value::Object(_) => same(a, b, depth),
        _ => Some(same_scalar(a, b)),
    }
}

/// Whether two values are identical scalars (a container is never identical here).
#[expect(
    clippy::inline_always,
    reason = "left to itself the compiler calls it for every scalar; inlined, the comparison costs less"
)]
#[inline(always)]
fn same_scalar(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(p), Value::Bool(q)) => p == q,
        (Value::String(p), Value::String(q)) => same_text(p, q),
        (Value::Number(p), Value::Number(q)) => same_number(p, q),
        _ => false,
    }
}

/// Texts longer than this are compared by the library's `memcmp`, whose call the length pays for.
const INLINE_TEXT: usize = 32;

/// Whether two texts are equal; the short keys and strings of a schema are compared a word at a time, inline,
/// reading the same words as the fingerprint ([`text_words`]), which determine a text of a given length.
fn same_text(p: &str, q: &str) -> bool {
    let (p, q) = (p.as_bytes(), q.as_bytes());
    if p.len() != q.len() {
        return false;
    }
    if p.len() > INLINE_TEXT {
        return p == q;
    }
    let word = |bytes: &[u8; 8]| u64::from_le_bytes(*bytes);
    if p.len() >= 8 {
        let (mine, _) = p.as_chunks::<8>();
        let (theirs, _) = q.as_chunks::<8>();
        mine.iter().zip(theirs).all(|(a, b)| word(a) == word(b))
            && p.last_chunk::<8>().map(word) == q.last_chunk::<8>().map(word)
    } else {
        let mut mine = 0;
        let mut theirs = 0;
        text_words(p, |w| mine = w);
        text_words(q, |w| theirs = w);
        mine == theirs
    }
}

/// Numbers are identical when both are the same `i64`, both the same `u64`, or both floats with the same bits.
fn same_number(p: &Number, q: &Number) -> bool {
    if let (Some(a), Some(b)) = (p.as_i64(), q.as_i64()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (p.as_u64(), q.as_u64()) {
        return a == b;
    }
    if p.is_f64() && q.is_f64() {
        return p.as_f64().map(f64::to_bits) == q.as_f64().map(f64::to_bits);
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::identity::{bounded, identical, same_text};
    use serde_json::{Value, json};

    fn nested(levels: usize) -> Value {
        (0..levels).fold(json!(null), |inner, _| json!([inner]))
    }

    #[test]
    fn agrees_with_core_on_the_contract_examples() {
        let pairs = [
            (json!({"a": 1, "b": 2}), json!({"a": 1, "b": 2})),
            (json!({"a": 1, "b": 2}), json!({"b": 2, "a": 1})),
            (json!(0.0), json!(-0.0)),
            (json!(1), json!(1.0)),
            (json!(u64::MAX), json!(u64::MAX)),
            (json!(-1), json!(u64::MAX)),
            (json!([1, [2, {"x": "y"}]]), json!([1, [2, {"x": "y"}]])),
            (json!([1, [2, {"x": "y"}]]), json!([1, [2, {"x": "z"}]])),
            (json!({"a": []}), json!({"a": {}})),
            (json!([]), json!([null])),
        ];
        for (a, b) in &pairs {
            assert_eq!(
                identical(a, b),
                llmshim_core::json::identical(a, b),
                "{a} vs {b}"
            );
        }
    }

    #[test]
    fn texts_compare_equal_exactly_when_their_bytes_do() {
        // Every length around the word sizes, with one byte changed at every position in turn.
        for len in 0..=40 {
            let text: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            assert!(same_text(&text, &text.clone()), "{text:?}");
            for at in 0..len {
                let mut bytes = text.clone().into_bytes();
                bytes[at] = b'#';
                let other = String::from_utf8(bytes).expect("ASCII");
                assert!(!same_text(&text, &other), "{text:?} vs {other:?}");
            }
            assert!(!same_text(&text, &format!("{text}a")));
        }
    }

    #[test]
    fn deep_values_fall_back_to_core() {
        // Ninety-six arrays around `null` put it at depth 96, which the fixed stack still holds.
        assert_eq!(bounded(&nested(96), &nested(96)), Some(true));
        assert_eq!(bounded(&nested(97), &nested(97)), None);
        assert!(identical(&nested(97), &nested(97)));
        assert!(!identical(&nested(97), &nested(98)));
    }
}
