//! Identity of JSON values (contract §1.1) checked without allocating, for the lookup path.

use crate::Fingerprint;
use serde_json::{Number, Value};
use std::array;
use std::iter::Zip;
use std::slice;

/// Whether `a` and `b` are identical: the same kinds, object keys in the same order, equal strings and booleans,
/// and numbers of the same kind with the same `f64` bits.
///
/// This is `llmshim_core::json::identical`, computed with a fixed stack of [`Fingerprint::MAX_DEPTH`] frames so
/// that a memo hit allocates nothing; inputs nested deeper than any fingerprinted value are handed to the core
/// function, so the answer never depends on the bound.
pub(crate) fn identical(a: &Value, b: &Value) -> bool {
    bounded(a, b).unwrap_or_else(|| llmshim_core::json::identical(a, b))
}

/// The unvisited rest of two open containers of the same kind and length.
enum Pair<'a> {
    Arrays(Zip<slice::Iter<'a, Value>, slice::Iter<'a, Value>>),
    Objects(Zip<serde_json::map::Iter<'a>, serde_json::map::Iter<'a>>),
}

/// Compares depth first; `None` means the values nest deeper than the fixed stack.
fn bounded(a: &Value, b: &Value) -> Option<bool> {
    let mut frames: [Option<Pair<'_>>; Fingerprint::MAX_DEPTH] = array::from_fn(|_| None);
    let mut height = 0;
    let mut next = Some((a, b));
    while let Some((x, y)) = next.take() {
        let opened = match (x, y) {
            (Value::Null, Value::Null) => None,
            (Value::Bool(p), Value::Bool(q)) if p == q => None,
            (Value::String(p), Value::String(q)) if p == q => None,
            (Value::Number(p), Value::Number(q)) if same_number(p, q) => None,
            (Value::Array(p), Value::Array(q)) if p.len() == q.len() => {
                (!p.is_empty()).then(|| Pair::Arrays(p.iter().zip(q)))
            }
            (Value::Object(p), Value::Object(q)) if p.len() == q.len() => {
                (!p.is_empty()).then(|| Pair::Objects(p.iter().zip(q)))
            }
            _ => return Some(false),
        };
        if let Some(pair) = opened {
            *frames.get_mut(height)? = Some(pair);
            height += 1;
        }
        while let Some(top) = height.checked_sub(1) {
            match frames.get_mut(top) {
                Some(Some(Pair::Arrays(items))) => {
                    if let Some(item) = items.next() {
                        next = Some(item);
                        break;
                    }
                }
                Some(Some(Pair::Objects(members))) => {
                    if let Some(((kp, vp), (kq, vq))) = members.next() {
                        if kp != kq {
                            return Some(false);
                        }
                        next = Some((vp, vq));
                        break;
                    }
                }
                Some(None) | None => {}
            }
            height = top;
        }
    }
    Some(true)
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
    use crate::identity::{bounded, identical};
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
    fn deep_values_fall_back_to_core() {
        // Ninety-six arrays around `null` put it at depth 96, which the fixed stack still holds.
        assert_eq!(bounded(&nested(96), &nested(96)), Some(true));
        assert_eq!(bounded(&nested(97), &nested(97)), None);
        assert!(identical(&nested(97), &nested(97)));
        assert!(!identical(&nested(97), &nested(98)));
    }
}
