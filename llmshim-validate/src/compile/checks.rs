//! The value checks of compiling: each keyword value must be well formed. Each returns the failure message only;
//! the caller renders the keyword's pointer for `Error::Invalid` when a check fails, so a schema that passes builds
//! no pointer text.

use hashbrown::HashSet;
use serde_json::{Number, Value};

/// A failed check's message.
pub(crate) type Failure = String;

/// A non-negative integer; an integral float such as `2.0` counts, and huge values saturate.
pub(crate) fn non_negative_integer(value: &Value) -> Result<u64, Failure> {
    let fail = || "must be a non-negative integer".to_owned();
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
pub(crate) fn number(value: &Value) -> Result<Number, Failure> {
    match value {
        Value::Number(n) => Ok(n.clone()),
        _ => Err("must be a number".to_owned()),
    }
}

/// A string.
pub(crate) fn string(value: &Value) -> Result<&str, Failure> {
    value.as_str().ok_or_else(|| "must be a string".to_owned())
}

/// A boolean.
pub(crate) fn boolean(value: &Value) -> Result<bool, Failure> {
    value
        .as_bool()
        .ok_or_else(|| "must be a boolean".to_owned())
}

/// Arrays up to this length are checked for repeats pairwise, without a hash set.
const PAIRWISE: usize = 16;

/// An array of unique strings.
pub(crate) fn unique_strings(value: &Value) -> Result<Box<[Box<str>]>, Failure> {
    let fail = || "must be an array of unique strings".to_owned();
    let Value::Array(items) = value else {
        return Err(fail());
    };
    let mut out: Vec<Box<str>> = Vec::with_capacity(items.len());
    let mut seen = if items.len() > PAIRWISE {
        HashSet::with_capacity(items.len())
    } else {
        HashSet::new()
    };
    for item in items {
        let Value::String(s) = item else {
            return Err(fail());
        };
        let repeated = if items.len() > PAIRWISE {
            !seen.insert(s.as_str())
        } else {
            out.iter().any(|seen| **seen == **s)
        };
        if repeated {
            return Err(format!("repeats {s:?}"));
        }
        out.push(s.as_str().into());
    }
    Ok(out.into_boxed_slice())
}

/// An anchor name: `^[A-Za-z_][-A-Za-z0-9._]*$`.
pub(crate) fn anchor(value: &Value) -> Result<(), Failure> {
    let name = string(value)?;
    let mut chars = name.chars();
    let ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'));
    if ok {
        Ok(())
    } else {
        Err(format!("{name:?} is not a valid anchor name"))
    }
}
