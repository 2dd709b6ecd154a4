//! The validator's options: draft override, format assertion, error cap, and the regex, instance-depth and work
//! bounds.

use llmshim_resolve::Draft;

/// How [`compile_with`](crate::compile_with) builds a [`Validator`](crate::Validator).
///
/// Equal options compile a schema to validators that give equal verdicts and errors.
///
/// ```
/// use llmshim_validate::Options;
/// use llmshim_resolve::Draft;
///
/// let options = Options::default()
///     .with_draft(Draft::Draft7)
///     .with_assert_formats(false)
///     .with_max_errors(3);
/// assert_eq!(options.draft, Some(Draft::Draft7));
/// assert!(!options.assert_formats);
/// assert_eq!(options.max_errors, 3);
/// assert_eq!(options.backtrack_limit, 1_000_000);
/// assert_eq!(options.max_instance_depth, 128);
/// assert_eq!(options.max_evaluations, 10_000_000);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Options {
    /// The draft of the root document; `None` reads its `$schema` (2020-12 when absent or unknown).
    ///
    /// Other documents and embedded resources that name a known draft in `$schema` keep their own; those that
    /// name none are read with the draft of the schema that refers to them.
    pub draft: Option<Draft>,
    /// Whether the known formats are asserted on strings (default `true`).
    pub assert_formats: bool,
    /// The most errors [`errors`](crate::errors) and [`Validator::validate`](crate::Validator::validate) return
    /// (default 8).
    pub max_errors: usize,
    /// The most backtracking steps one regular-expression match may take (default 1,000,000).
    pub backtrack_limit: usize,
    /// The deepest instance nesting that is validated at all (default 128); deeper instances are invalid with
    /// the error `instance nesting exceeds <n> levels`.
    ///
    /// Independently of this option, evaluation stops with an error after 512 nested subschema applications
    /// (a reference cycle that never moves into the instance, for example), so raising it far above the default
    /// does not let validation overflow the stack.
    pub max_instance_depth: usize,
    /// The most subschema applications one validation may make (default 10,000,000).
    ///
    /// Every time a subschema that applies other subschemas is entered counts once (a subschema with `unevaluated*`
    /// keywords, which the boolean walk hands to the full walk, counts twice). A schema that reaches the
    /// same subschema along exponentially many paths (`anyOf` of two references to a definition that is itself
    /// such an `anyOf`, forty levels deep) would otherwise run for days; with the budget, validation stops and
    /// the instance is invalid with the single error `validation exceeded its work budget of <n> subschema
    /// applications`. Ordinary schemas and instances stay far below it: each subschema is applied about once per
    /// instance value it reaches.
    pub max_evaluations: u64,
}

impl Options {
    /// The default `max_errors`.
    pub const DEFAULT_MAX_ERRORS: usize = 8;
    /// The default `backtrack_limit`.
    pub const DEFAULT_BACKTRACK_LIMIT: usize = 1_000_000;
    /// The default `max_instance_depth`.
    pub const DEFAULT_MAX_INSTANCE_DEPTH: usize = 128;
    /// The default `max_evaluations`.
    pub const DEFAULT_MAX_EVALUATIONS: u64 = 10_000_000;

    /// Sets the draft, overriding `$schema`; draft-03 is treated as draft-04.
    #[must_use]
    pub fn with_draft(mut self, draft: Draft) -> Self {
        self.draft = Some(draft);
        self
    }

    /// Sets whether formats are asserted.
    #[must_use]
    pub fn with_assert_formats(mut self, assert_formats: bool) -> Self {
        self.assert_formats = assert_formats;
        self
    }

    /// Sets the error cap; a cap of 0 is treated as 1, so an invalid instance always has an error.
    #[must_use]
    pub fn with_max_errors(mut self, max_errors: usize) -> Self {
        self.max_errors = max_errors;
        self
    }

    /// Sets the backtracking limit of each regular-expression match.
    #[must_use]
    pub fn with_backtrack_limit(mut self, backtrack_limit: usize) -> Self {
        self.backtrack_limit = backtrack_limit;
        self
    }

    /// Sets the deepest instance nesting that is validated.
    #[must_use]
    pub fn with_max_instance_depth(mut self, max_instance_depth: usize) -> Self {
        self.max_instance_depth = max_instance_depth;
        self
    }

    /// Sets the most subschema applications one validation may make.
    #[must_use]
    pub fn with_max_evaluations(mut self, max_evaluations: u64) -> Self {
        self.max_evaluations = max_evaluations;
        self
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            draft: None,
            assert_formats: true,
            max_errors: Options::DEFAULT_MAX_ERRORS,
            backtrack_limit: Options::DEFAULT_BACKTRACK_LIMIT,
            max_instance_depth: Options::DEFAULT_MAX_INSTANCE_DEPTH,
            max_evaluations: Options::DEFAULT_MAX_EVALUATIONS,
        }
    }
}
