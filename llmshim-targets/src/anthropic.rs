//! Anthropic Messages: shaped root without `not`, structured-output bounds, strict request budget.

use llmshim_core::envelope::{Layout, StrictKey, ToolShape};
use llmshim_core::keep::{Conditional, KeepSet, KeepSets};
use llmshim_core::pattern_subset::PatternSubset;
use llmshim_core::rules::{
    AnthropicBudget, Booleans, DefaultItems, EmptyProperties, Envelope, Policy, Root, SchemaUri,
    StrictProfile,
};
use llmshim_core::{Nullable, Recursion, RuleSet};

use crate::Builtin;

/// Anthropic Messages.
pub static ANTHROPIC: Builtin = Builtin::new("anthropic", &RULES);

/// Anthropic tools, `{"name", "description", "input_schema", "strict", "cache_control"}`: `strict` when requested,
/// and the prompt-cache marker carried over from the source tool.
pub(crate) const ENVELOPE: Envelope = Envelope::new(Layout::Tool(ToolShape::new("input_schema")))
    .with_strict(StrictKey::WhenRequested)
    .with_carries(&["cache_control"]);

/// The keys an Anthropic root may not keep (a root `not` and `if`/`then`/`else` stay).
const ROOT: &[&str] = &["anyOf", "oneOf", "allOf", "enum"];

/// The formats Anthropic strict tools and JSON outputs accept.
pub(crate) const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// What Anthropic's strict pattern engine leaves out: lookarounds, backreferences, word boundaries, Unicode property
/// escapes and repetitions with a bound over 1000.
pub(crate) const STRICT_PATTERNS: PatternSubset = PatternSubset::new()
    .without_lookarounds()
    .without_backreferences()
    .without_boundaries()
    .without_property_escapes()
    .with_max_repeat(1000);

/// The strict keep-list under the current keyword profile, shared by strict tools and JSON outputs: a pattern in the
/// engine's subset, a listed format, and `minItems` of 0 or 1; numeric bounds, lengths and other item bounds stay
/// lifted.
pub(crate) const STRICT_CURRENT: KeepSet = KeepSet::STRICT.with_conditional(&[
    Conditional::pattern("pattern", STRICT_PATTERNS),
    Conditional::one_of("format", STRICT_FORMATS),
    Conditional::count_at_most("minItems", 1),
]);

/// The Anthropic rule set.
pub(crate) const RULES: RuleSet = RuleSet::new()
    .with_defaults(Policy::new(Nullable::Preserve, false, false))
    .with_booleans(Booleans::Keep)
    .with_schema_uri(SchemaUri::Remove)
    .with_root(Root::Shaped(ROOT))
    .with_output_bounds(true)
    .with_default_items(DefaultItems::Empty)
    .with_empty_properties(EmptyProperties::Add)
    .with_strict(Some(
        StrictProfile::new(None, Some(AnthropicBudget::ANTHROPIC))
            .with_keep(KeepSets::new(STRICT_CURRENT, KeepSet::STRICT)),
    ))
    .with_recursion(Recursion::KEEP_REFS, Recursion::unroll(3))
    .with_envelope(ENVELOPE);
