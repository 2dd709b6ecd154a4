//! Assertion keywords: they look at one instance value and never apply a subschema.

use std::cmp::Ordering;
use std::hash::Hasher;

use hashbrown::HashMap;
use serde_json::Value;

use super::Run;
use super::path::Path;
use crate::node::{Keyword, TypeSet};
use crate::number;
use crate::regex::BACKTRACK_MESSAGE;

/// The instance type named in `type` messages; numbers with a zero fraction are `integer`.
pub(crate) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if number::is_integer(n) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[inline]
pub(super) fn type_matches(types: TypeSet, value: &Value) -> bool {
    let flags = types.0;
    match value {
        Value::Null => flags & TypeSet::NULL != 0,
        Value::Bool(_) => flags & TypeSet::BOOLEAN != 0,
        Value::String(_) => flags & TypeSet::STRING != 0,
        Value::Array(_) => flags & TypeSet::ARRAY != 0,
        Value::Object(_) => flags & TypeSet::OBJECT != 0,
        Value::Number(n) => {
            flags & TypeSet::NUMBER != 0 || (flags & TypeSet::INTEGER != 0 && number::is_integer(n))
        }
    }
}

fn has_duplicates(items: &[Value]) -> bool {
    if items.len() <= 16 {
        return items
            .iter()
            .enumerate()
            .any(|(i, a)| items.iter().skip(i + 1).any(|b| number::equal(a, b)));
    }
    let mut buckets: HashMap<u64, Vec<&Value>> = HashMap::with_capacity(items.len());
    for item in items {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        number::hash_value(item, &mut hasher);
        let bucket = buckets.entry(hasher.finish()).or_default();
        if bucket.iter().any(|seen| number::equal(seen, item)) {
            return true;
        }
        bucket.push(item);
    }
    false
}

/// Whether `text` has fewer (`Less`) or more (`Greater`) code points than `limit`, or exactly as many.
fn length_against(text: &str, limit: u64) -> Ordering {
    let bytes = text.len() as u64;
    if bytes < limit {
        // A code point takes at least one byte.
        return Ordering::Less;
    }
    if bytes / 4 > limit {
        // A code point takes at most four bytes.
        return Ordering::Greater;
    }
    (text.chars().count() as u64).cmp(&limit)
}

/// The verdict of one assertion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    Pass,
    Fail,
    /// A pattern match ran out of backtracking steps.
    Backtrack,
}

fn verdict(failed: bool) -> Verdict {
    if failed { Verdict::Fail } else { Verdict::Pass }
}

/// Checks `instance` against an assertion keyword without building any message.
pub(super) fn check(keyword: &Keyword, instance: &Value) -> Verdict {
    match (keyword, instance) {
        (Keyword::Type { types, .. }, _) => verdict(!type_matches(*types, instance)),
        (Keyword::Enum(values), _) => verdict(!values.iter().any(|v| number::equal(v, instance))),
        (Keyword::Const(value), _) => verdict(!number::equal(value, instance)),
        (Keyword::Minimum(bound), Value::Number(n)) => {
            verdict(number::compare(n, &bound.value) == Some(Ordering::Less))
        }
        (Keyword::Maximum(bound), Value::Number(n)) => {
            verdict(number::compare(n, &bound.value) == Some(Ordering::Greater))
        }
        (Keyword::ExclusiveMinimum(bound), Value::Number(n)) => {
            verdict(number::compare(n, &bound.value) != Some(Ordering::Greater))
        }
        (Keyword::ExclusiveMaximum(bound), Value::Number(n)) => {
            verdict(number::compare(n, &bound.value) != Some(Ordering::Less))
        }
        (Keyword::MultipleOf(divisor), Value::Number(n)) => {
            verdict(!number::is_multiple_of(n, divisor))
        }
        (Keyword::MinLength(limit), Value::String(s)) => {
            verdict(length_against(s, *limit) == Ordering::Less)
        }
        (Keyword::MaxLength(limit), Value::String(s)) => {
            verdict(length_against(s, *limit) == Ordering::Greater)
        }
        (Keyword::Pattern(pattern), Value::String(s)) => match pattern.is_match(s) {
            Ok(matched) => verdict(!matched),
            Err(_) => Verdict::Backtrack,
        },
        (Keyword::Format(format), Value::String(s)) => verdict(!format.is_valid(s)),
        (Keyword::Content { base64, json }, Value::String(s)) => {
            verdict(!crate::content::is_valid(s, *base64, *json))
        }
        (Keyword::MinItems(limit), Value::Array(items)) => verdict((items.len() as u64) < *limit),
        (Keyword::MaxItems(limit), Value::Array(items)) => verdict((items.len() as u64) > *limit),
        (Keyword::UniqueItems, Value::Array(items)) => verdict(has_duplicates(items)),
        (Keyword::MinProperties(limit), Value::Object(map)) => verdict((map.len() as u64) < *limit),
        (Keyword::MaxProperties(limit), Value::Object(map)) => verdict((map.len() as u64) > *limit),
        _ => Verdict::Pass,
    }
}

/// The schema keyword and message of a failed assertion.
fn failure(keyword: &Keyword, instance: &Value, verdict: Verdict) -> (&'static str, String) {
    match keyword {
        Keyword::Type { names, .. } => (
            "type",
            format!(
                "expected {}, got {}",
                names.iter().collect::<Vec<_>>().join(" or "),
                type_name(instance)
            ),
        ),
        Keyword::Enum(_) => ("enum", "value is not one of the allowed values".to_owned()),
        Keyword::Const(_) => ("const", "value does not equal the constant".to_owned()),
        Keyword::Minimum(bound) => (bound.key.as_str(), format!("must be >= {}", bound.value)),
        Keyword::Maximum(bound) => (bound.key.as_str(), format!("must be <= {}", bound.value)),
        Keyword::ExclusiveMinimum(bound) => {
            (bound.key.as_str(), format!("must be > {}", bound.value))
        }
        Keyword::ExclusiveMaximum(bound) => {
            (bound.key.as_str(), format!("must be < {}", bound.value))
        }
        Keyword::MultipleOf(divisor) => ("multipleOf", format!("must be a multiple of {divisor}")),
        Keyword::MinLength(limit) => (
            "minLength",
            format!("must be at least {limit} characters long"),
        ),
        Keyword::MaxLength(limit) => (
            "maxLength",
            format!("must be at most {limit} characters long"),
        ),
        Keyword::Pattern(_) if verdict == Verdict::Backtrack => {
            ("pattern", BACKTRACK_MESSAGE.to_owned())
        }
        Keyword::Pattern(pattern) => (
            "pattern",
            format!("does not match pattern {}", pattern.source()),
        ),
        Keyword::Format(format) => ("format", format!("is not a valid {}", format.name())),
        Keyword::Content { json: true, .. } => (
            "contentMediaType",
            "is not a valid application/json document".to_owned(),
        ),
        Keyword::Content { .. } => ("contentEncoding", "is not a valid base64 string".to_owned()),
        Keyword::MinItems(limit) => ("minItems", format!("must have at least {limit} items")),
        Keyword::MaxItems(limit) => ("maxItems", format!("must have at most {limit} items")),
        Keyword::UniqueItems => ("uniqueItems", "items must be unique".to_owned()),
        Keyword::MinProperties(limit) => (
            "minProperties",
            format!("must have at least {limit} properties"),
        ),
        Keyword::MaxProperties(limit) => (
            "maxProperties",
            format!("must have at most {limit} properties"),
        ),
        _ => ("", "is invalid".to_owned()),
    }
}

impl Run<'_> {
    /// Evaluates one assertion keyword.
    pub(super) fn assertion(
        &mut self,
        keyword: &Keyword,
        instance: &Value,
        ip: Option<&Path<'_>>,
        sp: Option<&Path<'_>>,
    ) -> bool {
        if let (Keyword::Required { names, .. }, Value::Object(map)) = (keyword, instance) {
            let mut valid = true;
            for name in names {
                if !super::objects::has_key(map, name) {
                    valid = false;
                    self.error(ip, sp, Some("required"), || {
                        format!("missing required property {}", super::objects::quote(name))
                    });
                    if self.fail_fast() {
                        break;
                    }
                }
            }
            return valid;
        }
        let verdict = check(keyword, instance);
        if verdict == Verdict::Pass {
            return true;
        }
        if self.records() {
            let (key, message) = failure(keyword, instance, verdict);
            self.error(ip, sp, Some(key), || message);
        }
        false
    }
}
