//! Identity of JSON values checked without allocating, for the lookup path.

use crate::Fingerprint;
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

/// [`bounded`] of two values at `depth`.
fn same(a: &Value, b: &Value, depth: usize) -> Option<bool> {
    match (a, b) {
        (Value::Null, Value::Null) => Some(true),
        (Value::Bool(p), Value::Bool(q)) => Some(p == q),
        (Value::String(p), Value::String(q)) => Some(p == q),
        (Value::Number(p), Value::Number(q)) => Some(same_number(p, q)),
        (Value::Array(p), Value::Array(q)) => {
            if p.len() != q.len() {
                return Some(false);
            }
            if depth >= Fingerprint::MAX_DEPTH && !p.is_empty() {
                return None;
            }
            for (x, y) in p.iter().zip(q) {
                if !same(x, y, depth + 1)? {
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
                if kp != kq || !same(vp, vq, depth + 1)? {
                    return Some(false);
                }
            }
            Some(true)
        }
        _ => Some(false),
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
