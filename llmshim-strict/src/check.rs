//! The strict acceptance check: what a strict provider accepts, verified on a finished schema.

use llmshim_core::walk::HARD_MAX_DEPTH;
use llmshim_core::{Budget, FallbackReason, Keywords, Recursion, RuleSet, StrictProfile};
use serde_json::Value;

/// A rule set that asks for nothing, so the structural check applies only its strict and well-formedness rows.
static NO_TARGET: RuleSet = RuleSet::new();

/// Every violation of the strict acceptance rules in `schema`, in document order; empty when it passes.
///
/// This is the structural check of `llmshim_core::check` with strict effective and no target rules: the one strict
/// check, the same rows normalization gates every strict result on. A node fails when (kind in brackets,
/// `strict_unsupported` unless named):
/// - it is a boolean, other than a boolean `additionalProperties` (or `items` beside `prefixItems`)
///   [`boolean_schema`], or neither a boolean nor an object [`invalid_schema`];
/// - `type` is not a type name (a type array is not accepted under strict [`target_unsupported`]);
/// - it has neither `type` nor `anyOf`, or it has `allOf` or `prefixItems`;
/// - it has a `$ref` other than a kept reference, or `$defs` below the root [`invalid_schema`], or a key outside
///   the strict keep-list ([`crate::KEEP`]);
/// - its type is `"object"` and `properties` is not an object, `additionalProperties` is not `false`, or `required`
///   is not every property name once, in declared order;
/// - its type is `"array"` and it has no `items`;
/// - `required`, `title`, `description`, `enum`, numeric bounds or the combinators have values of the wrong kind
///   [`invalid_schema`];
/// - it sits deeper than [`HARD_MAX_DEPTH`] levels [`budget_depth`]; it is reported and not entered.
///
/// A kept reference (a node whose only key is a `$ref` to `#` or to a member of the root's `$defs`) is accepted as
/// it is, and the root's `$defs` is the home of those members, each checked once after the root's tree.
///
/// /// A node's own violations come first, then its children's in stored key order. [`check_with`] holds a schema to a
/// strict profile's keep-list instead, such as the wider lists of the current keyword profile.
///
/// [`boolean_schema`]: llmshim_core::FallbackKind::BooleanSchema
/// [`invalid_schema`]: llmshim_core::FallbackKind::InvalidSchema
/// [`target_unsupported`]: llmshim_core::FallbackKind::TargetUnsupported
/// [`budget_depth`]: llmshim_core::FallbackKind::BudgetDepth
///
/// ```
/// use llmshim_core::FallbackKind;
/// use llmshim_strict::check;
/// use serde_json::json;
///
/// let closed = json!({
///     "type": "object",
///     "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
///     "required": ["a"],
///     "additionalProperties": false
/// });
/// assert!(check(&closed).is_empty());
///
/// let open = json!({"type": "object", "properties": {"a": {"type": "string", "format": "date"}}});
/// let found: Vec<_> = check(&open).into_iter().map(|r| (r.kind, r.pointer)).collect();
/// assert_eq!(found, [
///     (FallbackKind::StrictUnsupported, String::new()),
///     (FallbackKind::StrictUnsupported, String::new()),
///     (FallbackKind::StrictUnsupported, "/properties/a".to_owned()),
/// ]);
/// ```
pub fn check(schema: &Value) -> Vec<FallbackReason> {
    let budget = Budget::default().with_max_depth(HARD_MAX_DEPTH);
    let options = llmshim_core::check::Options::new(&NO_TARGET)
        .with_strict(true)
        .with_keywords(Keywords::Conservative)
        .with_budget(&budget)
        .with_recursion(Recursion::KEEP_REFS);
    llmshim_core::check::check(schema, &options)
}

/// As [`check`], holding every key and value to `profile`'s strict keep-list under `keywords` (a kept `pattern`
/// must use no construct its subset leaves out, a kept `format` must be one of its values, and so on).
///
/// ```
/// use llmshim_core::keep::{Conditional, KeepSet, KeepSets};
/// use llmshim_core::{Keywords, StrictProfile};
/// use llmshim_strict::check_with;
/// use serde_json::json;
///
/// const CURRENT: KeepSet = KeepSet::STRICT.with_conditional(&[Conditional::count("maxLength")]);
/// let profile = StrictProfile::new(None, None).with_keep(KeepSets::new(CURRENT, KeepSet::STRICT));
/// let schema = json!({
///     "type": "object",
///     "properties": {"a": {"type": "string", "maxLength": 5}},
///     "required": ["a"],
///     "additionalProperties": false
/// });
/// assert!(check_with(&schema, &profile, Keywords::Current).is_empty());
/// assert_eq!(check_with(&schema, &profile, Keywords::Conservative).len(), 1);
/// ```
pub fn check_with(
    schema: &Value,
    profile: &StrictProfile,
    keywords: Keywords,
) -> Vec<FallbackReason> {
    let budget = Budget::default().with_max_depth(HARD_MAX_DEPTH);
    let rules = RuleSet::new().with_strict(Some(*profile));
    let options = llmshim_core::check::Options::new(&rules)
        .with_strict(true)
        .with_keywords(keywords)
        .with_budget(&budget)
        .with_recursion(Recursion::KEEP_REFS);
    llmshim_core::check::check(schema, &options)
}
