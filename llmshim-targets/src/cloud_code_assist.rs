//! Google Cloud Code Assist: as Google, but nullable removed, combinators merged, no split.

use llmshim_core::envelope::{EmptySchema, Layout, ToolShape, Wrapper};
use llmshim_core::rules::{Envelope, Policy};
use llmshim_core::{Nullable, RuleSet};

use crate::Builtin;

/// Google Cloud Code Assist.
pub static CLOUD_CODE_ASSIST: Builtin = Builtin::new("cloud-code-assist", &RULES);

/// Gemini's declarations inside the Code Assist request wrapper `{"model", "project", "user_prompt_id", "request"}`;
/// an object schema without properties, and a declaration without any schema, is sent with `{"type": "object"}`,
/// because a Claude model behind Code Assist needs an input schema. A declaration's `parametersJsonSchema` is left
/// as it is.
pub(crate) const ENVELOPE: Envelope = Envelope::new(Layout::Declarations {
    list: "functionDeclarations",
    declaration: ToolShape::new("parameters").with_kept(&["parametersJsonSchema"]),
})
.with_empty_schema(EmptySchema::Fixed(&[("type", "object")]))
.with_wrapper(Some(Wrapper::new(
    "request",
    &["model", "project", "user_prompt_id"],
)));

/// The Cloud Code Assist rule set.
pub(crate) const RULES: RuleSet = crate::google::RULES
    .with_defaults(Policy::new(Nullable::Remove, true, false))
    .with_split_type_arrays(false)
    .with_isolate_any_of(false)
    .with_merge_combinators(true)
    .with_forbidden(&["anyOf", "allOf", "oneOf", "nullable"])
    .with_envelope(ENVELOPE);
