//! OpenAI Responses (contract §4.5): as Chat, plus `oneOf` and lookaround rewriting, booleans rejected, flat tools.

use llmshim_core::rules::{Booleans, Envelope, Policy};
use llmshim_core::{Nullable, RuleSet};

/// The Responses rule set.
pub(crate) const RULES: RuleSet = crate::openai_chat::RULES
    .with_defaults(Policy::new(Nullable::Preserve, true, true))
    .with_booleans(Booleans::Reject)
    .with_envelope(Envelope::Flat);
