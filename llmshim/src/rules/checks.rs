//! The structural check `S1` to `S18`: what every finished schema must satisfy, all in `llmshim-core/src/check.rs`.

use crate::rules::Check;

/// One entry per row.
const fn check(label: &'static str, what: &'static str, kind: &'static str) -> Check {
    Check { label, what, kind }
}

/// The rows, in the order a node reports them.
pub(crate) const CHECKS: &[Check] = &[
    check(
        "S1",
        "The node is deeper than the depth budget.",
        "budget_depth",
    ),
    check(
        "S2",
        "A boolean schema where strict is effective or the rule set rejects booleans.",
        "boolean_schema",
    ),
    check(
        "S3",
        "A value that is neither an object nor a boolean.",
        "invalid_schema",
    ),
    check(
        "S4",
        "`type` is not a type name, or a type array under strict or a nullable policy other than preserve.",
        "invalid_schema, target_unsupported",
    ),
    check(
        "S5",
        "Neither `type` nor `anyOf`, under strict or where the rule set requires types.",
        "strict_unsupported, target_unsupported",
    ),
    check(
        "S6",
        "`type: \"null\"` where forbidden, or a key outside the rule set's keep-list.",
        "target_unsupported",
    ),
    check(
        "S7",
        "A key the rule set forbids (Gemini: `allOf`, `oneOf`; Code Assist: every combinator and `nullable`).",
        "target_unsupported",
    ),
    check(
        "S8",
        "An `anyOf` with sibling keys where `anyOf` must stand alone.",
        "target_unsupported",
    ),
    check("S9", "`allOf` under strict.", "strict_unsupported"),
    check("S10", "A leftover `$ref` or `$defs`.", "invalid_schema"),
    check(
        "S11",
        "`required` is not an array of unique strings.",
        "invalid_schema",
    ),
    check(
        "S12",
        "`title`, `description`, `format` or `pattern` is not a string.",
        "invalid_schema",
    ),
    check(
        "S13",
        "`enum` is not a non-empty array, or `nullable` is not a boolean.",
        "invalid_schema",
    ),
    check(
        "S14",
        "A numeric bound or `multipleOf` is not a number.",
        "invalid_schema",
    ),
    check(
        "S15",
        "Under strict, an object without `properties`, without `additionalProperties: false`, or whose `required` is not every property once in declared order; and (the strict keep-list) any key outside `STRICT_KEEP`, or a malformed combinator.",
        "strict_unsupported, invalid_schema",
    ),
    check(
        "S16",
        "Under strict, an array without `items`.",
        "strict_unsupported",
    ),
    check("S17", "Under strict, `prefixItems`.", "strict_unsupported"),
    check(
        "S18",
        "At the root, where the rule set has a root rule: `type` is not `\"object\"`, or a root keyword the target rejects remains.",
        "target_unsupported",
    ),
];
