//! Google Cloud Code Assist (contract §4.8): as Google, but nullable removed, combinators merged, no split.

use llmshim_core::rules::{Envelope, Policy};
use llmshim_core::{Nullable, RuleSet};

/// The Cloud Code Assist rule set.
pub(crate) const RULES: RuleSet = crate::google::RULES
    .with_defaults(Policy::new(Nullable::Remove, true, false))
    .with_split_type_arrays(false)
    .with_isolate_any_of(false)
    .with_merge_combinators(true)
    .with_forbidden(&["anyOf", "allOf", "oneOf", "nullable"])
    .with_envelope(Envelope::CodeAssist);
