//! Anthropic Messages: shaped root without `not`, structured-output bounds, strict request budget.

use llmshim_core::envelope::{Layout, StrictKey, ToolShape};
use llmshim_core::rules::{
    AnthropicBudget, Booleans, DefaultItems, EmptyProperties, Envelope, Policy, Root, SchemaUri,
    StrictProfile,
};
use llmshim_core::{Nullable, RuleSet};

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

/// The Anthropic rule set.
pub(crate) const RULES: RuleSet = RuleSet::new()
    .with_defaults(Policy::new(Nullable::Preserve, false, false))
    .with_booleans(Booleans::Keep)
    .with_schema_uri(SchemaUri::Remove)
    .with_root(Root::Shaped(ROOT))
    .with_output_bounds(true)
    .with_default_items(DefaultItems::Empty)
    .with_empty_properties(EmptyProperties::Add)
    .with_strict(Some(StrictProfile::new(
        None,
        Some(AnthropicBudget::ANTHROPIC),
    )))
    .with_envelope(ENVELOPE);
