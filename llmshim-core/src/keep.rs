//! Keep-lists: the keywords a target, or strict mode, keeps on a node, some of them only under a condition on
//! their value, with one list per keyword profile ([`Keywords`]).
//!
//! A keep-list is data. The strict keep-list pass and the rule set's keep-list pass strip every key a [`KeepSet`]
//! does not keep (lifting those on the lift list), the pattern rules lift a kept `pattern` that uses a construct the
//! set's [`PatternSubset`] leaves out, and the structural check refuses any key the set would not keep, so what the
//! walk keeps and what the check accepts are one list.

use serde_json::Value;

use crate::json;
use crate::keyword::STRICT_KEEP;
use crate::pattern_subset::PatternSubset;

/// Which keyword sets the keep-lists keep: a part of the options and of the memo key.
///
/// `Current` keeps what each provider enforces today (a kept constraint is enforced where a lifted one is only
/// read); `Conservative` keeps the narrow subsets every model of a provider accepts, for fine-tuned OpenAI models,
/// Azure and OpenAI-compatible servers.
///
/// ```
/// use llmshim_core::keep::Keywords;
///
/// assert_eq!(Keywords::default(), Keywords::Current);
/// assert_eq!("conservative".parse::<Keywords>(), Ok(Keywords::Conservative));
/// assert_eq!(Keywords::Current.to_string(), "current");
/// assert!("narrow".parse::<Keywords>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Keywords {
    /// What the providers enforce today.
    #[default]
    Current,
    /// The narrow subsets every model accepts.
    Conservative,
}

impl Keywords {
    /// Both profiles, `Current` first.
    pub const ALL: [Keywords; 2] = [Keywords::Current, Keywords::Conservative];

    /// The lowercase name used by the command line and batch lines.
    pub const fn as_str(self) -> &'static str {
        match self {
            Keywords::Current => "current",
            Keywords::Conservative => "conservative",
        }
    }
}

impl std::fmt::Display for Keywords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text of a [`Keywords`] that is neither `current` nor `conservative`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown keyword profile {text:?} (expected current or conservative)")]
#[non_exhaustive]
pub struct UnknownKeywords {
    /// The text that named no profile.
    pub text: String,
}

impl std::str::FromStr for Keywords {
    type Err = UnknownKeywords;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Keywords::ALL
            .into_iter()
            .find(|k| k.as_str() == text)
            .ok_or_else(|| UnknownKeywords {
                text: text.to_owned(),
            })
    }
}

/// The condition under which a keep-list keeps a keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Condition {
    /// The value is a number (a numeric bound).
    Number,
    /// The value is a number greater than zero (`multipleOf`).
    Positive,
    /// The value is a non-negative integer no greater than `max` (a length or a count).
    Count {
        /// The largest value kept.
        max: u64,
    },
    /// The value is one of these strings (`format`).
    OneOf(&'static [&'static str]),
    /// The value is a string; the pattern rules then lift it when it uses a construct the subset leaves out, and the
    /// structural check refuses such a pattern.
    Pattern(PatternSubset),
}

impl Condition {
    /// Whether the keep-list pass keeps `value` (a `Pattern` keeps any string; the pattern rules look inside).
    pub fn keeps(self, value: &Value) -> bool {
        match self {
            Condition::Number => value.is_number(),
            Condition::Positive => value.as_f64().is_some_and(|n| n > 0.0),
            Condition::Count { max } => value.as_u64().is_some_and(|n| n <= max),
            Condition::OneOf(values) => value.as_str().is_some_and(|v| values.contains(&v)),
            Condition::Pattern(_) => value.is_string(),
        }
    }

    /// Whether a finished schema may hold `value` (as [`Condition::keeps`], and a pattern must be in its subset).
    pub fn admits(self, value: &Value) -> bool {
        match self {
            Condition::Pattern(subset) => value.as_str().is_some_and(|p| subset.admits(p)),
            other => other.keeps(value),
        }
    }
}

/// A keyword a keep-list keeps under a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Conditional {
    /// The keyword.
    pub key: &'static str,
    /// When it is kept.
    pub when: Condition,
}

impl Conditional {
    /// `key` kept when `when` holds.
    pub const fn new(key: &'static str, when: Condition) -> Self {
        Conditional { key, when }
    }

    /// `key` kept when its value is a number.
    pub const fn number(key: &'static str) -> Self {
        Conditional::new(key, Condition::Number)
    }

    /// `key` kept when its value is a number greater than zero.
    pub const fn positive(key: &'static str) -> Self {
        Conditional::new(key, Condition::Positive)
    }

    /// `key` kept when its value is a non-negative integer.
    pub const fn count(key: &'static str) -> Self {
        Conditional::new(key, Condition::Count { max: u64::MAX })
    }

    /// `key` kept when its value is a non-negative integer no greater than `max`.
    pub const fn count_at_most(key: &'static str, max: u64) -> Self {
        Conditional::new(key, Condition::Count { max })
    }

    /// `key` kept when its value is one of `values`.
    pub const fn one_of(key: &'static str, values: &'static [&'static str]) -> Self {
        Conditional::new(key, Condition::OneOf(values))
    }

    /// `key` kept when its value is a string pattern within `subset`.
    pub const fn pattern(key: &'static str, subset: PatternSubset) -> Self {
        Conditional::new(key, Condition::Pattern(subset))
    }
}

/// One keep-list: the keys kept whatever their value, and the keys kept under a condition.
///
/// ```
/// use llmshim_core::keep::{Conditional, KeepSet};
/// use serde_json::json;
///
/// const SET: KeepSet = KeepSet::names(&["type", "description"])
///     .with_conditional(&[Conditional::count_at_most("minItems", 1), Conditional::one_of("format", &["date"])]);
/// assert!(SET.keeps("type", &json!("array")));
/// assert!(SET.keeps("minItems", &json!(1)));
/// assert!(!SET.keeps("minItems", &json!(2)));
/// assert!(!SET.keeps("format", &json!("uri")));
/// assert!(!SET.keeps("default", &json!(1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct KeepSet {
    /// The keys kept whatever their value.
    pub names: &'static [&'static str],
    /// The keys kept under a condition.
    pub conditional: &'static [Conditional],
}

impl KeepSet {
    /// The strict keep-list every strict provider accepts on every node: `type`, `title`, `description`,
    /// `properties`, `required`, `additionalProperties`, `items`, the combinators, `enum`, `const` and `$schema`.
    pub const STRICT: KeepSet = KeepSet::names(&STRICT_KEEP);

    /// A set that keeps `names` whatever their value, and nothing under a condition.
    pub const fn names(names: &'static [&'static str]) -> Self {
        KeepSet {
            names,
            conditional: &[],
        }
    }

    /// The same set, also keeping the keys of `conditional` under their conditions.
    #[must_use]
    pub const fn with_conditional(mut self, conditional: &'static [Conditional]) -> Self {
        self.conditional = conditional;
        self
    }

    /// The condition `key` is kept under, if it is kept under one.
    pub fn condition(&self, key: &str) -> Option<Condition> {
        self.conditional
            .iter()
            .find(|c| json::same_key(c.key, key))
            .map(|c| c.when)
    }

    /// Whether the keep-list pass keeps `key` with `value`.
    pub fn keeps(&self, key: &str, value: &Value) -> bool {
        self.names.iter().any(|n| json::same_key(n, key))
            || self.condition(key).is_some_and(|c| c.keeps(value))
    }

    /// Whether a finished schema may hold `key` with `value` (the structural check's reading of the set).
    pub fn admits(&self, key: &str, value: &Value) -> bool {
        self.names.iter().any(|n| json::same_key(n, key))
            || self.condition(key).is_some_and(|c| c.admits(value))
    }

    /// Whether `key` is kept at all, whatever the value.
    pub fn mentions(&self, key: &str) -> bool {
        self.names.iter().any(|n| json::same_key(n, key)) || self.condition(key).is_some()
    }

    /// The subset `pattern` is kept under, when the set keeps it under one.
    pub fn pattern(&self) -> Option<PatternSubset> {
        match self.condition("pattern") {
            Some(Condition::Pattern(subset)) => Some(subset),
            _ => None,
        }
    }
}

/// One keep-list per keyword profile.
///
/// ```
/// use llmshim_core::keep::{Conditional, KeepSet, KeepSets, Keywords};
/// use serde_json::json;
///
/// const LISTS: KeepSets = KeepSets::new(
///     KeepSet::STRICT.with_conditional(&[Conditional::count("maxLength")]),
///     KeepSet::STRICT,
/// );
/// assert!(LISTS.get(Keywords::Current).keeps("maxLength", &json!(80)));
/// assert!(!LISTS.get(Keywords::Conservative).keeps("maxLength", &json!(80)));
/// assert_eq!(KeepSets::same(KeepSet::STRICT).get(Keywords::Current), &KeepSet::STRICT);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct KeepSets {
    /// The list under [`Keywords::Current`].
    pub current: KeepSet,
    /// The list under [`Keywords::Conservative`].
    pub conservative: KeepSet,
}

impl KeepSets {
    /// The strict keep-list under both profiles, the default of a strict profile.
    pub const STRICT: KeepSets = KeepSets::same(KeepSet::STRICT);

    /// `current` under [`Keywords::Current`] and `conservative` under [`Keywords::Conservative`].
    pub const fn new(current: KeepSet, conservative: KeepSet) -> Self {
        KeepSets {
            current,
            conservative,
        }
    }

    /// `set` under both profiles.
    pub const fn same(set: KeepSet) -> Self {
        KeepSets::new(set, set)
    }

    /// The list of `keywords`.
    pub const fn get(&self, keywords: Keywords) -> &KeepSet {
        match keywords {
            Keywords::Current => &self.current,
            Keywords::Conservative => &self.conservative,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Condition, Conditional, KeepSet};
    use crate::pattern_subset::PatternSubset;

    #[test]
    fn conditions_read_values_strictly() {
        assert!(Condition::Number.keeps(&json!(-1.5)));
        assert!(!Condition::Number.keeps(&json!("5")));
        assert!(Condition::Positive.keeps(&json!(0.5)));
        assert!(!Condition::Positive.keeps(&json!(0)));
        assert!(!Condition::Positive.keeps(&json!(-2)));
        let count = Condition::Count { max: u64::MAX };
        assert!(count.keeps(&json!(0)));
        assert!(!count.keeps(&json!(-1)));
        assert!(!count.keeps(&json!(1.5)));
        assert!(!count.keeps(&json!(2.0)));
        assert!(!count.keeps(&json!("3")));
        assert!(Condition::Count { max: 1 }.keeps(&json!(1)));
        assert!(!Condition::Count { max: 1 }.keeps(&json!(2)));
        assert!(Condition::OneOf(&["date"]).keeps(&json!("date")));
        assert!(!Condition::OneOf(&["date"]).keeps(&json!(["date"])));
    }

    const SET: KeepSet = KeepSet::names(&["type"])
        .with_conditional(&[Conditional::pattern("pattern", PatternSubset::new())]);

    #[test]
    fn a_pattern_is_kept_as_a_string_and_admitted_within_its_subset() {
        let when = Condition::Pattern(PatternSubset::new().without_lookarounds());
        assert!(when.keeps(&json!("(?=a)")));
        assert!(!when.admits(&json!("(?=a)")));
        assert!(when.admits(&json!("^a$")));
        assert!(!when.keeps(&json!(5)));
        let set = SET;
        assert_eq!(set.pattern(), Some(PatternSubset::new()));
        assert_eq!(KeepSet::STRICT.pattern(), None);
        assert!(set.mentions("pattern") && set.mentions("type") && !set.mentions("format"));
    }
}
