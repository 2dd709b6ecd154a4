//! `Options`: everything that selects one normalization, and the memo key.

use std::hash::{Hash, Hasher};

use llmshim_core::{Budget, Keywords, Nullable, Recursion};

use crate::schema::Target;

/// The options of one normalization; every field is part of equality, hashing and the memo key.
///
/// ```
/// use llmshim::schema::{Budget, Nullable, Options, Target};
///
/// let options = Options::for_target(Target::Google)
///     .with_strict(true)
///     .with_budget(Budget::default().with_max_depth(64));
/// assert_eq!(options.nullable, Nullable::Marker);
/// assert!(options.rewrite_one_of);
/// assert_eq!(options.budget.max_depth, 64);
///
/// // Fine-tuned OpenAI models, Azure and OpenAI-compatible servers take only the narrow keyword subsets.
/// use llmshim::schema::Keywords;
/// let narrow = Options::for_target(Target::OpenAiChat).with_keywords(Keywords::Conservative);
/// assert_eq!(Options::for_target(Target::OpenAiChat).keywords, Keywords::Current);
/// assert_ne!(narrow, Options::for_target(Target::OpenAiChat));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The wire dialect.
    pub target: Target,
    /// Request strict enforcement.
    pub strict: bool,
    /// The nullability policy.
    pub nullable: Nullable,
    /// Turn `oneOf` into `anyOf`.
    pub rewrite_one_of: bool,
    /// Delete lookaround groups from `pattern`.
    pub strip_lookarounds: bool,
    /// Do nothing.
    pub bypass: bool,
    /// Depth, node and literal-byte limits.
    pub budget: Budget,
    /// Record every change in the report.
    pub diagnostics: bool,
    /// The schema is a structured-output schema.
    pub structured_output: bool,
    /// Which keyword sets the keep-lists keep: what the provider enforces today (`Current`, the default) or the
    /// narrow subsets every model accepts (`Conservative`).
    pub keywords: Keywords,
    /// What recursive references become; `None` means the rule set's mode (its strict mode when strict is
    /// effective).
    pub recursion: Option<Recursion>,
}

impl Options {
    /// The options for `target`, with the defaults of its rule set.
    pub fn for_target(target: Target) -> Options {
        let policy = target.rules().rules().defaults;
        Options {
            target,
            strict: false,
            nullable: policy.nullable,
            rewrite_one_of: policy.rewrite_one_of,
            strip_lookarounds: policy.strip_lookarounds,
            bypass: false,
            budget: Budget::default(),
            diagnostics: false,
            structured_output: false,
            keywords: Keywords::default(),
            recursion: None,
        }
    }

    /// Requests strict enforcement.
    #[must_use]
    pub fn with_strict(mut self, on: bool) -> Self {
        self.strict = on;
        self
    }

    /// Sets the nullability policy.
    #[must_use]
    pub fn with_nullable(mut self, nullable: Nullable) -> Self {
        self.nullable = nullable;
        self
    }

    /// Sets the `oneOf` rewrite.
    #[must_use]
    pub fn with_rewrite_one_of(mut self, on: bool) -> Self {
        self.rewrite_one_of = on;
        self
    }

    /// Sets lookaround removal.
    #[must_use]
    pub fn with_strip_lookarounds(mut self, on: bool) -> Self {
        self.strip_lookarounds = on;
        self
    }

    /// Skips normalization altogether.
    #[must_use]
    pub fn with_bypass(mut self, on: bool) -> Self {
        self.bypass = on;
        self
    }

    /// Sets the budgets.
    #[must_use]
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// Records every change in the report.
    #[must_use]
    pub fn with_diagnostics(mut self, on: bool) -> Self {
        self.diagnostics = on;
        self
    }

    /// Marks the schema as a structured-output schema.
    #[must_use]
    pub fn with_structured_output(mut self, on: bool) -> Self {
        self.structured_output = on;
        self
    }

    /// Sets the keyword profile.
    #[must_use]
    pub fn with_keywords(mut self, keywords: Keywords) -> Self {
        self.keywords = keywords;
        self
    }

    /// Sets what recursive references become, overriding the rule set's modes (`None` restores them).
    #[must_use]
    pub fn with_recursion(mut self, recursion: impl Into<Option<Recursion>>) -> Self {
        self.recursion = recursion.into();
        self
    }

    /// The recursion mode of an attempt with strict effective or not: the option when set, else the rule set's.
    pub fn recursion_for(&self, strict: bool) -> Recursion {
        self.recursion
            .unwrap_or_else(|| self.target.rules().rules().recursion.for_strict(strict))
    }
}

impl Hash for Options {
    /// Every field, as the derived hash would take it, but the small ones packed into one word: the memo hashes
    /// the options of every lookup, and one word costs a fraction of a dozen separate writes. A variant added to
    /// one of the enums of `llmshim-core` is hashed as itself besides.
    fn hash<H: Hasher>(&self, state: &mut H) {
        // A built-in target by its place in the table (`Target::BUILTIN`), a custom one by its own hash.
        let target: u64 = match self.target {
            Target::Custom(custom) => {
                custom.hash(state);
                255
            }
            builtin => Target::BUILTIN
                .iter()
                .position(|t| *t == builtin)
                .and_then(|i| u64::try_from(i).ok())
                .map_or(254, |i| i.min(253)),
        };
        let nullable: u64 = match self.nullable {
            Nullable::Preserve => 0,
            Nullable::Marker => 1,
            Nullable::Remove => 2,
            other => {
                other.hash(state);
                3
            }
        };
        let keywords: u64 = match self.keywords {
            Keywords::Current => 0,
            Keywords::Conservative => 1,
            other => {
                other.hash(state);
                2
            }
        };
        let (recursion, depth): (u64, u32) = match self.recursion {
            None => (0, 0),
            Some(Recursion::Fallback) => (1, 0),
            Some(Recursion::KeepRefs { optional_only }) => (2 | u64::from(optional_only) << 3, 0),
            Some(Recursion::Unroll { depth }) => (3, depth),
            Some(other) => {
                other.hash(state);
                (4, 0)
            }
        };
        let flags = u64::from(self.strict)
            | u64::from(self.rewrite_one_of) << 1
            | u64::from(self.strip_lookarounds) << 2
            | u64::from(self.bypass) << 3
            | u64::from(self.diagnostics) << 4
            | u64::from(self.structured_output) << 5;
        // Target in bits 0-7, nullable 8-10, keywords 11-12, flags 13-18, the recursion mode 19-22, an unrolling
        // depth 32-63.
        let word = target
            | nullable << 8
            | keywords << 11
            | flags << 13
            | recursion << 19
            | u64::from(depth) << 32;
        state.write_u64(word);
        state.write_usize(self.budget.max_depth);
        state.write_usize(self.budget.max_nodes);
        state.write_usize(self.budget.max_literal_bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// Options that differ from the chat defaults in one field each (and every recursion mode), and the defaults.
    fn variants() -> Vec<Options> {
        let base = Options::for_target(Target::OpenAiChat);
        let mut out: Vec<Options> = Target::BUILTIN
            .iter()
            .map(|t| Options {
                target: *t,
                ..base.clone()
            })
            .collect();
        out.extend(Nullable::ALL.iter().map(|n| base.clone().with_nullable(*n)));
        out.extend(Keywords::ALL.iter().map(|k| base.clone().with_keywords(*k)));
        out.extend([
            base.clone().with_strict(true),
            base.clone().with_rewrite_one_of(!base.rewrite_one_of),
            base.clone().with_strip_lookarounds(!base.strip_lookarounds),
            base.clone().with_bypass(true),
            base.clone().with_diagnostics(true),
            base.clone().with_structured_output(true),
            base.clone()
                .with_budget(Budget::default().with_max_depth(7)),
            base.clone()
                .with_budget(Budget::default().with_max_nodes(7)),
            base.clone()
                .with_budget(Budget::default().with_max_literal_bytes(7)),
            base.clone().with_recursion(Recursion::Fallback),
            base.clone().with_recursion(Recursion::KEEP_REFS),
            base.clone().with_recursion(Recursion::KeepRefs {
                optional_only: true,
            }),
            base.clone().with_recursion(Recursion::unroll(3)),
            base.clone().with_recursion(Recursion::unroll(u32::MAX)),
        ]);
        out
    }

    #[test]
    fn equal_options_hash_alike_and_each_field_changes_the_hash() {
        let state = std::hash::RandomState::new();
        let all = variants();
        for (i, a) in all.iter().enumerate() {
            assert_eq!(state.hash_one(a), state.hash_one(a.clone()));
            for b in all.iter().skip(i + 1) {
                if a != b {
                    assert_ne!(
                        state.hash_one(a),
                        state.hash_one(b),
                        "{a:?} and {b:?} hash alike"
                    );
                }
            }
        }
    }
}
