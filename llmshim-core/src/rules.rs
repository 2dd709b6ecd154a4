//! Rule-set data: everything that makes one target differ from another, as plain values.

pub use crate::envelope::Envelope;
pub use crate::keep::{KeepSet, KeepSets, Keywords};

/// How a target expresses null.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Nullable {
    /// Type arrays and `nullable` are left alone.
    #[default]
    Preserve,
    /// `type: [X, "null"]` becomes `type: X` plus `nullable: true`.
    Marker,
    /// As `Marker` without the marker; every `nullable` key is deleted.
    Remove,
}

impl Nullable {
    /// The lowercase name used by the command line and batch lines.
    pub const fn as_str(self) -> &'static str {
        match self {
            Nullable::Preserve => "preserve",
            Nullable::Marker => "marker",
            Nullable::Remove => "remove",
        }
    }
}

impl Nullable {
    /// The three policies, in the order of their declaration.
    pub const ALL: [Nullable; 3] = [Nullable::Preserve, Nullable::Marker, Nullable::Remove];
}

/// The text of a [`Nullable`] that names no policy.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown nullable policy {text:?} (expected preserve, marker or remove)")]
#[non_exhaustive]
pub struct UnknownNullable {
    /// The text that named no policy.
    pub text: String,
}

impl std::str::FromStr for Nullable {
    type Err = UnknownNullable;

    /// A policy by its [`Nullable::as_str`] name, in any ASCII case.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Nullable::ALL
            .into_iter()
            .find(|n| n.as_str().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownNullable {
                text: text.to_owned(),
            })
    }
}

/// The option defaults a rule set gives `Options::for_target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Policy {
    /// The nullability policy.
    pub nullable: Nullable,
    /// Whether `oneOf` becomes `anyOf`.
    pub rewrite_one_of: bool,
    /// Whether lookaround groups are deleted from patterns.
    pub strip_lookarounds: bool,
}

impl Policy {
    /// A policy from its three defaults.
    pub const fn new(nullable: Nullable, rewrite_one_of: bool, strip_lookarounds: bool) -> Self {
        Policy {
            nullable,
            rewrite_one_of,
            strip_lookarounds,
        }
    }
}

/// Boolean subschemas outside strict mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Booleans {
    /// Kept as they are.
    Keep,
    /// Rejected with `boolean_schema`.
    Reject,
}

/// What happens to `$schema` (step W8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SchemaUri {
    /// Removed at every level.
    Remove,
    /// Set to the 2020-12 dialect URI in place.
    Set2020,
}

/// The root rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Root {
    /// Any root.
    Any,
    /// The root must have `type: "object"`.
    Object,
    /// The root must be an object without these keys; root shaping rewrites them where it can.
    Shaped(&'static [&'static str]),
}

/// Empty `properties` handling (steps W26 and W28).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EmptyProperties {
    /// `properties: {}` is appended to every object that lacks it.
    Add,
    /// Nothing is added or removed.
    Never,
    /// An empty `properties` map is removed.
    Remove,
}

/// Default `items` for arrays without one (step W27).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DefaultItems {
    /// Nothing is added.
    None,
    /// `items: {}` outside strict.
    Empty,
    /// `items: {"type": "string"}`.
    String,
}

/// What a recursive `$ref` becomes: a reference whose target lies on a cycle of references.
///
/// ```
/// use llmshim_core::rules::Recursion;
///
/// assert_eq!("unroll".parse::<Recursion>(), Ok(Recursion::unroll(3)));
/// assert_eq!("unroll:5".parse::<Recursion>(), Ok(Recursion::unroll(5)));
/// assert_eq!("keep-refs".parse::<Recursion>(), Ok(Recursion::KEEP_REFS));
/// assert!("unroll:0".parse::<Recursion>().is_err());
/// assert_eq!(Recursion::unroll(2).to_string(), "unroll:2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Recursion {
    /// The schema falls back (`ref_cycle`).
    Fallback,
    /// Each recursive target is emitted once under root `$defs`, and every recursive site becomes a bare `$ref`
    /// to it. With `optional_only`, only a cycle that crosses a property its object does not require is kept;
    /// every other cycle is unrolled to depth 3.
    KeepRefs {
        /// Keep only cycles through an optional property.
        optional_only: bool,
    },
    /// A recursive target is expanded at most `depth` times on one path from the root (0 counts as 1); the next
    /// expansion is cut at the nearest optional property or removable union branch above it.
    Unroll {
        /// Expansions of one target on one path.
        depth: u32,
    },
}

impl Recursion {
    /// `KeepRefs` for every cycle.
    pub const KEEP_REFS: Recursion = Recursion::KeepRefs {
        optional_only: false,
    };

    /// `Unroll` with `depth` (at least 1).
    pub const fn unroll(depth: u32) -> Recursion {
        Recursion::Unroll {
            depth: if depth == 0 { 1 } else { depth },
        }
    }

    /// Whether recursive references are kept as references (in either variant).
    pub const fn keeps_refs(self) -> bool {
        matches!(self, Recursion::KeepRefs { .. })
    }
}

/// The text of a [`Recursion`] that is not one of `fallback`, `keep-refs`, `unroll` or `unroll:<N>` (N ≥ 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown recursion mode {0:?} (expected fallback, keep-refs, unroll or unroll:<N> with N >= 1)"
)]
#[non_exhaustive]
pub struct UnknownRecursion(pub String);

impl std::str::FromStr for Recursion {
    type Err = UnknownRecursion;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "fallback" => Ok(Recursion::Fallback),
            "keep-refs" => Ok(Recursion::KEEP_REFS),
            "keep-refs:optional-only" => Ok(Recursion::KeepRefs {
                optional_only: true,
            }),
            "unroll" => Ok(Recursion::unroll(3)),
            _ => text
                .strip_prefix("unroll:")
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|n| *n >= 1)
                .map(Recursion::unroll)
                .ok_or_else(|| UnknownRecursion(text.to_owned())),
        }
    }
}

impl std::fmt::Display for Recursion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Recursion::Fallback => f.write_str("fallback"),
            Recursion::KeepRefs {
                optional_only: false,
            } => f.write_str("keep-refs"),
            Recursion::KeepRefs {
                optional_only: true,
            } => f.write_str("keep-refs:optional-only"),
            Recursion::Unroll { depth } => write!(f, "unroll:{}", (*depth).max(1)),
        }
    }
}

/// A rule set's recursion modes, without and with strict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RecursionModes {
    /// Without strict.
    pub plain: Recursion,
    /// With strict effective.
    pub strict: Recursion,
}

impl RecursionModes {
    /// The two modes.
    pub const fn new(plain: Recursion, strict: Recursion) -> Self {
        RecursionModes { plain, strict }
    }

    /// The mode for an attempt with or without strict.
    pub const fn for_strict(self, strict: bool) -> Recursion {
        if strict { self.strict } else { self.plain }
    }
}

/// The OpenAI strict limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct OpenAiLimits {
    /// Keys of all `properties` maps.
    pub max_properties: usize,
    /// Object and array nesting levels.
    pub max_nesting: usize,
    /// Sum of all `enum` lengths.
    pub max_enum_values: usize,
    /// UTF-8 bytes of property names, enum and const values.
    pub max_string_bytes: usize,
    /// An enum longer than this is a large enum.
    pub large_enum_values: usize,
    /// A large enum's string values may not exceed this many bytes.
    pub large_enum_bytes: usize,
}

impl OpenAiLimits {
    /// OpenAI's published limits.
    pub const OPENAI: OpenAiLimits = OpenAiLimits {
        max_properties: 5_000,
        max_nesting: 10,
        max_enum_values: 1_000,
        max_string_bytes: 120_000,
        large_enum_values: 250,
        large_enum_bytes: 15_000,
    };

    /// Limits that never bind (every field `usize::MAX`), to lower one by one with the `with_*` methods.
    ///
    /// ```
    /// use llmshim_core::rules::OpenAiLimits;
    ///
    /// const MINE: OpenAiLimits = OpenAiLimits::unlimited().with_max_properties(100).with_max_nesting(5);
    /// assert_eq!(MINE.max_nesting, 5);
    /// assert_eq!(MINE.max_enum_values, usize::MAX);
    /// ```
    pub const fn unlimited() -> Self {
        OpenAiLimits {
            max_properties: usize::MAX,
            max_nesting: usize::MAX,
            max_enum_values: usize::MAX,
            max_string_bytes: usize::MAX,
            large_enum_values: usize::MAX,
            large_enum_bytes: usize::MAX,
        }
    }

    /// Sets the limit on the keys of all `properties` maps.
    #[must_use]
    pub const fn with_max_properties(mut self, n: usize) -> Self {
        self.max_properties = n;
        self
    }

    /// Sets the limit on object and array nesting levels.
    #[must_use]
    pub const fn with_max_nesting(mut self, n: usize) -> Self {
        self.max_nesting = n;
        self
    }

    /// Sets the limit on the sum of all `enum` lengths.
    #[must_use]
    pub const fn with_max_enum_values(mut self, n: usize) -> Self {
        self.max_enum_values = n;
        self
    }

    /// Sets the limit on the UTF-8 bytes of property names, enum and const values.
    #[must_use]
    pub const fn with_max_string_bytes(mut self, n: usize) -> Self {
        self.max_string_bytes = n;
        self
    }

    /// Sets the length above which an enum is large, and the byte limit of a large enum's string values.
    #[must_use]
    pub const fn with_large_enum(mut self, values: usize, bytes: usize) -> Self {
        self.large_enum_values = values;
        self.large_enum_bytes = bytes;
        self
    }
}

/// The Anthropic per-request strict budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct AnthropicBudget {
    /// Strict tools per request.
    pub max_strict_tools: usize,
    /// Optional parameters per request.
    pub max_optional: usize,
    /// Union-typed parameters per request.
    pub max_unions: usize,
}

impl AnthropicBudget {
    /// Anthropic's published budget.
    pub const ANTHROPIC: AnthropicBudget = AnthropicBudget::new(20, 24, 16);

    /// A budget of `max_strict_tools` strict tools, `max_optional` optional parameters and `max_unions`
    /// union-typed parameters per request.
    pub const fn new(max_strict_tools: usize, max_optional: usize, max_unions: usize) -> Self {
        AnthropicBudget {
            max_strict_tools,
            max_optional,
            max_unions,
        }
    }
}

/// The strict profile of a rule set: present means strict requests are enforced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct StrictProfile {
    /// Per-schema limits, if the target has them.
    pub openai_limits: Option<OpenAiLimits>,
    /// Per-request budget, if the target has one.
    pub anthropic_budget: Option<AnthropicBudget>,
    /// The strict keep-list per keyword profile: every other key is stripped under strict.
    pub keep: KeepSets,
}

impl StrictProfile {
    /// A profile with the given limits and the strict keep-list [`KeepSets::STRICT`] under both keyword profiles.
    pub const fn new(
        openai_limits: Option<OpenAiLimits>,
        anthropic_budget: Option<AnthropicBudget>,
    ) -> Self {
        StrictProfile {
            openai_limits,
            anthropic_budget,
            keep: KeepSets::STRICT,
        }
    }

    /// Sets the strict keep-list per keyword profile.
    #[must_use]
    pub const fn with_keep(mut self, keep: KeepSets) -> Self {
        self.keep = keep;
        self
    }
}

/// Everything that selects a target's transport rules.
///
/// Built-in rule sets live in `llmshim-targets`; a custom target builds its own with [`RuleSet::new`] and the
/// `with_*` methods, all `const`, so it can be a `static`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RuleSet {
    /// `Options::for_target` defaults.
    pub defaults: Policy,
    /// Boolean subschemas outside strict.
    pub booleans: Booleans,
    /// `$schema` handling.
    pub schema_uri: SchemaUri,
    /// The root rule.
    pub root: Root,
    /// Tuple flattening outside strict.
    pub flatten_tuples: bool,
    /// `items` implies `type: "array"` during type inference.
    pub infer_array_from_items: bool,
    /// The keep-list per keyword profile: every other key is stripped.
    pub keep: Option<KeepSets>,
    /// Anthropic structured-output bounds.
    pub output_bounds: bool,
    /// The OpenAI regex dialect check.
    pub openai_patterns: bool,
    /// Google-family value rules.
    pub google_values: bool,
    /// Type-array split outside strict.
    pub split_type_arrays: bool,
    /// Empty `properties` handling.
    pub empty_properties: EmptyProperties,
    /// Default `items`.
    pub default_items: DefaultItems,
    /// Nullable-`anyOf` collapse.
    pub collapse_nullable_any_of: bool,
    /// CCA combinator merge.
    pub merge_combinators: bool,
    /// `required` names must exist in `properties`.
    pub filter_required: bool,
    /// `anyOf` must stand alone.
    pub isolate_any_of: bool,
    /// Every node needs a `type` (or `anyOf`).
    pub require_type: bool,
    /// `type: "null"` is rejected.
    pub forbid_null_type: bool,
    /// Keywords that may not appear in the output.
    pub forbidden: &'static [&'static str],
    /// The strict profile; `None` means strict requests are ignored.
    pub strict: Option<StrictProfile>,
    /// The native tool shape.
    pub envelope: Envelope,
    /// What recursive references become, without and with strict.
    pub recursion: RecursionModes,
}

impl RuleSet {
    /// The most permissive rule set: keep everything, strict without limits, chat envelope; recursive schemas fall
    /// back (a custom target opts into kept references or unrolling with [`RuleSet::with_recursion`]).
    pub const fn new() -> Self {
        RuleSet {
            defaults: Policy::new(Nullable::Preserve, false, false),
            booleans: Booleans::Keep,
            schema_uri: SchemaUri::Remove,
            root: Root::Any,
            flatten_tuples: false,
            infer_array_from_items: false,
            keep: None,
            output_bounds: false,
            openai_patterns: false,
            google_values: false,
            split_type_arrays: false,
            empty_properties: EmptyProperties::Never,
            default_items: DefaultItems::None,
            collapse_nullable_any_of: false,
            merge_combinators: false,
            filter_required: false,
            isolate_any_of: false,
            require_type: false,
            forbid_null_type: false,
            forbidden: &[],
            strict: Some(StrictProfile::new(None, None)),
            envelope: Envelope::CHAT,
            recursion: RecursionModes::new(Recursion::Fallback, Recursion::Fallback),
        }
    }

    /// Sets the option defaults.
    #[must_use]
    pub const fn with_defaults(mut self, defaults: Policy) -> Self {
        self.defaults = defaults;
        self
    }

    /// Sets boolean-subschema handling.
    #[must_use]
    pub const fn with_booleans(mut self, booleans: Booleans) -> Self {
        self.booleans = booleans;
        self
    }

    /// Sets `$schema` handling.
    #[must_use]
    pub const fn with_schema_uri(mut self, schema_uri: SchemaUri) -> Self {
        self.schema_uri = schema_uri;
        self
    }

    /// Sets the root rule.
    #[must_use]
    pub const fn with_root(mut self, root: Root) -> Self {
        self.root = root;
        self
    }

    /// Sets tuple flattening outside strict.
    #[must_use]
    pub const fn with_flatten_tuples(mut self, on: bool) -> Self {
        self.flatten_tuples = on;
        self
    }

    /// Sets array inference from `items`.
    #[must_use]
    pub const fn with_infer_array_from_items(mut self, on: bool) -> Self {
        self.infer_array_from_items = on;
        self
    }

    /// Sets the keep-list per keyword profile.
    #[must_use]
    pub const fn with_keep(mut self, keep: Option<KeepSets>) -> Self {
        self.keep = keep;
        self
    }

    /// Sets structured-output bounds lifting.
    #[must_use]
    pub const fn with_output_bounds(mut self, on: bool) -> Self {
        self.output_bounds = on;
        self
    }

    /// Sets the OpenAI regex dialect check.
    #[must_use]
    pub const fn with_openai_patterns(mut self, on: bool) -> Self {
        self.openai_patterns = on;
        self
    }

    /// Sets the Google value rules.
    #[must_use]
    pub const fn with_google_values(mut self, on: bool) -> Self {
        self.google_values = on;
        self
    }

    /// Sets the type-array split outside strict.
    #[must_use]
    pub const fn with_split_type_arrays(mut self, on: bool) -> Self {
        self.split_type_arrays = on;
        self
    }

    /// Sets empty-`properties` handling.
    #[must_use]
    pub const fn with_empty_properties(mut self, mode: EmptyProperties) -> Self {
        self.empty_properties = mode;
        self
    }

    /// Sets default `items`.
    #[must_use]
    pub const fn with_default_items(mut self, mode: DefaultItems) -> Self {
        self.default_items = mode;
        self
    }

    /// Sets the nullable-`anyOf` collapse.
    #[must_use]
    pub const fn with_collapse_nullable_any_of(mut self, on: bool) -> Self {
        self.collapse_nullable_any_of = on;
        self
    }

    /// Sets the combinator merge.
    #[must_use]
    pub const fn with_merge_combinators(mut self, on: bool) -> Self {
        self.merge_combinators = on;
        self
    }

    /// Sets the `required` filter.
    #[must_use]
    pub const fn with_filter_required(mut self, on: bool) -> Self {
        self.filter_required = on;
        self
    }

    /// Sets `anyOf` isolation.
    #[must_use]
    pub const fn with_isolate_any_of(mut self, on: bool) -> Self {
        self.isolate_any_of = on;
        self
    }

    /// Sets whether every node needs a `type` (or `anyOf`).
    #[must_use]
    pub const fn with_require_type(mut self, on: bool) -> Self {
        self.require_type = on;
        self
    }

    /// Sets whether `type: "null"` is rejected.
    #[must_use]
    pub const fn with_forbid_null_type(mut self, on: bool) -> Self {
        self.forbid_null_type = on;
        self
    }

    /// Sets the keywords that may not appear in the output.
    #[must_use]
    pub const fn with_forbidden(mut self, forbidden: &'static [&'static str]) -> Self {
        self.forbidden = forbidden;
        self
    }

    /// Sets the strict profile.
    #[must_use]
    pub const fn with_strict(mut self, strict: Option<StrictProfile>) -> Self {
        self.strict = strict;
        self
    }

    /// Sets the tool envelope.
    #[must_use]
    pub const fn with_envelope(mut self, envelope: Envelope) -> Self {
        self.envelope = envelope;
        self
    }

    /// Sets what recursive references become without strict (`plain`) and with it (`strict`).
    #[must_use]
    pub const fn with_recursion(mut self, plain: Recursion, strict: Recursion) -> Self {
        self.recursion = RecursionModes::new(plain, strict);
        self
    }
}

impl RuleSet {
    /// The strict keep-list of this rule set under `keywords`: its strict profile's, or [`KeepSet::STRICT`] for a
    /// rule set without one.
    pub const fn strict_keep(&self, keywords: Keywords) -> &KeepSet {
        match &self.strict {
            Some(profile) => profile.keep.get(keywords),
            None => &KeepSet::STRICT,
        }
    }

    /// The rule set's own keep-list under `keywords`, if it has one.
    pub const fn keep_set(&self, keywords: Keywords) -> Option<&KeepSet> {
        match &self.keep {
            Some(sets) => Some(sets.get(keywords)),
            None => None,
        }
    }
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::new()
    }
}
