//! OpenAI Responses: as Chat, plus `oneOf` and lookaround rewriting, booleans rejected, flat tools.

use llmshim_core::envelope::{Layout, StrictKey, ToolShape};
use llmshim_core::rules::{Booleans, Envelope, Policy};
use llmshim_core::{Nullable, RuleSet};

use crate::Builtin;

/// OpenAI Responses.
pub static OPENAI_RESPONSES: Builtin = Builtin::new("openai-responses", &RULES);

/// Flat function tools, `{"type": "function", "name", "description", "parameters", "strict"}`: the Responses API
/// treats an absent `strict` as `true`, so every tool carries the key.
pub(crate) const ENVELOPE: Envelope = Envelope::new(Layout::Tool(
    ToolShape::new("parameters").with_tag("type", "function"),
))
.with_strict(StrictKey::Always);

/// The Responses rule set.
pub(crate) const RULES: RuleSet = crate::openai_chat::RULES
    .with_defaults(Policy::new(Nullable::Preserve, true, true))
    .with_booleans(Booleans::Reject)
    .with_envelope(ENVELOPE);
