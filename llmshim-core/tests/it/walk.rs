//! The walker: children order, positions, containers, flow, re-walks, records, snake case
//! and pathological depth.

use std::sync::Arc;

use llmshim_core::walk::{Flow, HARD_MAX_DEPTH, Hooks, Position, Rewalk, Settings, steps};
use llmshim_core::{
    Budget, ChangeKind, FallbackKind, FallbackReason, NodeCtx, Pass, RuleSet, check, json,
};
use serde_json::{Value, json};

use crate::support::{
    Recorder, nested, nested_arrays, on_small_stack, repeated, run, run_standard,
};

fn settings() -> Settings {
    Settings::new(Budget::default())
}

#[test]
fn children_follow_the_class_order_whatever_the_key_order() {
    let mut schema = json!({
        "prefixItems": [{}],
        "allOf": [{}],
        "oneOf": [{}],
        "anyOf": [{}, {}],
        "else": {},
        "then": {},
        "if": {},
        "not": {},
        "propertyNames": {},
        "unevaluatedItems": {},
        "unevaluatedProperties": {},
        "additionalProperties": {},
        "contains": {},
        "items": {},
        "dependentSchemas": {"d": {}},
        "patternProperties": {"^x": {}},
        "properties": {"z": {}, "a": {}},
        "default": {"properties": {"never": {}}},
        "$defs": {"D": {}}
    });
    let recorder = Recorder::default();
    run(&mut schema, &[&recorder], &settings()).expect("walks");
    assert_eq!(
        recorder.pointers(),
        [
            "",
            "/properties/z",
            "/properties/a",
            "/patternProperties/^x",
            "/dependentSchemas/d",
            "/items",
            "/contains",
            "/additionalProperties",
            "/unevaluatedProperties",
            "/unevaluatedItems",
            "/propertyNames",
            "/not",
            "/if",
            "/then",
            "/else",
            "/anyOf/0",
            "/anyOf/1",
            "/oneOf/0",
            "/allOf/0",
            "/prefixItems/0"
        ]
    );
}

#[test]
fn a_node_is_left_after_its_children() {
    let mut schema = json!({"properties": {"a": {"items": {}}}, "anyOf": [{}]});
    let recorder = Recorder::default();
    run(&mut schema, &[&recorder], &settings()).expect("walks");
    assert_eq!(
        *recorder.left.borrow(),
        ["/properties/a/items", "/properties/a", "/anyOf/0", ""]
    );
    assert_eq!(recorder.at("/properties/a/items").depth, 2);
}

#[test]
fn instance_describing_positions_follow_the_contract() {
    let mut schema = json!({
        "properties": {"p": {"items": {}}},
        "patternProperties": {"^x": {}},
        "dependentSchemas": {"d": {"properties": {"dp": {}}}},
        "items": {},
        "contains": {"properties": {"cp": {}}},
        "additionalProperties": {},
        "unevaluatedProperties": {},
        "unevaluatedItems": {},
        "propertyNames": {},
        "not": {"anyOf": [{"items": {}}]},
        "if": {},
        "then": {},
        "else": {},
        "anyOf": [{}],
        "oneOf": [{}],
        "allOf": [{}],
        "prefixItems": [{}]
    });
    let recorder = Recorder::default();
    run(&mut schema, &[&recorder], &settings()).expect("walks");
    let instance = [
        ("", true),
        ("/properties/p", true),
        ("/properties/p/items", true),
        ("/patternProperties/^x", true),
        ("/dependentSchemas/d", false),
        ("/dependentSchemas/d/properties/dp", false),
        ("/items", true),
        ("/contains", false),
        ("/contains/properties/cp", false),
        ("/additionalProperties", true),
        ("/unevaluatedProperties", true),
        ("/unevaluatedItems", true),
        ("/propertyNames", false),
        ("/not", false),
        ("/not/anyOf/0", false),
        ("/not/anyOf/0/items", false),
        ("/if", false),
        ("/then", false),
        ("/else", false),
        ("/anyOf/0", true),
        ("/oneOf/0", true),
        ("/allOf/0", true),
        ("/prefixItems/0", true),
    ];
    for (pointer, expected) in instance {
        assert_eq!(recorder.at(pointer).instance, expected, "{pointer}");
    }
    let roots: Vec<String> = recorder
        .entered
        .borrow()
        .iter()
        .filter(|v| v.root)
        .map(|v| v.pointer.clone())
        .collect();
    assert_eq!(roots, [""]);
}

#[test]
fn a_boolean_additional_properties_is_not_walked() {
    let reject: [&dyn Pass; 1] = [&steps::Shape::reject_booleans()];
    let mut schema = json!({"type": "object", "additionalProperties": false});
    run(&mut schema, &reject, &settings())
        .expect("a boolean additionalProperties never reaches W2");

    let recorder = Recorder::default();
    let mut schema = json!({"additionalProperties": true, "items": false});
    run(&mut schema, &[&recorder], &settings()).expect("walks");
    assert_eq!(recorder.pointers(), ["", "/items"]);
}

#[test]
fn a_boolean_items_is_not_walked_only_beside_prefix_items() {
    let reject: [&dyn Pass; 1] = [&steps::Shape::reject_booleans()];
    let mut schema = json!({"prefixItems": [{"type": "string"}], "items": false});
    run(&mut schema, &reject, &settings())
        .expect("a boolean items beside prefixItems never reaches W2");

    let mut schema = json!({"items": false});
    let err = run(&mut schema, &reject, &settings()).expect_err("a lone boolean items is a schema");
    assert_eq!(
        (err.kind, err.pointer.as_str()),
        (FallbackKind::BooleanSchema, "/items")
    );

    let mut schema = json!({"prefixItems": [true]});
    let err = run(&mut schema, &reject, &settings()).expect_err("prefixItems entries are schemas");
    assert_eq!(err.pointer, "/prefixItems/0");
}

#[test]
fn booleans_are_kept_unless_strict_or_rejected() {
    let keep: [&dyn Pass; 1] = [&steps::Shape::keep_booleans()];
    let mut schema = json!({"properties": {"free": true, "never": false}});
    run(&mut schema, &keep, &settings()).expect("booleans are kept");
    assert_eq!(
        schema,
        json!({"properties": {"free": true, "never": false}})
    );

    let err = run(&mut schema, &keep, &settings().with_strict(true)).expect_err("strict");
    assert_eq!(
        (err.kind, err.pointer.as_str()),
        (FallbackKind::BooleanSchema, "/properties/free")
    );

    let mut schema = json!({"properties": {"n": 5}});
    let err = run(&mut schema, &keep, &settings()).expect_err("a number is no schema");
    assert_eq!(
        (err.kind, err.pointer.as_str()),
        (FallbackKind::InvalidSchema, "/properties/n")
    );
}

#[test]
fn a_container_of_the_wrong_kind_fails_at_the_container() {
    let cases = [
        (json!({"properties": []}), "/properties"),
        (json!({"patternProperties": "x"}), "/patternProperties"),
        (json!({"dependentSchemas": [{}]}), "/dependentSchemas"),
        (json!({"anyOf": {}}), "/anyOf"),
        (json!({"oneOf": null}), "/oneOf"),
        (json!({"allOf": true}), "/allOf"),
        (json!({"prefixItems": {"0": {}}}), "/prefixItems"),
        (
            json!({"properties": {"a/b": {"anyOf": []}}}),
            "/properties/a~1b/anyOf",
        ),
        (json!({"anyOf": [{"allOf": []}]}), "/anyOf/0/allOf"),
        (json!({"oneOf": []}), "/oneOf"),
        (json!({"prefixItems": []}), "/prefixItems"),
    ];
    for (mut schema, pointer) in cases {
        let err = run_standard(&mut schema, &settings()).expect_err("a bad container");
        assert_eq!(err.kind, FallbackKind::InvalidSchema, "{schema}");
        assert_eq!(err.pointer, pointer, "{schema}");
    }
}

#[test]
fn a_single_child_that_is_no_schema_fails_at_its_keyword() {
    for (mut schema, pointer) in [
        (json!({"not": 5}), "/not"),
        (json!({"items": [{}]}), "/items"),
        (
            json!({"properties": {"a": {"if": "x"}}}),
            "/properties/a/if",
        ),
    ] {
        let err = run_standard(&mut schema, &settings()).expect_err("not a schema");
        assert_eq!(
            (err.kind, err.pointer.as_str()),
            (FallbackKind::InvalidSchema, pointer)
        );
    }
}

#[test]
fn lenient_children_skip_bad_containers() {
    let mut schema = json!({"properties": [], "anyOf": [], "allOf": {}});
    run_standard(&mut schema, &settings().with_lenient_children(true))
        .expect("the resolver-only API skips them");
}

/// Ends every visit of a node that has `x-stop`.
#[derive(Debug)]
struct Stopper;

impl Pass for Stopper {
    fn name(&self) -> &'static str {
        "stopper"
    }

    fn enter(&self, node: &mut Value, _cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        Ok(if node.get("x-stop").is_some() {
            Flow::Done
        } else {
            Flow::Continue
        })
    }
}

#[test]
fn done_skips_later_passes_children_and_leave() {
    let mut schema = json!({
        "properties": {
            "a": {"x-stop": true, "properties": {"b": {}}},
            "c": {"anyOf": [{}]}
        }
    });
    let before = Recorder::default();
    let after = Recorder::default();
    run(&mut schema, &[&before, &Stopper, &after], &settings()).expect("walks");
    assert_eq!(
        before.pointers(),
        [
            "",
            "/properties/a",
            "/properties/c",
            "/properties/c/anyOf/0"
        ]
    );
    assert_eq!(
        after.pointers(),
        ["", "/properties/c", "/properties/c/anyOf/0"]
    );
    assert_eq!(
        *before.left.borrow(),
        ["/properties/c/anyOf/0", "/properties/c", ""]
    );
}

/// Walks the value of `x-sub` again with the given instructions, then puts it back.
#[derive(Debug)]
struct Rewalker(Rewalk);

impl Pass for Rewalker {
    fn name(&self) -> &'static str {
        "rewalker"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        let Some(mut sub) = map.shift_remove("x-sub") else {
            return Ok(Flow::Continue);
        };
        cx.rewalk(&mut sub, &self.0)?;
        map.insert("x-walked".to_owned(), sub);
        Ok(Flow::Continue)
    }
}

#[test]
fn a_rewalk_visits_at_depth_plus_one_at_the_same_pointer() {
    let mut schema = json!({
        "properties": {
            "a": {"x-sub": {"properties": {"b": {}}}},
            "c": {}
        }
    });
    let recorder = Recorder::default();
    let rewalker = Rewalker(Rewalk::here().with_strict(false));
    let walked = run(
        &mut schema,
        &[&recorder, &rewalker],
        &settings().with_strict(true),
    )
    .expect("walks");
    let seen: Vec<(String, usize, bool)> = recorder
        .entered
        .borrow()
        .iter()
        .map(|v| (v.pointer.clone(), v.depth, v.strict))
        .collect();
    assert_eq!(
        seen,
        [
            (String::new(), 0, true),
            ("/properties/a".to_owned(), 1, true),
            ("/properties/a".to_owned(), 2, false),
            ("/properties/a/properties/b".to_owned(), 3, false),
            ("/properties/c".to_owned(), 1, true),
        ]
    );
    assert_eq!(walked.nodes, 5, "re-walks are counted");
    assert_eq!(
        schema["properties"]["a"],
        json!({"x-walked": {"properties": {"b": {}}}})
    );
}

#[test]
fn a_rewalk_inherits_position_and_base_unless_told_otherwise() {
    let mut schema = json!({"not": {"x-sub": {}}, "x-sub": {}});
    let recorder = Recorder::default();
    let rewalker = Rewalker(Rewalk::here());
    run(&mut schema, &[&recorder, &rewalker], &settings()).expect("walks");
    let visits = recorder.entered.borrow().clone();
    assert_eq!(visits.len(), 4);
    assert_eq!(
        (
            visits[1].pointer.as_str(),
            visits[1].instance,
            visits[1].root
        ),
        ("", true, true)
    );
    assert_eq!(
        (
            visits[3].pointer.as_str(),
            visits[3].instance,
            visits[3].root
        ),
        ("/not", false, false)
    );
    assert!(
        visits
            .iter()
            .all(|v| v.base == crate::support::BASE && !v.strict)
    );

    let mut schema = json!({"x-sub": {}});
    let recorder = Recorder::default();
    let rewalker = Rewalker(
        Rewalk::here()
            .with_position(Position::new(false, true))
            .with_base(Arc::from("https://other.invalid/b"))
            .with_strict(true),
    );
    run(&mut schema, &[&recorder, &rewalker], &settings()).expect("walks");
    let sub = recorder.entered.borrow()[1].clone();
    assert_eq!(
        (sub.instance, sub.root, sub.base.as_str(), sub.strict),
        (false, true, "https://other.invalid/b", true)
    );
}

#[test]
fn a_failed_rewalk_ends_the_walk_at_the_failing_node() {
    let mut schema = json!({"properties": {"a": {"x-sub": {"anyOf": []}}}});
    let rewalker = Rewalker(Rewalk::here());
    let err = run(&mut schema, &[&rewalker], &settings()).expect_err("empty anyOf");
    assert_eq!(
        (err.kind, err.pointer.as_str()),
        (FallbackKind::InvalidSchema, "/properties/a/anyOf")
    );
}

/// Records one change at the node and one at its `default` keyword on every node with `x-rec`.
#[derive(Debug)]
struct Records;

impl Pass for Records {
    fn name(&self) -> &'static str {
        "records"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        if node.get("x-rec").is_some() {
            cx.record("test.keyword", ChangeKind::Dropped, Some("default"));
            cx.record("test.node", ChangeKind::Added, None);
            cx.record(
                String::from("test.escaped"),
                ChangeKind::Relaxed,
                Some("a/b~c"),
            );
        }
        Ok(Flow::Continue)
    }
}

#[test]
fn record_writes_pointers_only_with_diagnostics() {
    let schema = json!({"properties": {"a": {"x-rec": true}}});
    let walked = run(
        &mut schema.clone(),
        &[&Records],
        &settings().with_diagnostics(true),
    )
    .expect("walks");
    let changes: Vec<(&str, &str, ChangeKind)> = walked
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.rule.as_ref(), c.kind))
        .collect();
    assert_eq!(
        changes,
        [
            ("/properties/a/default", "test.keyword", ChangeKind::Dropped),
            ("/properties/a", "test.node", ChangeKind::Added),
            ("/properties/a/a~1b~0c", "test.escaped", ChangeKind::Relaxed),
        ]
    );

    let walked = run(&mut schema.clone(), &[&Records], &settings()).expect("walks");
    assert!(walked.changes.is_empty());
}

#[test]
fn snake_case_is_renamed_in_place_and_wins() {
    let mut schema = json!({"a": 1, "anyOf": [{"type": "integer"}], "b": 2, "any_of": [{"type": "string"}], "c": 3});
    let walked = run_standard(&mut schema, &settings().with_diagnostics(true)).expect("walks");
    assert_eq!(
        json::compact(&schema),
        r#"{"a":1,"b":2,"anyOf":[{"type":"string"}],"c":3}"#
    );
    assert_eq!(walked.changes.len(), 1);
    assert_eq!(walked.changes[0].pointer, "/anyOf");
    assert_eq!(walked.changes[0].rule, "walk.snake-case");
    assert_eq!(walked.changes[0].kind, ChangeKind::Rewritten);

    let mut schema = json!({"min_length": 1, "minLength": 2});
    run_standard(&mut schema, &settings()).expect("walks");
    assert_eq!(json::compact(&schema), r#"{"minLength":1}"#);
}

#[test]
fn all_fourteen_spellings_are_renamed_in_order() {
    let mut schema = json!({
        "exclusive_maximum": 1, "exclusive_minimum": 0, "max_properties": 3, "min_properties": 1,
        "max_length": 4, "min_length": 2, "max_items": 5, "min_items": 1, "property_ordering": ["a"],
        "pattern_properties": {"^a": {"min_length": 1}}, "additional_properties": false,
        "all_of": [{"type": "string"}], "one_of": [{"type": "string"}], "any_of": [{"type": "string"}]
    });
    let walked = run_standard(&mut schema, &settings().with_diagnostics(true)).expect("walks");
    assert_eq!(
        json::compact(&schema),
        concat!(
            r#"{"exclusiveMaximum":1,"exclusiveMinimum":0,"maxProperties":3,"minProperties":1,"#,
            r#""maxLength":4,"minLength":2,"maxItems":5,"minItems":1,"propertyOrdering":["a"],"#,
            r#""patternProperties":{"^a":{"minLength":1}},"additionalProperties":false,"#,
            r#""allOf":[{"type":"string"}],"oneOf":[{"type":"string"}],"anyOf":[{"type":"string"}]}"#
        )
    );
    let pointers: Vec<&str> = walked.changes.iter().map(|c| c.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/anyOf",
            "/oneOf",
            "/allOf",
            "/additionalProperties",
            "/patternProperties",
            "/propertyOrdering",
            "/minItems",
            "/maxItems",
            "/minLength",
            "/maxLength",
            "/minProperties",
            "/maxProperties",
            "/exclusiveMinimum",
            "/exclusiveMaximum",
            "/patternProperties/^a/minLength",
        ]
    );
}

#[test]
fn other_spellings_and_literals_are_never_renamed() {
    let mut schema = json!({
        "prefix_items": [{"type": "string"}],
        "unique_items": true,
        "default": {"any_of": [1], "min_length": 2},
        "enum": [{"one_of": []}],
        "const": {"max_items": 3},
        "examples": [{"all_of": []}],
        "properties": {"any_of": {"min_length": 1}, "min_length": {"type": "string"}},
        "required": ["any_of"]
    });
    let expected = json!({
        "prefix_items": [{"type": "string"}],
        "unique_items": true,
        "default": {"any_of": [1], "min_length": 2},
        "enum": [{"one_of": []}],
        "const": {"max_items": 3},
        "examples": [{"all_of": []}],
        "properties": {"any_of": {"minLength": 1}, "min_length": {"type": "string"}},
        "required": ["any_of"]
    });
    run_standard(&mut schema, &settings()).expect("walks");
    assert_eq!(json::compact(&schema), json::compact(&expected));
}

#[test]
fn a_renamed_combinator_is_walked_as_a_child() {
    let mut schema = json!({"any_of": [{"max_length": 1}]});
    let recorder = Recorder::default();
    let passes: [&dyn Pass; 3] = [&steps::Shape::keep_booleans(), &steps::SnakeCase, &recorder];
    run(&mut schema, &passes, &settings()).expect("walks");
    assert_eq!(recorder.pointers(), ["", "/anyOf/0"]);
    assert_eq!(schema, json!({"anyOf": [{"maxLength": 1}]}));
}

const DEEP: usize = 100_000;

#[test]
fn a_very_deep_schema_fails_budget_depth_instead_of_overflowing() {
    let (fixed, default) = on_small_stack(|| {
        let unlimited = Settings::new(Budget::default().with_max_depth(usize::MAX));
        let mut schema = nested("items", DEEP);
        let fixed = run_standard(&mut schema, &unlimited);
        json::dismantle(schema);
        let mut schema = nested("items", DEEP);
        let default = run_standard(&mut schema, &settings());
        json::dismantle(schema);
        (fixed, default)
    });
    let fixed = fixed.expect_err("deeper than the fixed limit");
    assert_eq!(fixed.kind, FallbackKind::BudgetDepth);
    assert_eq!(fixed.pointer, repeated("items", HARD_MAX_DEPTH + 1));
    let default = default.expect_err("deeper than the default limit");
    assert_eq!(default.kind, FallbackKind::BudgetDepth);
    assert_eq!(default.pointer, repeated("items", 97));
}

#[test]
fn the_check_of_a_very_deep_schema_fails_budget_depth_instead_of_overflowing() {
    let (all, first) = on_small_stack(|| {
        let schema = nested("items", DEEP);
        let budget = Budget::default().with_max_depth(usize::MAX);
        let rules = RuleSet::new();
        let options = check::Options::new(&rules).with_budget(&budget);
        let all = check::check(&schema, &options);
        let first = check::first(&schema, &options);
        json::dismantle(schema);
        (all, first)
    });
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].kind, FallbackKind::BudgetDepth);
    assert_eq!(all[0].pointer, repeated("items", HARD_MAX_DEPTH + 1));
    assert_eq!(first.as_ref(), all.first());
}

#[test]
fn a_very_deep_literal_is_charged_without_overflowing() {
    let walked = on_small_stack(|| {
        let mut schema = json!({"type": "string"});
        schema["default"] = nested_arrays(DEEP);
        let walked = run_standard(&mut schema, &settings());
        json::dismantle(schema);
        walked
    });
    let walked = walked.expect("a deep literal is data");
    assert_eq!(walked.literal_bytes, 12 + "default".len() + 2 * (DEEP + 1));
}

/// A pass that counts its calls and says its hooks act only under strict, and then only `leave`.
#[derive(Default)]
struct StrictLeaveOnly {
    enters: std::cell::Cell<usize>,
    leaves: std::cell::Cell<usize>,
}

impl Pass for StrictLeaveOnly {
    fn name(&self) -> &'static str {
        "strict-leave-only"
    }

    fn hooks(&self, settings: &Settings) -> Hooks {
        Hooks::when(settings.strict, Hooks::LEAVE)
    }

    fn enter(&self, _: &mut Value, _: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        self.enters.set(self.enters.get() + 1);
        Ok(Flow::Continue)
    }

    fn leave(&self, _: &mut Value, _: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        self.leaves.set(self.leaves.get() + 1);
        Ok(())
    }
}

/// Walks the value of an `x-inner` member (not a schema position, so the walk does not visit it by itself) with
/// strict forced off.
struct RewalkInnerWithoutStrict;

impl Pass for RewalkInnerWithoutStrict {
    fn name(&self) -> &'static str {
        "rewalk-inner"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(mut inner) = node.as_object_mut().and_then(|m| m.remove("x-inner")) else {
            return Ok(Flow::Continue);
        };
        cx.rewalk(&mut inner, &Rewalk::here().with_strict(false))?;
        if let Some(map) = node.as_object_mut() {
            map.insert("x-inner".to_owned(), inner);
        }
        Ok(Flow::Continue)
    }
}

#[test]
fn the_walker_calls_only_the_hooks_a_pass_says_can_act() {
    let schema = json!({"properties": {"a": {}, "b": {"x-inner": {"x-inner": {}}}}});
    let shape = steps::Shape::keep_booleans();
    // Without strict the pass is left out; with strict only its `leave` runs, once per visit (the root, `a`, `b`).
    for (strict, leaves) in [(false, 0), (true, 3)] {
        let counted = StrictLeaveOnly::default();
        let passes: [&dyn Pass; 2] = [&shape, &counted];
        let mut walked = schema.clone();
        run(&mut walked, &passes, &settings().with_strict(strict)).expect("walks");
        assert_eq!((counted.enters.get(), counted.leaves.get()), (0, leaves));
    }
    // A re-walk that forces strict off follows the plan for strict off: the two nodes under `x-inner` are walked
    // without strict, so only the three others count, and the walk then goes on with strict again.
    let counted = StrictLeaveOnly::default();
    let passes: [&dyn Pass; 3] = [&shape, &RewalkInnerWithoutStrict, &counted];
    let mut walked = schema.clone();
    run(&mut walked, &passes, &settings().with_strict(true)).expect("walks");
    assert_eq!((counted.enters.get(), counted.leaves.get()), (0, 3));
    assert_eq!(walked, schema);
}
