//! OpenAI Chat Completions: chat envelope, shaped root, OpenAI regex dialect, strict with limits.

use llmshim_core::keep::{Conditional, KeepSet, KeepSets};
use llmshim_core::pattern_subset::PatternSubset;
use llmshim_core::rules::{
    Booleans, DefaultItems, EmptyProperties, Envelope, OpenAiLimits, Policy, Root, SchemaUri,
    StrictProfile,
};
use llmshim_core::{Nullable, Recursion, RuleSet};

use crate::Builtin;

/// OpenAI Chat Completions.
pub static OPENAI_CHAT: Builtin = Builtin::new("openai-chat", &RULES);

/// The keys a Chat or Responses root may not keep.
pub(crate) const OPENAI_ROOT: &[&str] = &["anyOf", "oneOf", "allOf", "enum", "not"];

/// The formats OpenAI strict mode accepts.
pub(crate) const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// What OpenAI's strict pattern engine leaves out: lookarounds, backreferences and Unicode property escapes.
pub(crate) const STRICT_PATTERNS: PatternSubset = PatternSubset::new()
    .without_lookarounds()
    .without_backreferences()
    .without_property_escapes();

/// The strict keep-list under the current keyword profile: what OpenAI Structured Outputs enforces beyond the strict
/// keep-list every model accepts (fine-tuned models, Azure and compatible servers take only that one).
pub(crate) const STRICT_CURRENT: KeepSet = KeepSet::STRICT.with_conditional(&[
    Conditional::pattern("pattern", STRICT_PATTERNS),
    Conditional::one_of("format", STRICT_FORMATS),
    Conditional::number("minimum"),
    Conditional::number("maximum"),
    Conditional::number("exclusiveMinimum"),
    Conditional::number("exclusiveMaximum"),
    Conditional::positive("multipleOf"),
    Conditional::count("minItems"),
    Conditional::count("maxItems"),
    Conditional::count("minLength"),
    Conditional::count("maxLength"),
]);

/// The Chat rule set.
pub(crate) const RULES: RuleSet = RuleSet::new()
    .with_defaults(Policy::new(Nullable::Preserve, false, false))
    .with_booleans(Booleans::Keep)
    .with_schema_uri(SchemaUri::Remove)
    .with_root(Root::Shaped(OPENAI_ROOT))
    .with_openai_patterns(true)
    .with_default_items(DefaultItems::Empty)
    .with_empty_properties(EmptyProperties::Add)
    .with_strict(Some(
        StrictProfile::new(Some(OpenAiLimits::OPENAI), None)
            .with_keep(KeepSets::new(STRICT_CURRENT, KeepSet::STRICT)),
    ))
    .with_recursion(Recursion::KEEP_REFS, Recursion::KEEP_REFS)
    .with_envelope(Envelope::CHAT);
