//! Google Gemini `parameters`: nullable markers, keep-list, value rules, split and isolation.

use llmshim_core::envelope::{EmptySchema, Layout, ToolShape};
use llmshim_core::keep::{Conditional, KeepSet, KeepSets};
use llmshim_core::pattern_subset::PatternSubset;
use llmshim_core::rules::{
    Booleans, DefaultItems, EmptyProperties, Envelope, Policy, Root, SchemaUri,
};
use llmshim_core::{Nullable, Recursion, RuleSet};

use crate::Builtin;

/// Google Gemini.
pub static GOOGLE: Builtin = Builtin::new("google", &RULES);

/// Function declarations gathered in `[{"functionDeclarations": [{"name", "description", "parameters"}]}]`, never a
/// `strict` key; an object schema without properties is left out, since Gemini rejects an empty `properties` map. A
/// declaration that arrives with `parametersJsonSchema` (Gemini's JSON Schema dialect) is read from there and written
/// as `parameters`.
pub(crate) const ENVELOPE: Envelope = Envelope::new(Layout::Declarations {
    list: "functionDeclarations",
    declaration: ToolShape::new("parameters").with_alternates(&["parametersJsonSchema"]),
})
.with_empty_schema(EmptySchema::Omit);

/// The keywords every Gemini model accepts in its schema, kept whatever their value.
pub(crate) const KEEP: &[&str] = &[
    "type",
    "title",
    "description",
    "format",
    "nullable",
    "enum",
    "properties",
    "required",
    "items",
    "anyOf",
    "oneOf",
    "allOf",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "propertyOrdering",
];

/// What Gemini's pattern engine leaves out: lookarounds, backreferences, Unicode property escapes and named groups.
pub(crate) const PATTERNS: PatternSubset = PatternSubset::new()
    .without_lookarounds()
    .without_backreferences()
    .without_property_escapes()
    .without_named_groups();

/// The keep-list under the current keyword profile: also the string lengths, the property counts and the pattern,
/// fields of Gemini's `Schema`.
pub(crate) const CURRENT: KeepSet = KeepSet::names(KEEP).with_conditional(&[
    Conditional::count("minLength"),
    Conditional::count("maxLength"),
    Conditional::count("minProperties"),
    Conditional::count("maxProperties"),
    Conditional::pattern("pattern", PATTERNS),
]);

/// The Google rule set.
pub(crate) const RULES: RuleSet = RuleSet::new()
    .with_defaults(Policy::new(Nullable::Marker, true, false))
    .with_booleans(Booleans::Reject)
    .with_schema_uri(SchemaUri::Remove)
    .with_root(Root::Object)
    .with_flatten_tuples(true)
    .with_infer_array_from_items(true)
    .with_keep(Some(KeepSets::new(CURRENT, KeepSet::names(KEEP))))
    .with_google_values(true)
    .with_split_type_arrays(true)
    .with_empty_properties(EmptyProperties::Remove)
    .with_default_items(DefaultItems::String)
    .with_collapse_nullable_any_of(true)
    .with_filter_required(true)
    .with_isolate_any_of(true)
    .with_require_type(true)
    .with_forbid_null_type(true)
    .with_forbidden(&["allOf", "oneOf"])
    .with_strict(None)
    .with_recursion(Recursion::unroll(3), Recursion::unroll(3))
    .with_envelope(ENVELOPE);
