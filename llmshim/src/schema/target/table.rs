//! The one table of built-in targets: variant, command-line name and rule set, one row each.
//!
//! Everything that lists the built-in targets reads this table: `Target`'s parsing, display and `BUILTIN`, the
//! command line's parser and help, the error texts, the benches and the reliability runs (through `Target`), and
//! `cargo xtask bench`, which reads the rows below from this file. Adding a built-in target is one new file in
//! `llmshim-targets` plus one row here (and the `Target` variant the row names).

use llmshim_core::TargetRules;

use super::Target;

/// One built-in target.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct BuiltinTarget {
    /// The `Target` variant.
    pub target: Target,
    /// The command-line name, also accepted by `Target::from_str` and written by `Display`.
    pub name: &'static str,
    /// The rule set.
    pub rules: &'static dyn TargetRules,
}

impl BuiltinTarget {
    const fn new(target: Target, name: &'static str, rules: &'static dyn TargetRules) -> Self {
        BuiltinTarget {
            target,
            name,
            rules,
        }
    }
}

/// The built-in targets, in the command line's order. `cargo xtask bench` and the target-table check read the rows
/// between the markers.
pub(super) const TABLE: [BuiltinTarget; 7] = [
    // targets:start
    BuiltinTarget::new(Target::OpenAiChat, "chat", &llmshim_targets::OPENAI_CHAT),
    BuiltinTarget::new(
        Target::OpenAiResponses,
        "responses",
        &llmshim_targets::OPENAI_RESPONSES,
    ),
    BuiltinTarget::new(Target::Anthropic, "anthropic", &llmshim_targets::ANTHROPIC),
    BuiltinTarget::new(Target::Google, "google", &llmshim_targets::GOOGLE),
    BuiltinTarget::new(
        Target::GoogleJsonSchema,
        "google-json",
        &llmshim_targets::GOOGLE_JSON_SCHEMA,
    ),
    BuiltinTarget::new(
        Target::CloudCodeAssist,
        "cca",
        &llmshim_targets::CLOUD_CODE_ASSIST,
    ),
    BuiltinTarget::new(Target::Mcp, "mcp", &llmshim_targets::MCP),
    // targets:end
];
