//! `Options`: everything that selects one normalization, and the memo key.

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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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
