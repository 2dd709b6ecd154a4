//! An example custom target: the Acme provider, defined outside llmshim with `llmshim-core` only.
//!
//! Acme accepts a small keyword set (its newer models also enforce `maxLength`, so the current keyword profile keeps
//! it and the conservative one lifts it), expresses null with a marker, rejects boolean subschemas and `const`, and
//! enforces strict mode with limits of its own, smaller than OpenAI's. Its tools have a shape of their own,
//! `{"kind": "function", "name", "description", "arguments", "strict"}`, described by an envelope value. Everything
//! but `const` is rule-set data; `const` is rewritten by a hook into a one-value `enum` (rule `acme.const-to-enum`).
//!
//! # Examples
//!
//! ```
//! use llmshim::schema::{normalize_with, Options, Target};
//! use serde_json::json;
//!
//! let mut schema = json!({"type": "object", "properties": {"kind": {"const": "a"}, "when": {"type": "string", "format": "date"}}});
//! let report = normalize_with(&Options::for_target(Target::custom(&acme_llmshim_target::ACME)), &mut schema);
//! assert!(!report.used_fallback);
//! assert_eq!(schema["properties"]["kind"], json!({"enum": ["a"], "type": "string"}));
//! assert_eq!(schema["properties"]["when"], json!({"type": "string", "description": "(format: date)"}));
//!
//! use llmshim::schema::Keywords;
//! let acme = Options::for_target(Target::custom(&acme_llmshim_target::ACME));
//! let mut kept = json!({"type": "object", "properties": {"q": {"type": "string", "maxLength": 80}}});
//! let mut lifted = kept.clone();
//! normalize_with(&acme, &mut kept);
//! normalize_with(&acme.with_keywords(Keywords::Conservative), &mut lifted);
//! assert_eq!(kept["properties"]["q"], json!({"type": "string", "maxLength": 80}));
//! assert_eq!(lifted["properties"]["q"], json!({"type": "string", "description": "(maxLength: 80)"}));
//! ```
//!
//! # Should I use this crate?
//!
//! It is an example to copy: a real custom target lives in its own crate, like this one.

use llmshim_core::envelope::{Layout, StrictKey, ToolShape};
use llmshim_core::keep::{Conditional, KeepSet, KeepSets};
use llmshim_core::rules::{
    Booleans, DefaultItems, EmptyProperties, Envelope, OpenAiLimits, Policy, Root, StrictProfile,
};
use llmshim_core::walk::NodeCtx;
use llmshim_core::{ChangeKind, FallbackReason, Nullable, RuleSet, TargetRules, json};
use serde_json::Value;

/// The keywords Acme accepts.
const KEEP: &[&str] = &[
    "type",
    "title",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "anyOf",
    "nullable",
];

/// What Acme's newer models also enforce: `maxLength`, when it is a non-negative integer.
const CURRENT: KeepSet = KeepSet::names(KEEP).with_conditional(&[Conditional::count("maxLength")]);

/// Acme's strict limits, smaller than OpenAI's: 100 properties, 5 levels of nesting, 100 enum values and 15,000
/// bytes of names and values in one schema; an enum of more than 50 values may hold 5,000 bytes of strings.
pub const LIMITS: OpenAiLimits = OpenAiLimits::unlimited()
    .with_max_properties(100)
    .with_max_nesting(5)
    .with_max_enum_values(100)
    .with_max_string_bytes(15_000)
    .with_large_enum(50, 5_000);

/// Acme's tools: `{"kind": "function", "name", "description", "arguments", "strict"}`, with `strict` when it was
/// requested.
pub const ENVELOPE: Envelope = Envelope::new(Layout::Tool(
    ToolShape::new("arguments").with_tag("kind", "function"),
))
.with_strict(StrictKey::WhenRequested);

/// Acme's rule set.
static RULES: RuleSet = RuleSet::new()
    .with_defaults(Policy::new(Nullable::Marker, true, true))
    .with_booleans(Booleans::Reject)
    .with_root(Root::Object)
    .with_keep(Some(KeepSets::new(CURRENT, KeepSet::names(KEEP))))
    .with_openai_patterns(true)
    .with_default_items(DefaultItems::Empty)
    .with_empty_properties(EmptyProperties::Add)
    .with_split_type_arrays(true)
    .with_forbidden(&["allOf", "oneOf", "const"])
    .with_strict(Some(StrictProfile::new(Some(LIMITS), None)))
    .with_envelope(ENVELOPE);

/// The Acme target.
#[derive(Debug)]
#[non_exhaustive]
pub struct Acme;

/// The one Acme value to pass to `Target::custom`.
pub static ACME: Acme = Acme;

impl TargetRules for Acme {
    fn id(&self) -> &'static str {
        "acme"
    }

    fn rules(&self) -> &RuleSet {
        &RULES
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(());
        };
        if let Some(value) = json::remove(map, "const") {
            json::set(map, "enum", Value::Array(vec![value]));
            cx.record("acme.const-to-enum", ChangeKind::Rewritten, Some("enum"));
        }
        Ok(())
    }
}
