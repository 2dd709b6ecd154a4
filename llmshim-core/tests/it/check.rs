//! The structural check: every row S1 to S18 failing and passing, and the order of violations.

use llmshim_core::keep::{Conditional, KeepSet, KeepSets};
use llmshim_core::pattern_subset::PatternSubset;
use llmshim_core::rules::{Booleans, Root};
use llmshim_core::{
    Budget, FallbackKind, Keywords, Nullable, Recursion, RuleSet, StrictProfile, check,
};
use serde_json::{Value, json};

use FallbackKind::{
    BooleanSchema, BudgetDepth, InvalidSchema, RefCycle, StrictUnsupported, TargetUnsupported,
};

/// The `(kind, pointer)` of every violation with the given rules, mode, policy and depth limit.
fn found_with(
    schema: &Value,
    rules: &RuleSet,
    strict: bool,
    nullable: Nullable,
    max_depth: usize,
) -> Vec<(FallbackKind, String)> {
    let budget = Budget::default().with_max_depth(max_depth);
    let options = check::Options::new(rules)
        .with_strict(strict)
        .with_nullable(nullable)
        .with_budget(&budget);
    let all = check::check(schema, &options);
    let first = check::first(schema, &options);
    assert_eq!(first.as_ref(), all.first(), "first is the first of check");
    for reason in &all {
        assert!(!reason.message.is_empty(), "{reason}");
        assert!(
            !reason.message.starts_with(|c: char| c.is_uppercase()),
            "{reason}"
        );
        assert!(!reason.message.ends_with('.'), "{reason}");
    }
    all.into_iter().map(|r| (r.kind, r.pointer)).collect()
}

/// The violations with `rules`, non-strict, under `Preserve`.
fn found(schema: &Value, rules: &RuleSet) -> Vec<(FallbackKind, String)> {
    found_with(
        schema,
        rules,
        false,
        Nullable::Preserve,
        Budget::DEFAULT_MAX_DEPTH,
    )
}

/// The violations with the permissive rule set under strict.
fn found_strict(schema: &Value) -> Vec<(FallbackKind, String)> {
    found_with(
        schema,
        &RuleSet::new(),
        true,
        Nullable::Preserve,
        Budget::DEFAULT_MAX_DEPTH,
    )
}

/// The violations with the permissive rule set, non-strict.
fn found_plain(schema: &Value) -> Vec<(FallbackKind, String)> {
    found(schema, &RuleSet::new())
}

/// Expected violations, written compactly.
fn at(list: &[(FallbackKind, &str)]) -> Vec<(FallbackKind, String)> {
    list.iter().map(|(k, p)| (*k, (*p).to_owned())).collect()
}

/// A strict-clean object with one property `a` holding `schema`.
fn strict_object(schema: &Value) -> Value {
    json!({"type": "object", "properties": {"a": schema}, "required": ["a"], "additionalProperties": false})
}

fn chain() -> Value {
    json!({"properties": {"a": {"properties": {"b": {"properties": {"c": {"type": "bad"}}}}}}})
}

#[test]
fn s1_depth_is_checked_before_descending() {
    let fails = found_with(&chain(), &RuleSet::new(), false, Nullable::Preserve, 2);
    assert_eq!(
        fails,
        at(&[(BudgetDepth, "/properties/a/properties/b/properties/c")])
    );

    let schema =
        json!({"properties": {"a": {"properties": {"x": {"type": "bad"}, "y": {}}}, "b": {}}});
    let fails = found_with(&schema, &RuleSet::new(), false, Nullable::Preserve, 1);
    assert_eq!(
        fails,
        at(&[
            (BudgetDepth, "/properties/a/properties/x"),
            (BudgetDepth, "/properties/a/properties/y")
        ])
    );

    let passes = found_with(&chain(), &RuleSet::new(), false, Nullable::Preserve, 3);
    assert_eq!(
        passes,
        at(&[(InvalidSchema, "/properties/a/properties/b/properties/c")])
    );
    let passes = found_with(
        &json!({"type": "string"}),
        &RuleSet::new(),
        false,
        Nullable::Preserve,
        0,
    );
    assert!(passes.is_empty());
}

#[test]
fn s2_booleans_fail_under_strict_or_when_rejected() {
    let schema = strict_object(&json!(true));
    assert_eq!(
        found_strict(&schema),
        at(&[(BooleanSchema, "/properties/a")])
    );
    let reject = RuleSet::new().with_booleans(Booleans::Reject);
    assert_eq!(
        found(&schema, &reject),
        at(&[(BooleanSchema, "/properties/a")])
    );
    assert_eq!(found(&json!(false), &reject), at(&[(BooleanSchema, "")]));

    assert!(found_plain(&schema).is_empty());
    assert!(found_plain(&json!(true)).is_empty());
}

#[test]
fn s2_skips_a_boolean_additional_properties_and_a_boolean_items_beside_prefix_items() {
    let reject = RuleSet::new().with_booleans(Booleans::Reject);
    let schema = json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false});
    assert!(found(&schema, &reject).is_empty());
    let schema = json!({"type": "object", "additionalProperties": false});
    assert!(found(&schema, &reject).is_empty());
    assert!(
        found_strict(&json!({"type": "object", "properties": {}, "additionalProperties": false}))
            .is_empty()
    );

    let schema = json!({"type": "array", "items": false});
    assert_eq!(found(&schema, &reject), at(&[(BooleanSchema, "/items")]));
    let schema = json!({"type": "array", "prefixItems": [true]});
    assert_eq!(
        found(&schema, &reject),
        at(&[(BooleanSchema, "/prefixItems/0")])
    );
}

#[test]
fn s3_a_node_must_be_an_object_or_a_boolean() {
    let schema = json!({"properties": {"a": 5, "b": null}, "items": [{}], "anyOf": ["x"]});
    assert_eq!(
        found_plain(&schema),
        at(&[
            (InvalidSchema, "/properties/a"),
            (InvalidSchema, "/properties/b"),
            (InvalidSchema, "/items"),
            (InvalidSchema, "/anyOf/0"),
        ])
    );
    assert_eq!(found_plain(&json!("string")), at(&[(InvalidSchema, "")]));
    assert!(
        found_plain(&json!({"properties": {"a": {}, "b": true}, "items": {}, "anyOf": [{}]}))
            .is_empty()
    );
}

#[test]
fn s4_type_must_be_a_name_or_an_allowed_array() {
    for ty in [
        json!("text"),
        json!("Object"),
        json!(5),
        json!(null),
        json!([]),
        json!(["string", "text"]),
        json!(["string", 1]),
        json!({"a": "string"}),
    ] {
        let schema = json!({"type": ty});
        assert_eq!(found_plain(&schema), at(&[(InvalidSchema, "")]), "{schema}");
    }
    for name in [
        "null", "boolean", "object", "array", "number", "integer", "string",
    ] {
        assert!(found_plain(&json!({"type": name})).is_empty(), "{name}");
    }
    assert!(found_plain(&json!({"type": ["string", "null"]})).is_empty());
    assert!(found_plain(&json!({"type": ["integer"]})).is_empty());
}

#[test]
fn s4_a_valid_type_array_is_unsupported_under_strict_or_a_nullable_policy() {
    let schema = json!({"type": ["string", "null"]});
    assert_eq!(found_strict(&schema), at(&[(TargetUnsupported, "")]));
    for nullable in [Nullable::Marker, Nullable::Remove] {
        let fails = found_with(
            &schema,
            &RuleSet::new(),
            false,
            nullable,
            Budget::DEFAULT_MAX_DEPTH,
        );
        assert_eq!(fails, at(&[(TargetUnsupported, "")]), "{nullable:?}");
    }
    let invalid = json!({"type": ["string", "text"]});
    assert_eq!(found_strict(&invalid), at(&[(InvalidSchema, "")]));
    let fails = found_with(
        &invalid,
        &RuleSet::new(),
        false,
        Nullable::Marker,
        Budget::DEFAULT_MAX_DEPTH,
    );
    assert_eq!(fails, at(&[(InvalidSchema, "")]));
}

#[test]
fn s5_a_node_needs_type_or_any_of_under_strict_or_when_required() {
    assert_eq!(found_strict(&json!({})), at(&[(StrictUnsupported, "")]));
    assert_eq!(
        found_strict(&strict_object(&json!({"description": "untyped"}))),
        at(&[(StrictUnsupported, "/properties/a")])
    );
    let typed = RuleSet::new().with_require_type(true);
    assert_eq!(
        found(&json!({"properties": {"a": {}}}), &typed),
        at(&[
            (TargetUnsupported, ""),
            (TargetUnsupported, "/properties/a")
        ])
    );
    let both = found_with(
        &json!({}),
        &typed,
        true,
        Nullable::Preserve,
        Budget::DEFAULT_MAX_DEPTH,
    );
    assert_eq!(both, at(&[(StrictUnsupported, "")]));

    assert!(found_strict(&json!({"anyOf": [{"type": "string"}]})).is_empty());
    assert!(found(&json!({"anyOf": [{"type": "string"}]}), &typed).is_empty());
    assert!(found_plain(&json!({"properties": {"a": {}}})).is_empty());
}

#[test]
fn s6_null_type_where_forbidden() {
    let no_null = RuleSet::new().with_forbid_null_type(true);
    let schema = json!({"anyOf": [{"type": "string"}, {"type": "null"}]});
    assert_eq!(
        found(&schema, &no_null),
        at(&[(TargetUnsupported, "/anyOf/1")])
    );
    assert!(found_plain(&schema).is_empty());
    assert!(found(&json!({"type": "string", "nullable": true}), &no_null).is_empty());
}

#[test]
fn s6_keys_outside_the_keep_list() {
    static KEEP: [&str; 4] = ["type", "properties", "description", "required"];
    let keep = RuleSet::new().with_keep(Some(KeepSets::same(KeepSet::names(&KEEP))));
    let schema = json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "^a", "x-ui": 1}}});
    let all = check::check(&schema, &check::Options::new(&keep));
    let seen: Vec<(FallbackKind, &str, &str)> = all
        .iter()
        .map(|r| (r.kind, r.pointer.as_str(), r.message.as_str()))
        .collect();
    assert_eq!(seen.len(), 2);
    assert_eq!((seen[0].0, seen[0].1), (TargetUnsupported, "/properties/a"));
    assert!(seen[0].2.contains("pattern"), "{}", seen[0].2);
    assert!(seen[1].2.contains("x-ui"), "{}", seen[1].2);

    let clean = json!({"type": "object", "description": "d", "properties": {"a": {"type": "string"}}, "required": ["a"]});
    assert!(found(&clean, &keep).is_empty());
    assert!(found_plain(&schema).is_empty());
}

/// A keep-list whose current list keeps `maxLength` as a count and `pattern` without lookarounds, and whose
/// conservative list keeps neither.
fn profiled() -> RuleSet {
    const NAMES: &[&str] = &["type", "properties", "description"];
    const CURRENT: KeepSet = KeepSet::names(NAMES).with_conditional(&[
        Conditional::count("maxLength"),
        Conditional::pattern("pattern", PatternSubset::new().without_lookarounds()),
    ]);
    RuleSet::new().with_keep(Some(KeepSets::new(CURRENT, KeepSet::names(NAMES))))
}

fn found_under(
    schema: &Value,
    rules: &RuleSet,
    strict: bool,
    keywords: Keywords,
) -> Vec<(FallbackKind, String)> {
    let options = check::Options::new(rules)
        .with_strict(strict)
        .with_keywords(keywords);
    check::check(schema, &options)
        .into_iter()
        .map(|r| (r.kind, r.pointer))
        .collect()
}

#[test]
fn s6_holds_keys_and_values_to_the_keep_list_of_the_keyword_profile() {
    let rules = profiled();
    let kept = json!({"type": "object", "properties": {"a": {"type": "string", "maxLength": 3, "pattern": "^a+$"}}});
    assert!(found_under(&kept, &rules, false, Keywords::Current).is_empty());
    assert_eq!(
        found_under(&kept, &rules, false, Keywords::Conservative),
        at(&[
            (TargetUnsupported, "/properties/a"),
            (TargetUnsupported, "/properties/a")
        ])
    );
    // A value the condition refuses: a fractional count, a pattern with a lookaround, a malformed pattern.
    for bad in [
        json!({"maxLength": 1.5}),
        json!({"pattern": "^(?!x)a$"}),
        json!({"pattern": "(a"}),
    ] {
        let mut node = json!({"type": "string"});
        for (k, v) in bad.as_object().into_iter().flatten() {
            node[k] = v.clone();
        }
        let schema = json!({"type": "object", "properties": {"a": node}});
        let all = check::check(&schema, &check::Options::new(&rules));
        assert_eq!(all.len(), 1, "{schema}");
        assert!(
            all[0].message.contains("only with another value"),
            "{}",
            all[0].message
        );
    }
}

#[test]
fn the_strict_row_holds_keys_and_values_to_the_strict_keep_list_of_the_keyword_profile() {
    const CURRENT: KeepSet = KeepSet::STRICT.with_conditional(&[
        Conditional::one_of("format", &["date"]),
        Conditional::count_at_most("minItems", 1),
    ]);
    let rules = RuleSet::new().with_strict(Some(
        StrictProfile::new(None, None).with_keep(KeepSets::new(CURRENT, KeepSet::STRICT)),
    ));
    let closed = |node: Value| json!({"type": "object", "properties": {"a": node}, "required": ["a"], "additionalProperties": false});
    let date = closed(json!({"type": "string", "format": "date"}));
    let uri = closed(json!({"type": "string", "format": "uri"}));
    let one = closed(json!({"type": "array", "items": {"type": "string"}, "minItems": 1}));
    let two = closed(json!({"type": "array", "items": {"type": "string"}, "minItems": 2}));
    assert!(found_under(&date, &rules, true, Keywords::Current).is_empty());
    assert!(found_under(&one, &rules, true, Keywords::Current).is_empty());
    for schema in [&uri, &two] {
        assert_eq!(
            found_under(schema, &rules, true, Keywords::Current),
            at(&[(StrictUnsupported, "/properties/a")])
        );
    }
    for schema in [&date, &one] {
        assert_eq!(
            found_under(schema, &rules, true, Keywords::Conservative),
            at(&[(StrictUnsupported, "/properties/a")])
        );
    }
    // Without strict the strict keep-list does not apply.
    assert!(found_under(&uri, &rules, false, Keywords::Current).is_empty());
}

#[test]
fn s7_forbidden_keys() {
    static FORBIDDEN: [&str; 2] = ["allOf", "oneOf"];
    let rules = RuleSet::new().with_forbidden(&FORBIDDEN);
    let schema = json!({"type": "object", "properties": {"a": {"type": "string", "oneOf": [{"type": "string"}]}}});
    assert_eq!(
        found(&schema, &rules),
        at(&[(TargetUnsupported, "/properties/a")])
    );
    assert!(found(&json!({"anyOf": [{"type": "string"}]}), &rules).is_empty());
    assert!(found_plain(&schema).is_empty());
}

#[test]
fn s8_any_of_must_stand_alone_where_isolated() {
    let rules = RuleSet::new().with_isolate_any_of(true);
    let schema = json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "d"});
    assert_eq!(found(&schema, &rules), at(&[(TargetUnsupported, "")]));
    assert!(
        found(
            &json!({"anyOf": [{"type": "string", "description": "d"}]}),
            &rules
        )
        .is_empty()
    );
    assert!(found(&json!({"type": "string", "description": "d"}), &rules).is_empty());
    assert!(found_plain(&schema).is_empty());
}

#[test]
fn s9_all_of_under_strict() {
    let schema = json!({"type": "string", "allOf": [{"type": "string"}, {"type": "string"}]});
    assert_eq!(found_strict(&schema), at(&[(StrictUnsupported, "")]));
    assert!(found_plain(&schema).is_empty());
}

#[test]
fn s10_references_and_definitions_left_over() {
    let schema =
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {}}});
    assert_eq!(
        found_plain(&schema),
        at(&[(InvalidSchema, ""), (InvalidSchema, "/properties/a")])
    );
    assert!(
        found_plain(&json!({"type": "object", "properties": {"a": {"type": "string"}}})).is_empty()
    );
}

/// The `(kind, pointer)` of every violation when recursive references are kept.
fn found_kept(schema: &Value, rules: &RuleSet) -> Vec<(FallbackKind, String)> {
    let options = check::Options::new(rules).with_recursion(Recursion::KEEP_REFS);
    let all = check::check(schema, &options);
    let first = check::first(schema, &options);
    assert_eq!(first.as_ref(), all.first(), "first is the first of check");
    all.into_iter().map(|r| (r.kind, r.pointer)).collect()
}

/// A keep-list without `$defs`, for the kept-reference rows.
static KEPT_KEEP: [&str; 3] = ["type", "properties", "items"];

#[test]
fn s10_kept_references_stand_alone_and_point_into_the_root_definitions() {
    let tree = json!({"type": "object", "properties": {"t": {"$ref": "#/$defs/T"}, "self": {"$ref": "#"}},
        "$defs": {"T": {"type": "array", "items": {"$ref": "#/$defs/T"}}}});
    assert!(found_kept(&tree, &RuleSet::new()).is_empty());
    // Without kept references the same schema fails at the root's `$defs` and at each site.
    assert_eq!(
        found_plain(&tree),
        at(&[
            (InvalidSchema, ""),
            (InvalidSchema, "/properties/t"),
            (InvalidSchema, "/properties/self")
        ])
    );
    // A sibling, a name the root does not define, another form, or `$defs` below the root all fail.
    let bad = json!({"type": "object", "properties": {
        "sibling": {"$ref": "#/$defs/T", "description": "x"},
        "missing": {"$ref": "#/$defs/U"},
        "pointer": {"$ref": "#/properties/sibling"},
        "nested": {"type": "object", "$defs": {"V": {}}}
    }, "$defs": {"T": {"type": "string"}}});
    assert_eq!(
        found_kept(&bad, &RuleSet::new()),
        at(&[
            (InvalidSchema, "/properties/sibling"),
            (InvalidSchema, "/properties/missing"),
            (InvalidSchema, "/properties/pointer"),
            (InvalidSchema, "/properties/nested"),
        ])
    );
    // The definitions are checked once each, at their own pointer, and the keep-list ignores the root's `$defs`.
    let keep = RuleSet::new().with_keep(Some(KeepSets::same(KeepSet::names(&KEPT_KEEP))));
    let defs = json!({"type": "object", "properties": {"t": {"$ref": "#/$defs/T"}},
        "$defs": {"T": {"type": "array", "items": {"$ref": "#/$defs/T"}, "minItems": 1}}});
    assert_eq!(
        found_kept(&defs, &keep),
        at(&[(TargetUnsupported, "/$defs/T")])
    );
    // A definition that is only a reference leading back to itself says nothing: it fails, as does each member of
    // such a loop, while a chain of references that ends in a schema passes.
    let alias = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/B"}},
        "$defs": {"A": {"$ref": "#/$defs/A"}, "B": {"$ref": "#/$defs/C"}, "C": {"$ref": "#/$defs/B"}}});
    assert_eq!(
        found_kept(&alias, &RuleSet::new()),
        at(&[
            (RefCycle, "/$defs/A"),
            (RefCycle, "/$defs/B"),
            (RefCycle, "/$defs/C")
        ])
    );
    let chain = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "array", "items": {"$ref": "#/$defs/A"}}}});
    assert!(found_kept(&chain, &RuleSet::new()).is_empty());
}

#[test]
fn s11_required_is_an_array_of_unique_strings_also_without_strict() {
    for required in [
        json!("a"),
        json!([1]),
        json!(["a", "a"]),
        json!({}),
        json!(null),
    ] {
        let schema = json!({"type": "object", "required": required});
        assert_eq!(found_plain(&schema), at(&[(InvalidSchema, "")]), "{schema}");
    }
    for required in [json!([]), json!(["a", "b"])] {
        assert!(found_plain(&json!({"type": "object", "required": required})).is_empty());
    }
}

#[test]
fn s12_annotations_are_strings() {
    let schema =
        json!({"type": "string", "pattern": {}, "title": 1, "format": [], "description": null});
    assert_eq!(found_plain(&schema), at(&[(InvalidSchema, ""); 4]));
    let schema = json!({"type": "string", "pattern": "^a", "title": "t", "format": "email", "description": ""});
    assert!(found_plain(&schema).is_empty());
    // Each annotation on its own, beside others that pass, and a key ending like one that is not one.
    for key in ["pattern", "title", "format", "description"] {
        let mut schema = json!({"type": "string", "pattern": "^a", "title": "t", "format": "email", "description": ""});
        schema[key] = json!(1);
        assert_eq!(found_plain(&schema), at(&[(InvalidSchema, "")]), "{schema}");
    }
    assert!(found_plain(&json!({"type": "string", "x-title": 1})).is_empty());
}

#[test]
fn s13_enum_is_a_non_empty_array_and_nullable_a_boolean() {
    for schema in [
        json!({"enum": []}),
        json!({"enum": "a"}),
        json!({"enum": null}),
        json!({"nullable": "yes"}),
        json!({"nullable": 1}),
    ] {
        assert_eq!(found_plain(&schema), at(&[(InvalidSchema, "")]), "{schema}");
    }
    assert!(found_plain(&json!({"enum": [null], "nullable": false})).is_empty());
}

#[test]
fn s14_bounds_are_numbers() {
    let schema = json!({
        "type": "number", "minimum": "1", "maximum": null, "exclusiveMinimum": true,
        "exclusiveMaximum": [], "multipleOf": {}
    });
    assert_eq!(found_plain(&schema), at(&[(InvalidSchema, ""); 5]));
    let schema = json!({
        "type": "number", "minimum": -1, "maximum": 1.5, "exclusiveMinimum": -2.5,
        "exclusiveMaximum": 1e21, "multipleOf": 0.1
    });
    assert!(found_plain(&schema).is_empty());
    // Each bound on its own.
    for key in [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ] {
        let mut schema = json!({"type": "number"});
        schema[key] = json!("1");
        assert_eq!(found_plain(&schema), at(&[(InvalidSchema, "")]), "{schema}");
    }
}

#[test]
fn s15_a_strict_object_is_closed_and_requires_every_property() {
    assert_eq!(
        found_strict(&json!({"type": "object"})),
        at(&[(StrictUnsupported, ""), (StrictUnsupported, "")])
    );
    let open = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": true});
    assert_eq!(found_strict(&open), at(&[(StrictUnsupported, "")]));
    let not_an_object = json!({"type": "object", "properties": [], "additionalProperties": false});
    assert_eq!(found_strict(&not_an_object), at(&[(StrictUnsupported, "")]));
    for required in [
        json!(["a"]),
        json!(["a", "b", "c"]),
        json!(["b", "c"]),
        json!("a"),
    ] {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "required": required,
            "additionalProperties": false
        });
        let fails = found_strict(&schema);
        assert!(
            fails.contains(&(StrictUnsupported, String::new())),
            "{schema}"
        );
    }
    let missing = json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false});
    assert_eq!(found_strict(&missing), at(&[(StrictUnsupported, "")]));

    assert!(found_strict(&strict_object(&json!({"type": "string"}))).is_empty());
    // The one strict check asks for the declared order, which strict closing writes.
    let reordered = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "required": ["b", "a"],
        "additionalProperties": false
    });
    assert_eq!(found_strict(&reordered), at(&[(StrictUnsupported, "")]));
    assert!(
        found_strict(&json!({"type": "object", "properties": {}, "additionalProperties": false}))
            .is_empty()
    );
    assert!(found_strict(&json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})).is_empty());
    assert!(found_plain(&json!({"type": "object"})).is_empty());
}

#[test]
fn s16_a_strict_array_has_items() {
    assert_eq!(
        found_strict(&json!({"type": "array"})),
        at(&[(StrictUnsupported, "")])
    );
    assert!(found_strict(&json!({"type": "array", "items": {"type": "string"}})).is_empty());
    assert!(found_plain(&json!({"type": "array"})).is_empty());
}

#[test]
fn s17_no_prefix_items_under_strict() {
    let schema =
        json!({"type": "array", "items": {"type": "string"}, "prefixItems": [{"type": "string"}]});
    assert_eq!(found_strict(&schema), at(&[(StrictUnsupported, "")]));
    assert!(found_plain(&schema).is_empty());
}

#[test]
fn s18_an_object_root() {
    let object = RuleSet::new().with_root(Root::Object);
    assert_eq!(
        found(&json!({"type": "string"}), &object),
        at(&[(TargetUnsupported, "")])
    );
    assert_eq!(
        found(&json!({"anyOf": [{"type": "object"}]}), &object),
        at(&[(TargetUnsupported, "")])
    );
    assert!(
        found(
            &json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            &object
        )
        .is_empty()
    );
    assert!(
        found(
            &json!({"type": "object", "anyOf": [{"type": "object"}]}),
            &object
        )
        .is_empty()
    );
    assert!(found_plain(&json!({"type": "string"})).is_empty());
}

#[test]
fn s18_a_shaped_root() {
    static SHAPED: [&str; 5] = ["anyOf", "oneOf", "allOf", "enum", "not"];
    let shaped = RuleSet::new().with_root(Root::Shaped(&SHAPED));
    let schema =
        json!({"type": "object", "not": {"type": "object"}, "anyOf": [{"type": "object"}]});
    assert_eq!(
        found(&schema, &shaped),
        at(&[(TargetUnsupported, ""), (TargetUnsupported, "")])
    );
    assert_eq!(
        found(&json!({"type": "string"}), &shaped),
        at(&[(TargetUnsupported, "")])
    );
    let nested = json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}], "enum": ["x"]}}});
    assert!(found(&nested, &shaped).is_empty());
    assert!(
        found(
            &json!({"type": "object", "if": {"type": "object"}}),
            &shaped
        )
        .is_empty()
    );
    let any = RuleSet::new().with_root(Root::Any);
    assert!(found(&schema, &any).is_empty());
}

#[test]
fn check_reports_every_violation_in_document_order() {
    let schema = json!({
        "type": "text",
        "required": "a",
        "properties": {
            "a": {"type": "string", "title": 1, "$ref": "#"},
            "b": 5
        },
        "anyOf": [{"type": "integer", "minimum": "0"}],
        "items": {"enum": []},
        "default": {"type": "not checked"}
    });
    assert_eq!(
        found_plain(&schema),
        at(&[
            (InvalidSchema, ""),
            (InvalidSchema, ""),
            (InvalidSchema, "/properties/a"),
            (InvalidSchema, "/properties/a"),
            (InvalidSchema, "/properties/b"),
            (InvalidSchema, "/anyOf/0"),
            (InvalidSchema, "/items"),
        ])
    );
    let all = check::check(&schema, &check::Options::new(&RuleSet::new()));
    assert!(all[0].message.contains("type"), "{}", all[0].message);
    assert!(all[1].message.contains("required"), "{}", all[1].message);
    assert!(all[2].message.contains("$ref"), "{}", all[2].message);
    assert!(all[3].message.contains("title"), "{}", all[3].message);
}

#[test]
fn a_node_reports_its_rows_in_order() {
    let schema = json!({"type": ["string", "null"], "$defs": {}, "required": [1], "description": 2, "enum": [], "minimum": "0", "allOf": [{"type": "string"}], "prefixItems": [{"type": "string"}]});
    let fails = found_with(
        &schema,
        &RuleSet::new(),
        true,
        Nullable::Preserve,
        Budget::DEFAULT_MAX_DEPTH,
    );
    let kinds: Vec<FallbackKind> = fails.into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        kinds,
        [
            TargetUnsupported, // S4
            StrictUnsupported, // S9
            InvalidSchema,     // S10
            InvalidSchema,     // S11
            InvalidSchema,     // S12
            InvalidSchema,     // S13
            InvalidSchema,     // S14
            StrictUnsupported, // S17
            StrictUnsupported, // the strict keep-list: `$defs`
            StrictUnsupported, // the strict keep-list: `minimum`
        ]
    );
}

#[test]
fn literals_and_containers_of_the_wrong_kind_are_not_entered() {
    let schema = json!({
        "type": "object",
        "default": {"type": "bad"},
        "enum": [{"type": "bad"}],
        "$comment": {"anyOf": []},
        "properties": [{"type": "bad"}],
        "anyOf": {"a": {"type": "bad"}}
    });
    assert!(found_plain(&schema).is_empty());
}

#[test]
fn a_passing_schema_has_no_violations_and_no_first() {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "the name"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "kind": {"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "null"}]}
        },
        "required": ["name", "tags", "kind"],
        "additionalProperties": false
    });
    let rules = RuleSet::new();
    let options = check::Options::new(&rules).with_strict(true);
    assert!(check::check(&schema, &options).is_empty());
    assert_eq!(check::first(&schema, &options), None);
}
