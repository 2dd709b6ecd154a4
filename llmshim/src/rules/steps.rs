//! The walk steps `W1` to `W30`: what each visit of a schema node does, in order, and where.

use crate::rules::Step;

/// One entry per step.
const fn step(label: &'static str, what: &'static str, file: &'static str) -> Step {
    Step { label, what, file }
}

/// The steps of one visit, in order; the pass list in `llmshim/src/schema/pipeline.rs` (`ORDER`) follows them.
pub(crate) const STEPS: &[Step] = &[
    step(
        "W1",
        "Count the visit against the node and depth budgets.",
        "llmshim-core/src/walk.rs",
    ),
    step(
        "W2",
        "A boolean schema fails where strict is effective or the rule set rejects booleans; otherwise it stays.",
        "llmshim-core/src/walk/steps/shape.rs",
    ),
    step(
        "W3",
        "Join the node's `$id` (draft-04: `id`) against the inherited base URI.",
        "llmshim-resolve/src/pass/base.rs",
    ),
    step(
        "W4",
        "Any other value that is not an object fails as not a schema.",
        "llmshim-core/src/walk/steps/shape.rs",
    ),
    step(
        "W5",
        "Charge the node's literal keywords (key and value bytes) to the literal budget.",
        "llmshim-core/src/walk/steps/literals.rs",
    ),
    step(
        "W6",
        "Rename snake-case spellings (`walk.snake-case`); in a draft-04 document, `id` becomes `$id` (`upgrade.id`).",
        "llmshim-core/src/walk/steps/snake_case.rs",
    ),
    step(
        "W7",
        "Expand `$ref`: walk the target, merge the siblings over it, walk the merged node (`resolve.inline-ref`); the expansion is the visit's result.",
        "llmshim-resolve/src/pass/expand.rs",
    ),
    step(
        "W8",
        "Remove definitions and meta keywords; set or remove `$schema` (`resolve.drop-definitions`, `resolve.schema-uri`, `resolve.drop-meta`).",
        "llmshim-resolve/src/pass/meta.rs",
    ),
    step(
        "W9",
        "Upgrade a draft-07 tuple (`upgrade.tuple`, `upgrade.drop-additional-items`).",
        "llmshim-resolve/src/pass/upgrades.rs",
    ),
    step(
        "W10",
        "Upgrade draft-07 `dependencies` (`upgrade.dependencies`).",
        "llmshim-resolve/src/pass/upgrades.rs",
    ),
    step(
        "W11",
        "Upgrade boolean exclusive bounds (`upgrade.exclusive-bound`).",
        "llmshim-resolve/src/pass/upgrades.rs",
    ),
    step(
        "W12",
        "Remove `required: null` (`walk.required-null`).",
        "llmshim-core/src/walk/steps/required.rs",
    ),
    step(
        "W13",
        "Rewrite `oneOf` as `anyOf` where asked or under strict (`walk.one-of-to-any-of`).",
        "llmshim-core/src/walk/steps/one_of.rs",
    ),
    step(
        "W14",
        "Merge `allOf` into the node where it can (`walk.merge-all-of`).",
        "llmshim-core/src/walk/steps/all_of.rs",
    ),
    step(
        "W15",
        "At the root, shape a combinator the target rejects (`root.required-only`, `root.merge-alternatives`); where root combinators are kept (MCP, google-json), a root typed `object` whose `anyOf` or `oneOf` has no branch that can be an object admits nothing and fails `target_unsupported`.",
        "llmshim-targets/src/passes/root.rs",
    ),
    step(
        "W16",
        "Flatten tuples under strict or where the rule set asks (`strict.flatten-tuple`, `google.flatten-tuple`).",
        "llmshim-core/src/walk/steps/tuples.rs",
    ),
    step(
        "W17",
        "Infer a missing `type` in instance-describing positions (`walk.infer-type`); an empty `enum` fails.",
        "llmshim-core/src/walk/steps/infer.rs",
    ),
    step(
        "W18",
        "Run the custom target's `enter` hook.",
        "llmshim-targets/src/passes/hooks.rs",
    ),
    step(
        "W19",
        "Strip keys: the strict keep-list, the rule set's keep-list, Anthropic's output bounds (`strict.keyword`, `target.keyword`, `anthropic.output-bounds`).",
        "llmshim-targets/src/passes/keep.rs",
    ),
    step(
        "W20",
        "Pattern rules: lookaround removal, then the OpenAI dialect (`responses.lookaround`, `openai.pattern-dialect`).",
        "llmshim-targets/src/passes/patterns.rs",
    ),
    step(
        "W21",
        "The nullable policy (`walk.nullable-marker`, `walk.nullable-remove`).",
        "llmshim-core/src/walk/steps/nullable.rs",
    ),
    step(
        "W22",
        "Gemini's value rules (`google.enum-lift`, `google.format-lift`, `google.type-applicability`), then flush the lift queue into the description.",
        "llmshim-targets/src/passes/values.rs",
    ),
    step(
        "W23",
        "Split a type array under strict or where the rule set asks (`walk.split-type-array`); the wrapper is the visit's result.",
        "llmshim-core/src/walk/steps/split.rs",
    ),
    step(
        "W24",
        "`required` must be an array of strings; remember it as the originally required names.",
        "llmshim-core/src/walk/steps/required.rs",
    ),
    step(
        "W25",
        "Walk the children (the positions of `llmshim_core::children`) one level deeper.",
        "llmshim-core/src/children.rs",
    ),
    step(
        "W26",
        "Objects: add empty `properties` where the rule set asks, then close under strict (`walk.empty-properties`, `strict.close-object`, `strict.nullable-optional`).",
        "llmshim-strict/src/close.rs",
    ),
    step(
        "W27",
        "Arrays without `items` get a default (`target.array-items`, `google.array-items`).",
        "llmshim-targets/src/passes/items.rs",
    ),
    step(
        "W28",
        "Gemini's tail: nullable-`anyOf` collapse, Code Assist merge, `required` filter, empty `properties` removal, `anyOf` isolation.",
        "llmshim-targets/src/passes/tail.rs",
    ),
    step(
        "W29",
        "Run the custom target's `leave` hook.",
        "llmshim-targets/src/passes/hooks.rs",
    ),
    step("W30", "Return the node.", "llmshim-core/src/walk.rs"),
];
