//! The value checks of contract §10.1 step 3, each failing with `Error::Invalid` at the keyword's pointer.

use hashbrown::HashSet;
use serde_json::{Number, Value};

use crate::error::Error;

/// A non-negative integer; an integral float such as `2.0` counts, and huge values saturate.
pub(crate) fn non_negative_integer(value: &Value, pointer: &str) -> Result<u64, Error> {
    let fail = || Error::invalid(pointer, "must be a non-negative integer");
    let Value::Number(n) = value else {
        return Err(fail());
    };
    if let Some(u) = n.as_u64() {
        return Ok(u);
    }
    match n.as_f64() {
        Some(f) if f >= 0.0 && f.is_finite() && f.fract() == 0.0 => Ok(saturating_u64(f)),
        _ => Err(fail()),
    }
}

#[expect(
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "the value is a non-negative integral float, saturated at u64::MAX"
)]
fn saturating_u64(f: f64) -> u64 {
    if f >= u64::MAX as f64 {
        u64::MAX
    } else {
        f as u64
    }
}

/// A number.
pub(crate) fn number(value: &Value, pointer: &str) -> Result<Number, Error> {
    match value {
        Value::Number(n) => Ok(n.clone()),
        _ => Err(Error::invalid(pointer, "must be a number")),
    }
}

/// A string.
pub(crate) fn string<'v>(value: &'v Value, pointer: &str) -> Result<&'v str, Error> {
    value
        .as_str()
        .ok_or_else(|| Error::invalid(pointer, "must be a string"))
}

/// A boolean.
pub(crate) fn boolean(value: &Value, pointer: &str) -> Result<bool, Error> {
    value
        .as_bool()
        .ok_or_else(|| Error::invalid(pointer, "must be a boolean"))
}

/// An array of unique strings.
pub(crate) fn unique_strings(value: &Value, pointer: &str) -> Result<Vec<String>, Error> {
    let Value::Array(items) = value else {
        return Err(Error::invalid(
            pointer,
            "must be an array of unique strings",
        ));
    };
    let mut seen = HashSet::with_capacity(items.len());
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let Value::String(s) = item else {
            return Err(Error::invalid(
                pointer,
                "must be an array of unique strings",
            ));
        };
        if !seen.insert(s.as_str()) {
            return Err(Error::invalid(pointer, format!("repeats {s:?}")));
        }
        out.push(s.clone());
    }
    Ok(out)
}

/// An anchor name: `^[A-Za-z_][-A-Za-z0-9._]*$`.
pub(crate) fn anchor(value: &Value, pointer: &str) -> Result<(), Error> {
    let name = string(value, pointer)?;
    let mut chars = name.chars();
    let ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'));
    if ok {
        Ok(())
    } else {
        Err(Error::invalid(
            pointer,
            format!("{name:?} is not a valid anchor name"),
        ))
    }
}
