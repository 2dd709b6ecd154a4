//! OpenAI Chat Completions: chat envelope, shaped root, OpenAI regex dialect, strict with limits.

use llmshim_core::rules::{
    Booleans, DefaultItems, EmptyProperties, Envelope, OpenAiLimits, Policy, Root, SchemaUri,
    StrictProfile,
};
use llmshim_core::{Nullable, RuleSet};

use crate::Builtin;

/// OpenAI Chat Completions.
pub static OPENAI_CHAT: Builtin = Builtin::new("openai-chat", &RULES);

/// The keys a Chat or Responses root may not keep.
pub(crate) const OPENAI_ROOT: &[&str] = &["anyOf", "oneOf", "allOf", "enum", "not"];

/// The Chat rule set.
pub(crate) const RULES: RuleSet = RuleSet::new()
    .with_defaults(Policy::new(Nullable::Preserve, false, false))
    .with_booleans(Booleans::Keep)
    .with_schema_uri(SchemaUri::Remove)
    .with_root(Root::Shaped(OPENAI_ROOT))
    .with_openai_patterns(true)
    .with_default_items(DefaultItems::Empty)
    .with_empty_properties(EmptyProperties::Add)
    .with_strict(Some(StrictProfile::new(Some(OpenAiLimits::OPENAI), None)))
    .with_envelope(Envelope::CHAT);
