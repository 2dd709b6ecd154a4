//! The strict-schema fixtures of openai-agents and openai-python: checked strict outputs, classified differences.
//!
//! Both fixture files record a reference strict transform (`ensure_strict_json_schema` of openai-agents,
//! `to_strict_json_schema` of openai-python) as input and output pairs, or input and raised error. Each input is
//! normalized for OpenAI Chat and OpenAI Responses with strict requested, through a normalizer with fixed
//! environment flags and no memo. The difference from the fixture's expected output then falls in exactly one
//! class:
//!
//! - (a) equal, once the expected output's `$ref`s are inlined and description text is ignored;
//! - (b) different by design, because of the rule that [`BY_DESIGN`] names for the fixture;
//! - (c) a bug, listed in [`BUGS`] until the library is fixed.
//!
//! A structural comparison explains the differences of a strict output rule by rule ([`Rule`]), and the report's
//! diagnostics must show each rule at work, so an entry of the table is checked, not merely asserted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use llmshim::resolve::{self, Cycles, Resources};
use llmshim::schema::{Env, EnvFlags, FallbackKind, Normalization, Normalizer, Options, Target};
use llmshim_benches::testdata;
use llmshim_benches::xfail::{self, XFail};
use serde_json::{Map, Value, json};

use self::Design::{Accepts, Demotes, FallsBack, Narrows, Rules};
use self::Rule::{InferType, KeepList, Meta, NullableOptional, SplitTypeArray};
use llmshim::schema::FallbackKind::{
    BudgetDepth, BudgetNodes, InvalidSchema, ProviderLimit, RefCycle, TargetUnsupported,
    UnresolvedRef,
};

/// The targets every fixture is normalized for.
const TARGETS: [Target; 2] = [Target::OpenAiChat, Target::OpenAiResponses];

/// Keywords that W8 removes on the OpenAI targets and that a reference may keep.
const META: [&str; 6] = [
    "$schema",
    "$id",
    "$anchor",
    "$comment",
    "$defs",
    "definitions",
];

/// A rule that explains one kind of structural difference between a strict output and the reference's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rule {
    /// W19: a keyword outside the strict keep-list is lifted into the description or dropped.
    KeepList,
    /// W26: an optional property becomes a nullable alternative; the reference only requires it.
    NullableOptional,
    /// W23: a type array becomes `anyOf` branches; the reference keeps the array.
    SplitTypeArray,
    /// W17: a missing `type` is inferred from `properties`, `const` or `enum`.
    InferType,
    /// W8: `$schema`, `$id`, `$anchor`, `$comment` and definitions are removed on the OpenAI targets.
    Meta,
}

impl Rule {
    /// The change rule ids that show the rule at work; one of them must be in the report.
    fn change_ids(self) -> &'static [&'static str] {
        match self {
            Rule::KeepList => &["strict.keyword"],
            Rule::NullableOptional => &["strict.nullable-optional"],
            Rule::SplitTypeArray => &["walk.split-type-array"],
            Rule::InferType => &["walk.infer-type"],
            Rule::Meta => &[
                "resolve.schema-uri",
                "resolve.drop-meta",
                "resolve.drop-definitions",
            ],
        }
    }
}

/// What our result looks like when a fixture differs by design.
#[derive(Clone, Copy, Debug)]
enum Design {
    /// A strict output whose differences from the expected output are explained by exactly these rules.
    Rules(&'static [Rule]),
    /// The reference raised an error and we produce a strict output; each change rule id must be in our report.
    Accepts(&'static [&'static str]),
    /// We demote to a non-strict schema with this reason kind.
    Demotes(FallbackKind),
    /// We fall back to `{"type":"object","properties":{}}` with this reason kind.
    FallsBack(FallbackKind),
    /// A strict output that narrowed what strict cannot express (an optional part removed, an untyped node given a
    /// type) where the reference refused or widened; each change rule id must be in our report.
    Narrows(&'static [&'static str]),
}

/// Lifting and optional-as-nullable: the reference keeps `default` and bounds, and only requires optionals.
const LIFT_AND_NULL: Design = Rules(&[KeepList, NullableOptional]);
/// The reference refuses an open object; we close every object with `additionalProperties: false`.
const CLOSE: Design = Accepts(&["strict.close-object"]);
/// A root that is not an object schema: OpenAI rejects it, so it falls back even without strict.
const ROOT: Design = FallsBack(TargetUnsupported);
/// Reference expansion: every `$ref` is inlined before strict enforcement, siblings merged over the target.
const INLINE: Design = Accepts(&["resolve.inline-ref"]);

/// Fixtures that differ by design: (fixture, what our result looks like, the rules or steps of RULES.md, why).
const BY_DESIGN: &[(&str, Design, &str, &str)] = &[
    (
        "agents/test_simple_function",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` is lifted; the optional `b` becomes nullable",
    ),
    (
        "agents/test_complex_args_and_docs_function",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` is lifted; the optional `some_flag` becomes nullable",
    ),
    (
        "agents/test_function_with_context",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` is lifted; the optional `b` becomes nullable",
    ),
    (
        "agents/test_class_based_functions",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` is lifted; the optional `b` becomes nullable",
    ),
    (
        "agents/test_class_based_functions#2",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` is lifted; the optional `b` becomes nullable",
    ),
    (
        "agents/test_class_based_functions#3",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` is lifted; the optional `b` becomes nullable",
    ),
    (
        "agents/test_class_based_functions#4",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` is lifted; the optional `b` becomes nullable",
    ),
    (
        "agents/test_class_based_functions#5",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` is lifted; the optional `b` becomes nullable",
    ),
    (
        "agents/test_class_based_functions#6",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` is lifted; the optional `b` becomes nullable",
    ),
    (
        "agents/test_var_positional_tuple_annotation",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `args` becomes nullable",
    ),
    (
        "agents/test_schema_with_mapping_raises_strict_mode_error",
        CLOSE,
        "strict.close-object",
        "a schema-valued `additionalProperties` is replaced by `false` (K4), not refused",
    ),
    (
        "agents/test_function_with_field_optional_with_default",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` and `minimum` are lifted; the optional becomes nullable",
    ),
    (
        "agents/test_function_with_field_description_merge",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` is lifted; the optional becomes nullable",
    ),
    (
        "agents/test_function_with_field_description_only",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` is lifted; the optional becomes nullable",
    ),
    (
        "agents/test_function_with_field_multiple_constraints",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "defaults and bounds are lifted; optionals become nullable",
    ),
    (
        "agents/test_function_with_annotated_field_optional_with_default",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`default` and `minimum` are lifted; the optional becomes nullable",
    ),
    (
        "agents/test_function_with_annotated_field_multiple_constraints",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "defaults and bounds are lifted; optionals become nullable",
    ),
    (
        "agents/test_empty_schema_has_additional_properties_false",
        ROOT,
        "root.merge-alternatives, S18",
        "an untyped root without `properties` gets no type, and the root must be an object",
    ),
    (
        "agents/test_non_dict_schema_errors",
        FallsBack(InvalidSchema),
        "W4",
        "a non-object schema falls back instead of raising",
    ),
    (
        "agents/test_reasonably_nested_schema_remains_supported",
        Demotes(ProviderLimit),
        "openai.strict-limits",
        "eleven object levels exceed OpenAI's nesting limit of 10, so strict is demoted",
    ),
    (
        "agents/test_deeply_chained_refs_are_rejected_before_recursive_conversion",
        FallsBack(BudgetDepth),
        "W1",
        "a chain of 1 000 references exceeds the depth budget of 96 and falls back instead of raising",
    ),
    (
        "agents/test_object_without_additional_properties",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `a` becomes nullable",
    ),
    (
        "agents/test_open_object_rejection_is_opt_in[_reject_open_objects=true]",
        CLOSE,
        "strict.close-object",
        "there is no opt-in refusal of open objects: every object is closed",
    ),
    (
        "agents/test_open_object_rejection_rejects_preserved_pure_refs[ordinary]",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `value` becomes nullable",
    ),
    (
        "agents/test_open_object_rejection_rejects_preserved_pure_refs[ordinary][_reject_open_objects=true]",
        INLINE,
        "resolve.inline-ref",
        "the reference is inlined and its target enforced, so no target escapes strict",
    ),
    (
        "agents/test_open_object_rejection_rejects_preserved_pure_refs[percent-encoded]",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `value` becomes nullable",
    ),
    (
        "agents/test_open_object_rejection_rejects_preserved_pure_refs[percent-encoded][_reject_open_objects=true]",
        INLINE,
        "resolve.inline-ref",
        "the percent-escaped reference is decoded, inlined and enforced",
    ),
    (
        "agents/test_typeless_root_is_normalized_to_object",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `a` becomes nullable",
    ),
    (
        "agents/test_nullable_object_root_errors",
        ROOT,
        "root.merge-alternatives, S18",
        "a nullable root is not an object root, so it falls back instead of raising",
    ),
    (
        "agents/test_open_map_root_errors",
        ROOT,
        "root.merge-alternatives, S18",
        "an untyped root without `properties` is not an object root",
    ),
    (
        "agents/test_nested_typeless_open_map_errors",
        Narrows(&["target.omit-property"]),
        "target.omit-property, S5",
        "the map has no `properties`, so no type is inferred and the strict check fails on an untyped node; the optional map is omitted and the tool stays strict",
    ),
    (
        "agents/test_union_root_errors[anyOf]",
        ROOT,
        "root.merge-alternatives",
        "a root union with a non-object branch cannot be merged",
    ),
    (
        "agents/test_union_root_errors[oneOf]",
        ROOT,
        "root.merge-alternatives",
        "a root union with a non-object branch cannot be merged",
    ),
    (
        "agents/test_nested_typeless_objects_get_additional_properties[property]",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `config` becomes nullable",
    ),
    (
        "agents/test_nested_typeless_objects_get_additional_properties[array-item]",
        ROOT,
        "root.merge-alternatives, S18",
        "an array root is not an object root",
    ),
    (
        "agents/test_nested_nullable_object_preserves_type_union",
        Rules(&[SplitTypeArray, NullableOptional]),
        "walk.split-type-array, strict.nullable-optional",
        "`[\"object\",\"null\"]` is split into `anyOf` branches; the optional `key` becomes nullable",
    ),
    (
        "agents/test_object_with_true_additional_properties",
        CLOSE,
        "strict.close-object",
        "`additionalProperties: true` is replaced by `false`, not refused",
    ),
    (
        "agents/test_typeless_object_with_additional_properties_errors",
        CLOSE,
        "strict.close-object",
        "`additionalProperties: true` is replaced by `false`, not refused",
    ),
    (
        "agents/test_explicit_non_object_with_properties_is_not_closed",
        ROOT,
        "root.merge-alternatives, S18",
        "a string root is not an object root",
    ),
    (
        "agents/test_object_with_empty_dict_additional_properties",
        CLOSE,
        "strict.close-object",
        "`additionalProperties: {}` is replaced by `false`, not refused",
    ),
    (
        "agents/test_object_with_schema_additional_properties",
        CLOSE,
        "strict.close-object",
        "a schema-valued `additionalProperties` is replaced by `false`, not refused",
    ),
    (
        "agents/test_object_with_false_additional_properties_is_allowed",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `a` becomes nullable",
    ),
    (
        "agents/test_array_items_processing_and_default_removal",
        ROOT,
        "root.merge-alternatives, S18",
        "an array root is not an object root",
    ),
    (
        "agents/test_anyOf_processing",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional union and the optional `a` become nullable",
    ),
    (
        "agents/test_allOf_single_entry_merging",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `a` becomes nullable",
    ),
    (
        "agents/test_allOf_single_ref_entry_preserves_annotated_aliases",
        Rules(&[KeepList, NullableOptional]),
        "strict.keyword, strict.nullable-optional",
        "the unknown `components` keyword is dropped; the optional `value` becomes nullable",
    ),
    (
        "agents/test_allOf_single_ref_entry_rejects_overlapping_parent_constraints",
        Accepts(&["walk.merge-all-of"]),
        "walk.merge-all-of",
        "a single `allOf` entry is merged into its node, the entry winning, instead of being refused",
    ),
    (
        "agents/test_nested_single_allOf_rejects_overlapping_parent_constraints",
        Accepts(&["walk.merge-all-of"]),
        "walk.merge-all-of",
        "nested single `allOf` entries are merged, the entry winning, instead of being refused",
    ),
    (
        "agents/test_allOf_single_ref_entry_rejects_json_distinct_equal_python_values[top-level]",
        ROOT,
        "walk.merge-all-of, root.merge-alternatives",
        "the merged entry's `const` makes an integer root, which is not an object root",
    ),
    (
        "agents/test_allOf_single_ref_entry_rejects_json_distinct_equal_python_values[nested]",
        ROOT,
        "walk.merge-all-of, root.merge-alternatives",
        "a root with an object `const` and no type is not an object root",
    ),
    (
        "agents/test_allOf_single_ref_entry_accepts_equal_json_numbers",
        ROOT,
        "root.merge-alternatives, S18",
        "a `const` root is not an object root",
    ),
    (
        "agents/test_allOf_single_ref_entry_accepts_equal_mapping_subclasses",
        ROOT,
        "root.merge-alternatives, S18",
        "a `const` root is not an object root",
    ),
    (
        "agents/test_allOf_single_circular_ref_is_rejected",
        FallsBack(RefCycle),
        "resolve.inline-ref",
        "a reference cycle falls back instead of raising",
    ),
    (
        "agents/test_allOf_single_annotated_circular_ref_is_rejected",
        FallsBack(RefCycle),
        "resolve.inline-ref",
        "a reference cycle falls back instead of raising",
    ),
    (
        "agents/test_allOf_single_ref_chain_spends_node_budget",
        INLINE,
        "W1",
        "the reference ran with a lowered test budget; the default budgets admit a three-step chain",
    ),
    (
        "agents/test_allOf_single_ref_rejects_nested_id_before_promoting_target",
        FallsBack(InvalidSchema),
        "walk.merge-all-of",
        "the merged entry, a string, shares no value with the root's object type: the schema admits nothing",
    ),
    (
        "agents/test_allOf_single_ref_rejects_nested_id_owner_before_resolution",
        INLINE,
        "W3, resolve.inline-ref",
        "a reference inside an embedded resource resolves against that resource's `$id`",
    ),
    (
        "agents/test_allOf_single_ref_rejects_descendant_nested_id_owner_before_resolution",
        INLINE,
        "W3, resolve.inline-ref",
        "a reference inside an embedded resource resolves against that resource's `$id`",
    ),
    (
        "agents/test_allOf_single_ref_rejects_promoted_nested_id_with_descendant_ref",
        INLINE,
        "W25, resolve.inline-ref",
        "`contentSchema` is a literal, so its `$id` makes no resource and the target keeps the root's base",
    ),
    (
        "agents/test_allOf_single_ref_rejects_target_below_nested_id_resource",
        FallsBack(InvalidSchema),
        "walk.merge-all-of",
        "the merged entry, a string, shares no value with the root's object type: the schema admits nothing",
    ),
    (
        "agents/test_allOf_single_ref_allows_id_as_schema_map_member_name[components-schemas]",
        Rules(&[KeepList]),
        "strict.keyword",
        "the unknown `components` keyword is dropped",
    ),
    (
        "agents/test_ref_allows_unrelated_id_definition_name",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `value` becomes nullable",
    ),
    (
        "agents/test_allOf_single_ref_entry_decodes_json_pointer_tokens[slash]",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `value` becomes nullable",
    ),
    (
        "agents/test_allOf_single_ref_entry_decodes_json_pointer_tokens[tilde]",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `value` becomes nullable",
    ),
    (
        "agents/test_allOf_single_ref_entry_decodes_json_pointer_tokens[replacement-order]",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `value` becomes nullable",
    ),
    (
        "agents/test_allOf_single_entry_cannot_overwrite_strict_object[true]",
        CLOSE,
        "walk.merge-all-of, strict.close-object",
        "the merged `additionalProperties: true` is replaced by `false`",
    ),
    (
        "agents/test_allOf_single_entry_cannot_overwrite_strict_object[schema]",
        CLOSE,
        "walk.merge-all-of, strict.close-object",
        "the merged `additionalProperties: {}` is replaced by `false`",
    ),
    (
        "agents/test_default_removal_on_non_object",
        ROOT,
        "root.merge-alternatives, S18",
        "a string root is not an object root",
    ),
    (
        "agents/test_ref_expansion",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `a` becomes nullable (its lifted `default` is description text)",
    ),
    (
        "agents/test_ref_no_expansion_when_alone",
        FallsBack(UnresolvedRef),
        "resolve.inline-ref",
        "a reference to a missing definition falls back instead of staying unexpanded",
    ),
    (
        "agents/test_invalid_ref_format",
        Narrows(&["target.omit-property"]),
        "resolve.inline-ref, target.omit-property",
        "`invalid` is a relative URI outside the document, which is never fetched; the optional `a` is omitted",
    ),
    (
        "agents/test_chained_ref_with_sibling_keys_is_resolved",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `a` becomes nullable",
    ),
    (
        "agents/test_ref_expansion_bomb_is_rejected",
        FallsBack(BudgetNodes),
        "W1",
        "the exponential expansion exceeds the node budget and falls back instead of raising",
    ),
    (
        "agents/test_ref_with_incompatible_sibling_is_rejected",
        INLINE,
        "resolve.inline-ref",
        "siblings of a `$ref` win over the target's keywords",
    ),
    (
        "agents/test_ref_with_incompatible_type_sibling_is_rejected",
        INLINE,
        "resolve.inline-ref",
        "siblings of a `$ref` win over the target's keywords",
    ),
    (
        "agents/test_ref_with_single_all_of_sibling_is_rejected",
        FallsBack(InvalidSchema),
        "resolve.inline-ref, walk.merge-all-of",
        "the sibling `allOf`'s entry, an integer, shares no value with the target's string: the property admits \
         nothing",
    ),
    (
        "agents/test_ref_with_validation_sibling_is_rejected",
        Accepts(&["resolve.inline-ref"]),
        "resolve.inline-ref",
        "the sibling `minLength` is merged, and kept: the current keyword profile keeps string lengths under OpenAI strict",
    ),
    (
        "agents/test_ref_with_interacting_object_sibling_is_rejected",
        INLINE,
        "resolve.inline-ref",
        "siblings of a `$ref` win over the target's keywords",
    ),
    (
        "agents/test_ref_with_annotation_sibling_is_still_expanded",
        LIFT_AND_NULL,
        "strict.keyword, strict.nullable-optional",
        "`contentMediaType` is lifted; the optional `node` becomes nullable",
    ),
    (
        "agents/test_ref_with_schema_metadata_is_still_expanded",
        Rules(&[NullableOptional, Meta]),
        "resolve.drop-meta, strict.nullable-optional",
        "`$schema` is removed on OpenAI; the optional `value` becomes nullable",
    ),
    (
        "agents/test_root_ref_with_id_is_still_expanded",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `value` becomes nullable (`$id` goes on both sides)",
    ),
    (
        "agents/test_nested_ref_with_id_is_rejected_before_resolution",
        INLINE,
        "W3, resolve.inline-ref",
        "a reference inside an embedded resource resolves against that resource's `$id`",
    ),
    (
        "agents/test_ref_with_anchor_is_still_expanded",
        Rules(&[NullableOptional, Meta]),
        "resolve.drop-meta, strict.nullable-optional",
        "`$anchor` is removed; the optional `value` becomes nullable",
    ),
    (
        "agents/test_oneof_converted_to_anyof",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `value` becomes nullable",
    ),
    (
        "agents/test_nested_oneof_in_array_items",
        Rules(&[KeepList, NullableOptional]),
        "strict.keyword, strict.nullable-optional",
        "the unknown `discriminator` keyword is dropped; the optional `steps` becomes nullable",
    ),
    (
        "agents/test_oneof_merged_with_existing_anyof",
        Narrows(&["target.omit-property"]),
        "walk.one-of-to-any-of, target.omit-property",
        "`anyOf` beside `oneOf` becomes an `allOf` pair, which strict cannot express, so the optional `value` is omitted; the reference widens it to one `anyOf`, which admits more than the original",
    ),
    (
        "agents/test_discriminator_preserved",
        Rules(&[KeepList, NullableOptional, InferType]),
        "walk.infer-type, strict.keyword, strict.nullable-optional",
        "`discriminator` is dropped, `const` properties get a type, optionals become nullable",
    ),
    (
        "agents/test_deeply_nested_oneof",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `level1` and `level2` become nullable",
    ),
    (
        "agents/test_oneof_with_refs",
        Rules(&[NullableOptional]),
        "strict.nullable-optional",
        "the optional `value` becomes nullable",
    ),
];

/// Fixtures whose difference contradicts the contract: (fixture, "bug: …"), removed once the library is fixed.
const BUGS: XFail = &[];

/// One input and the reference's answer.
struct Fixture {
    name: String,
    input: Value,
    /// The reference's strict output, or `None` when it raised an error.
    expected: Option<Value>,
}

/// Reads both fixture files; agents test names repeat, so later occurrences get `#2`, `#3` and so on.
fn fixtures(root: &Path) -> Vec<Fixture> {
    let read = |file: &str| {
        testdata::read_json(root.join("sdk-fixtures").join(file))
            .unwrap_or_else(|err| panic!("corrupt test data: {err}"))
    };
    let cases = |doc: &Value| doc["cases"].as_array().cloned().expect("a cases array");
    let mut found = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for case in cases(&read("openai-agents-strict-schema.json")) {
        let mut base = format!("agents/{}", case["test"].as_str().expect("a test name"));
        for (key, value) in case
            .get("kwargs")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            base = format!("{base}[{key}={value}]");
        }
        let count = seen.entry(base.clone()).or_default();
        *count += 1;
        let name = if *count == 1 {
            base
        } else {
            format!("{base}#{count}")
        };
        assert!(
            case.get("output").is_some() != case.get("error").is_some(),
            "{name}: a case has an output or an error"
        );
        found.push(Fixture {
            name,
            input: case["input"].clone(),
            expected: case.get("output").cloned(),
        });
    }
    // openai-python records the same kind of transform: a pydantic schema in, the strict schema out.
    for case in cases(&read("openai-python-pydantic-strict.json")) {
        found.push(Fixture {
            name: format!(
                "openai-python/{}",
                case["test"].as_str().expect("a test name")
            ),
            input: case["input_pydantic_schema"].clone(),
            expected: Some(case["output"].clone()),
        });
    }
    found
}

/// What the report says happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Strict,
    Demoted(FallbackKind),
    Fallback(FallbackKind),
}

/// One normalization of a fixture for one target.
struct Run {
    out: Value,
    report: Normalization,
    /// The change rule ids of the same normalization with diagnostics on.
    changes: BTreeSet<String>,
}

impl Run {
    fn outcome(&self) -> Outcome {
        let kind = self.report.fallback_reason.as_ref().map(|r| r.kind);
        match (self.report.strict, self.report.used_fallback, kind) {
            (true, _, _) => Outcome::Strict,
            (false, false, Some(kind)) => Outcome::Demoted(kind),
            (false, true, Some(kind)) => Outcome::Fallback(kind),
            (false, _, None) => panic!("a strict request that is not strict must carry a reason"),
        }
    }
}

/// Normalizes `input` strictly for `target` and checks what every result must satisfy.
fn run(input: &Value, target: Target) -> Result<Run, String> {
    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
    let options = Options::for_target(target).with_strict(true);
    let mut out = input.clone();
    let report = normalizer.normalize_with(&options, &mut out);
    let mut traced = input.clone();
    let diagnosed = normalizer.normalize_with(&options.clone().with_diagnostics(true), &mut traced);
    if traced != out || diagnosed.strict != report.strict {
        return Err("diagnostics changed the result".to_owned());
    }
    let changes = diagnosed
        .changes
        .iter()
        .map(|c| c.rule.to_string())
        .collect();
    if report.strict {
        if report.used_fallback || report.fallback_reason.is_some() {
            return Err(format!(
                "a strict result with a fallback or a reason: {report:?}"
            ));
        }
        let violations = crate::support::strict_problems(&options, &out);
        if !violations.is_empty() {
            return Err(format!("the strict check fails: {violations:?} on {out}"));
        }
        if let Err(err) = jsonschema::draft202012::meta::validate(&out) {
            return Err(format!("not a valid 2020-12 schema ({err}): {out}"));
        }
    } else if report.fallback_reason.is_none() {
        return Err(format!(
            "a demotion or fallback without a reason: {report:?}"
        ));
    } else if report.used_fallback && out != json!({"type": "object", "properties": {}}) {
        return Err(format!("a fallback that is not the fallback schema: {out}"));
    }
    Ok(Run {
        out,
        report,
        changes,
    })
}

/// How a result compares with the fixture's expected output.
#[derive(Debug)]
enum Observed {
    /// A strict output equal to the expected one after inlining, description text ignored.
    Equal,
    /// A strict output whose every difference these rules explain.
    Explained(BTreeSet<Rule>),
    /// A strict output with differences that no rule explains.
    Unexplained(Vec<String>),
    /// A strict output for an input the reference refused.
    Accepted,
    /// No strict output.
    Refused(Outcome),
}

/// Compares one result with the fixture's expected output, whose `$ref`s are inlined first.
fn observe(fixture: &Fixture, run: &Run) -> Observed {
    let outcome = run.outcome();
    if outcome != Outcome::Strict {
        return Observed::Refused(outcome);
    }
    let Some(expected) = &fixture.expected else {
        return Observed::Accepted;
    };
    let mut inlined = expected.clone();
    let options = resolve::Options::default().with_cycles(Cycles::KeepRefs);
    if resolve::dereference(&mut inlined, &Resources::new(), &options).is_err() {
        inlined = expected.clone();
    }
    let mut comparison = Comparison::default();
    comparison.schema(&inlined, &run.out, "", false);
    if !comparison.diffs.is_empty() {
        Observed::Unexplained(comparison.diffs)
    } else if comparison.used.is_empty() {
        Observed::Equal
    } else {
        Observed::Explained(comparison.used)
    }
}

/// Whether `observed` is what `design` says, with the report's diagnostics as witnesses; `Err` says why not.
fn matches(design: Design, observed: &Observed, run: &Run) -> Result<(), String> {
    let witnessed = |ids: &[&str]| ids.iter().any(|id| run.changes.contains(*id));
    match (design, observed) {
        (Rules(rules), Observed::Explained(used)) => {
            let listed: BTreeSet<Rule> = rules.iter().copied().collect();
            if &listed != used {
                return Err(format!(
                    "the differences need {used:?}, the table names {listed:?}"
                ));
            }
            match rules.iter().find(|rule| !witnessed(rule.change_ids())) {
                Some(rule) => Err(format!(
                    "{rule:?} explains a difference, but the report records none of {:?}",
                    rule.change_ids()
                )),
                None => Ok(()),
            }
        }
        (Accepts(ids), Observed::Accepted) => match ids.iter().find(|id| !witnessed(&[id])) {
            Some(id) => Err(format!("the report records no `{id}` change")),
            None => Ok(()),
        },
        (Narrows(ids), observed) if !matches!(observed, Observed::Refused(_)) => {
            if !run.report.narrowed {
                return Err("the table says it narrows, the report is not narrowed".to_owned());
            }
            match ids.iter().find(|id| !witnessed(&[id])) {
                Some(id) => Err(format!("the report records no `{id}` change")),
                None => Ok(()),
            }
        }
        (Demotes(kind), Observed::Refused(Outcome::Demoted(actual)))
        | (FallsBack(kind), Observed::Refused(Outcome::Fallback(actual)))
            if kind == *actual =>
        {
            Ok(())
        }
        (design, observed) => Err(format!(
            "the table says {design:?}, the result is {observed:?}"
        )),
    }
}

#[test]
fn strict_fixtures_pass_the_strict_check_and_every_difference_is_classified() {
    let Some(root) = testdata::require("strict_fixtures") else {
        return;
    };
    let fixtures = fixtures(&root);
    assert!(
        fixtures.len() > 100,
        "found only {} fixtures",
        fixtures.len()
    );

    let mut problems = Vec::new();
    let mut table: BTreeMap<&str, Design> = BTreeMap::new();
    for &(name, design, section, reason) in BY_DESIGN {
        if table.insert(name, design).is_some() {
            problems.push(format!("{name}: listed twice in BY_DESIGN"));
        }
        if section.is_empty() || reason.trim().is_empty() {
            problems.push(format!(
                "{name}: a by-design entry needs the rules it follows and a reason"
            ));
        }
        if BUGS.iter().any(|&(bug, _)| bug == name) {
            problems.push(format!("{name}: listed both as by design and as a bug"));
        }
    }
    for &(name, reason) in BUGS {
        if !reason.starts_with("bug: ") {
            problems.push(format!("{name}: a bug's reason starts with \"bug: \""));
        }
    }

    let mut used: BTreeSet<&str> = BTreeSet::new();
    let mut counts = [0usize; 3];
    let mut details: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut classified = xfail::Run::new();
    for fixture in &fixtures {
        let entry = table.get(fixture.name.as_str()).copied();
        let mut failures = Vec::new();
        let mut equal = 0;
        for target in TARGETS {
            let run = match run(&fixture.input, target) {
                Ok(run) => run,
                Err(err) => {
                    failures.push(format!("{target}: {err}"));
                    continue;
                }
            };
            let observed = observe(fixture, &run);
            match (&observed, entry) {
                (Observed::Equal, None) => equal += 1,
                (Observed::Equal, Some(_)) => failures.push(format!(
                    "{target}: equal after inlining, so the by-design entry is not used"
                )),
                (Observed::Unexplained(diffs), entry) if !matches!(entry, Some(Narrows(_))) => {
                    failures.push(format!(
                        "{target}: unexplained differences: {}",
                        diffs.join("; ")
                    ));
                }
                (_, None) => {
                    failures.push(format!("{target}: {observed:?} and no by-design entry"));
                }
                (_, Some(design)) => {
                    if let Err(err) = matches(design, &observed, &run) {
                        failures.push(format!("{target}: {err}"));
                    }
                }
            }
        }
        if let Some((name, _)) = table.get_key_value(fixture.name.as_str()) {
            used.insert(name);
        }
        let ok = failures.is_empty();
        if ok {
            counts[usize::from(equal != TARGETS.len())] += 1;
        } else if BUGS.iter().any(|&(bug, _)| bug == fixture.name) {
            counts[2] += 1;
        } else {
            details.insert(fixture.name.clone(), failures);
        }
        classified.record(fixture.name.clone(), ok);
    }
    for name in table.keys().filter(|name| !used.contains(*name)) {
        problems.push(format!("{name}: a by-design entry that names no fixture"));
    }

    eprintln!(
        "suite: strict fixtures: {} pairs, {} (a) equal after inlining, {} (b) by design, {} (c) bugs",
        fixtures.len(),
        counts[0],
        counts[1],
        counts[2]
    );
    // The counts the README publishes (under the current keyword profile, the default).
    assert_eq!(
        (fixtures.len(), counts),
        (108, [19, 89, 0]),
        "pairs and (a), (b), (c) counts"
    );
    if let Err(report) = classified.check("strict fixtures", BUGS) {
        problems.push(report);
    }
    for (name, failures) in &details {
        problems.push(format!("{name}:\n    {}", failures.join("\n    ")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_comparison_explains_only_what_a_rule_covers() {
    let compare = |expected: Value, ours: Value| {
        let mut comparison = Comparison::default();
        comparison.schema(&expected, &ours, "", false);
        (
            comparison.used.into_iter().collect::<Vec<_>>(),
            comparison.diffs.len(),
        )
    };
    // A lifted `default` and an optional made nullable are explained; description text is ignored.
    let expected = json!({"type": "object", "properties": {"b": {"type": "integer", "default": 5}}, "required": ["b"]});
    let ours = json!({
        "type": "object",
        "properties": {"b": {"anyOf": [{"type": "integer"}, {"type": "null"}], "description": "(default: 5)"}},
        "required": ["b"]
    });
    assert_eq!(
        compare(expected, ours),
        (vec![KeepList, NullableOptional], 0)
    );
    // A split type array and an inferred type are explained.
    let expected = json!({"type": ["string", "null"], "title": "T"});
    let ours = json!({"anyOf": [{"type": "string", "title": "T"}, {"type": "null"}]});
    assert_eq!(compare(expected, ours), (vec![SplitTypeArray], 0));
    assert_eq!(
        compare(
            json!({"const": "a"}),
            json!({"const": "a", "type": "string"})
        ),
        (vec![InferType], 0)
    );
    // A kept keyword that differs, a lost property, a wrong inferred type and a null wrapper outside `properties`
    // are not explained.
    assert_eq!(compare(json!({"enum": ["a"]}), json!({"enum": ["b"]})).1, 1);
    let expected = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    assert_eq!(
        compare(expected, json!({"type": "object", "properties": {}})).1,
        1
    );
    assert_eq!(
        compare(json!({"const": 1}), json!({"const": 1, "type": "string"})).1,
        1
    );
    let expected = json!({"type": "array", "items": {"type": "string"}});
    let ours = json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "null"}]}});
    assert_eq!(compare(expected, ours), (vec![], 2));
}

/// A structural comparison of an expected output with ours that records which rules explain each difference.
#[derive(Default)]
struct Comparison {
    used: BTreeSet<Rule>,
    diffs: Vec<String>,
}

impl Comparison {
    /// Compares two schemas at pointer `at`; `property` says they are the values of a `properties` member.
    fn schema(&mut self, expected: &Value, ours: &Value, at: &str, property: bool) {
        let (Value::Object(e), Value::Object(o)) = (expected, ours) else {
            if expected != ours {
                self.diffs
                    .push(format!("{at}: expected {expected}, found {ours}"));
            }
            return;
        };
        if property
            && !llmshim_strict::admits_null(expected)
            && let Some(inner) = nullable_wrapper(o)
        {
            self.used.insert(NullableOptional);
            self.schema(expected, inner, &format!("{at}/anyOf/0"), false);
            return;
        }
        if e.get("type").is_some_and(Value::is_array)
            && !o.contains_key("type")
            && o.contains_key("anyOf")
        {
            self.used.insert(SplitTypeArray);
            let split = split_type_array(e);
            self.schema(&split, ours, at, false);
            return;
        }
        for (key, e_value) in e.iter().filter(|(key, _)| *key != "description") {
            match o.get(key) {
                Some(o_value) => self.keyword(key, e_value, o_value, &format!("{at}/{key}")),
                None if META.contains(&key.as_str()) => {
                    self.used.insert(Meta);
                }
                None if !llmshim_strict::is_kept(key) => {
                    self.used.insert(KeepList);
                }
                None => self.diffs.push(format!("{at}: `{key}` is missing")),
            }
        }
        for (key, o_value) in o
            .iter()
            .filter(|(key, _)| *key != "description" && !e.contains_key(*key))
        {
            if key == "type" && inferred_type(e).as_ref() == Some(o_value) {
                self.used.insert(InferType);
            } else {
                self.diffs
                    .push(format!("{at}: unexpected `{key}`: {o_value}"));
            }
        }
    }

    /// Compares the values of one keyword by its class.
    fn keyword(&mut self, key: &str, expected: &Value, ours: &Value, at: &str) {
        match key {
            "properties" | "patternProperties" | "dependentSchemas" | "$defs" | "definitions" => {
                let (Value::Object(e), Value::Object(o)) = (expected, ours) else {
                    self.literal(expected, ours, at);
                    return;
                };
                for (name, e_value) in e {
                    match o.get(name) {
                        Some(o_value) => self.schema(
                            e_value,
                            o_value,
                            &format!("{at}/{name}"),
                            key == "properties",
                        ),
                        None => self.diffs.push(format!("{at}: member `{name}` is missing")),
                    }
                }
                for name in o.keys().filter(|name| !e.contains_key(*name)) {
                    self.diffs.push(format!("{at}: unexpected member `{name}`"));
                }
            }
            "items"
            | "contains"
            | "additionalProperties"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "propertyNames"
            | "not"
            | "if"
            | "then"
            | "else" => self.schema(expected, ours, at, false),
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => match (expected, ours) {
                (Value::Array(e), Value::Array(o)) if e.len() == o.len() => {
                    for (i, (e_value, o_value)) in e.iter().zip(o).enumerate() {
                        self.schema(e_value, o_value, &format!("{at}/{i}"), false);
                    }
                }
                _ => self.literal(expected, ours, at),
            },
            _ => self.literal(expected, ours, at),
        }
    }

    fn literal(&mut self, expected: &Value, ours: &Value, at: &str) {
        if expected != ours {
            self.diffs
                .push(format!("{at}: expected {expected}, found {ours}"));
        }
    }
}

/// The inner schema of a `strict.nullable-optional` wrapper `{"anyOf": [schema, {"type": "null"}], "description"?}`.
fn nullable_wrapper(node: &Map<String, Value>) -> Option<&Value> {
    if node
        .keys()
        .any(|key| key != "anyOf" && key != "description")
    {
        return None;
    }
    match node
        .get("anyOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        Some([inner, null]) if *null == json!({"type": "null"}) => Some(inner),
        _ => None,
    }
}

/// The strict split (`walk.split-type-array`) of a node with a type array, description ignored: one pruned branch per
/// type name.
fn split_type_array(node: &Map<String, Value>) -> Value {
    let names = node["type"].as_array().cloned().unwrap_or_default();
    let branches: Vec<Value> = names
        .iter()
        .map(|name| {
            if name == "null" {
                return json!({"type": "null"});
            }
            let mut branch = node.clone();
            branch.remove("description");
            branch.insert("type".to_owned(), name.clone());
            let pruned: &[&str] = match name.as_str() {
                Some("object") => &[
                    "items",
                    "prefixItems",
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                    "multipleOf",
                ],
                Some("array") => &[
                    "properties",
                    "required",
                    "additionalProperties",
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                    "multipleOf",
                ],
                Some("integer" | "number") => &[
                    "properties",
                    "required",
                    "additionalProperties",
                    "items",
                    "prefixItems",
                ],
                _ => &[
                    "properties",
                    "required",
                    "additionalProperties",
                    "items",
                    "prefixItems",
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                    "multipleOf",
                ],
            };
            for key in pruned {
                branch.remove(*key);
            }
            Value::Object(branch)
        })
        .collect();
    json!({"anyOf": branches})
}

/// The type `walk.infer-type` infers for an untyped node, if any.
fn inferred_type(node: &Map<String, Value>) -> Option<Value> {
    let kind = llmshim_core::keyword::literal_type;
    let name = if node.contains_key("properties") {
        Some("object")
    } else if let Some(value) = node.get("const") {
        kind(value)
    } else if let Some(Value::Array(values)) = node.get("enum") {
        let kinds: BTreeSet<Option<&str>> = values.iter().map(kind).collect();
        match kinds.into_iter().collect::<Vec<_>>().as_slice() {
            [Some(one)] => Some(*one),
            _ => None,
        }
    } else {
        None
    };
    name.map(|name| Value::String(name.to_owned()))
}
