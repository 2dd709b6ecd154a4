//! Mathematical number semantics: comparison, equality across integer and float forms, and `multipleOf`.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

use serde_json::{Number, Value};

/// Compares two numbers mathematically: exactly when both are integers, as `f64` otherwise.
pub(crate) fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (as_i128(a), as_i128(b)) {
        return Some(x.cmp(&y));
    }
    a.as_f64()?.partial_cmp(&b.as_f64()?)
}

fn as_i128(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// Whether two numbers are mathematically equal (`1` equals `1.0`).
pub(crate) fn equal_numbers(a: &Number, b: &Number) -> bool {
    compare(a, b) == Some(Ordering::Equal)
}

/// Whether the number has no fractional part.
#[inline]
pub(crate) fn is_integer(n: &Number) -> bool {
    n.is_i64() || n.is_u64() || is_integral_float(n)
}

/// The float case of [`is_integer`], kept out of line so that callers do not compute it ahead of need.
#[inline(never)]
fn is_integral_float(n: &Number) -> bool {
    n.as_f64().is_some_and(is_integral)
}

/// Whether a float is finite with no fractional part (`f.fract() == 0.0`), without calling `trunc`, which is a
/// library routine on baseline x86-64.
#[inline]
#[expect(
    clippy::cast_precision_loss,
    clippy::float_cmp,
    reason = "below 2^52 the cast truncates toward zero exactly, and integrality is an exact comparison"
)]
fn is_integral(f: f64) -> bool {
    /// 2^52: from here on, every finite float is an integer.
    const ALL_INTEGRAL: f64 = 4_503_599_627_370_496.0;
    f.is_finite() && (f.abs() >= ALL_INTEGRAL || (f as i64) as f64 == f)
}

/// Deep equality with mathematical numbers and key order ignored.
///
/// Recursion is bounded by the instance-depth limit checked before validation and by the schema limits.
pub(crate) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => equal_numbers(x, y),
        (Value::String(x), Value::String(y)) => crate::node::str_eq(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, p)| y.get(key).is_some_and(|q| equal(p, q)))
        }
        _ => false,
    }
}

/// Feeds a hash consistent with [`equal`]: numbers hash by their `f64` value, objects ignore key order.
pub(crate) fn hash_value<H: Hasher>(value: &Value, state: &mut H) {
    match value {
        Value::Null => 0u8.hash(state),
        Value::Bool(b) => {
            1u8.hash(state);
            b.hash(state);
        }
        Value::Number(n) => {
            2u8.hash(state);
            let f = n.as_f64().unwrap_or(0.0);
            // `-0.0` equals `0.0`, so both hash alike.
            let f = if f == 0.0 { 0.0 } else { f };
            f.to_bits().hash(state);
        }
        Value::String(s) => {
            3u8.hash(state);
            s.hash(state);
        }
        Value::Array(items) => {
            4u8.hash(state);
            items.len().hash(state);
            for item in items {
                hash_value(item, state);
            }
        }
        Value::Object(map) => {
            5u8.hash(state);
            map.len().hash(state);
            let mut sum = 0u64;
            for (key, member) in map {
                let mut entry = std::collections::hash_map::DefaultHasher::new();
                key.hash(&mut entry);
                hash_value(member, &mut entry);
                sum = sum.wrapping_add(entry.finish());
            }
            sum.hash(state);
        }
    }
}

/// A finite decimal `mantissa × 10^exponent`, read from a number's shortest text.
struct Decimal {
    mantissa: u128,
    exponent: i32,
}

fn decimal(n: &Number) -> Option<Decimal> {
    let text = n.to_string();
    let text = text.strip_prefix('-').unwrap_or(&text);
    let (digits, exponent) = match text.split_once(['e', 'E']) {
        Some((digits, exp)) => (digits, exp.parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let mut mantissa: u128 = 0;
    for c in int.chars().chain(frac.chars()) {
        let d = c.to_digit(10)?;
        mantissa = mantissa.checked_mul(10)?.checked_add(u128::from(d))?;
    }
    let mut exponent = exponent.checked_sub(i32::try_from(frac.len()).ok()?)?;
    while mantissa != 0 && mantissa.is_multiple_of(10) {
        mantissa /= 10;
        exponent += 1;
    }
    Some(Decimal { mantissa, exponent })
}

fn pow10(exp: u32) -> Option<u128> {
    10u128.checked_pow(exp)
}

/// Whether `value` is an integer multiple of the positive `divisor`, exactly in decimal where it fits.
pub(crate) fn is_multiple_of(value: &Number, divisor: &Number) -> bool {
    if let (Some(x), Some(m)) = (decimal(value), decimal(divisor)) {
        if x.mantissa == 0 {
            return true;
        }
        if m.mantissa == 0 {
            return false;
        }
        let exact = if x.exponent >= m.exponent {
            u32::try_from(x.exponent - m.exponent)
                .ok()
                .and_then(pow10)
                .and_then(|scale| x.mantissa.checked_mul(scale))
                .map(|scaled| scaled % m.mantissa == 0)
        } else {
            u32::try_from(m.exponent - x.exponent)
                .ok()
                .and_then(pow10)
                .and_then(|scale| m.mantissa.checked_mul(scale))
                .map(|scaled| x.mantissa % scaled == 0)
        };
        if let Some(answer) = exact {
            return answer;
        }
    }
    let (Some(x), Some(m)) = (value.as_f64(), divisor.as_f64()) else {
        return false;
    };
    let quotient = x / m;
    if quotient.is_finite() {
        quotient.fract() == 0.0
    } else {
        x % m == 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn n(v: Value) -> Number {
        match v {
            Value::Number(n) => n,
            _ => Number::from(0),
        }
    }

    #[test]
    fn multiples_are_exact_in_decimal() {
        assert!(is_multiple_of(&n(json!(0.0075)), &n(json!(0.0001))));
        assert!(!is_multiple_of(&n(json!(0.00751)), &n(json!(0.0001))));
        assert!(is_multiple_of(&n(json!(19.99)), &n(json!(0.01))));
        assert!(is_multiple_of(&n(json!(10)), &n(json!(2))));
        assert!(!is_multiple_of(&n(json!(7)), &n(json!(2))));
        assert!(is_multiple_of(&n(json!(1e308)), &n(json!(0.5))));
        assert!(!is_multiple_of(&n(json!(1e308)), &n(json!(0.123_456_789))));
        assert!(is_multiple_of(&n(json!(4.5)), &n(json!(1.5))));
    }

    #[test]
    fn integral_floats_match_fract() {
        for f in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -0.5,
            1.5,
            2.0e15,
            4.5e15,
            4.503_599_627_370_495e15,
            1e300,
            -1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            1e-300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            9.007_199_254_740_993e15,
            123_456_789.000_001,
        ] {
            assert_eq!(is_integral(f), f.is_finite() && f.fract() == 0.0, "{f}");
        }
    }

    #[test]
    fn numbers_compare_mathematically() {
        assert!(equal(&json!(1), &json!(1.0)));
        assert!(equal(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
        assert!(!equal(&json!(1), &json!(true)));
        assert_eq!(
            compare(&n(json!(u64::MAX)), &n(json!(-1))),
            Some(Ordering::Greater)
        );
    }
}
