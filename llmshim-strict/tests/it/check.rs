//! The strict acceptance check: it passes on strict outputs and names the kind and pointer of each violation.

use llmshim_core::FallbackKind::{
    BooleanSchema, BudgetDepth, InvalidSchema, StrictUnsupported, TargetUnsupported,
};
use llmshim_strict::check;
use serde_json::{Value, json};

use crate::support::{chain, free, kinds, object, strict};

/// A closed object with the given property and no other.
fn closed_with(name: &str, schema: Value) -> Value {
    object([
        ("type", json!("object")),
        ("properties", object([(name, schema)])),
        ("required", json!([name])),
        ("additionalProperties", json!(false)),
    ])
}

#[test]
fn strict_outputs_pass() {
    let inputs = [
        json!({"type": "object"}),
        json!({"type": "object", "properties": {"a": {"type": "string", "format": "email"}, "b": {"type": "array", "items": {"type": "object"}}}}),
        json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "object", "properties": {"x": {"type": "integer"}}}, {"type": "null"}]}}}),
        json!({"type": "object", "properties": {"e": {"type": "string", "enum": ["a", "b"], "title": "E"}, "c": {"const": "k", "type": "string"}}}),
    ];
    for input in inputs {
        let out = strict(input);
        assert_eq!(check(&out), [], "{out}");
    }
}

#[test]
fn type_arrays_and_all_of_fail_and_an_empty_closed_object_passes() {
    // The walk splits type arrays and merges a one-entry `allOf` under strict, so neither reaches a strict result.
    assert_eq!(
        kinds(&check(&json!({"type": ["string", "null"]}))),
        [(TargetUnsupported, String::new())]
    );
    assert_eq!(
        kinds(&check(
            &json!({"allOf": [{"type": "string"}], "type": "string"})
        )),
        [(StrictUnsupported, String::new())]
    );
    assert_eq!(
        check(&closed_with(
            "free",
            json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
        )),
        []
    );
}

#[test]
fn boolean_subschemas_fail_except_additional_properties() {
    assert_eq!(
        kinds(&check(&json!(true))),
        [(BooleanSchema, String::new())]
    );
    assert_eq!(
        kinds(&check(&closed_with("free", json!(true)))),
        [(BooleanSchema, "/properties/free".to_owned())]
    );
    assert_eq!(
        kinds(&check(&json!({"type": "array", "items": false}))),
        [(BooleanSchema, "/items".to_owned())]
    );
    assert_eq!(
        kinds(&check(&json!({"anyOf": [{"type": "string"}, false]}))),
        [(BooleanSchema, "/anyOf/1".to_owned())]
    );
}

#[test]
fn values_that_are_not_schemas_fail_invalid_schema() {
    assert_eq!(kinds(&check(&json!(3))), [(InvalidSchema, String::new())]);
    assert_eq!(
        kinds(&check(&closed_with("a", json!("string")))),
        [(InvalidSchema, "/properties/a".to_owned())]
    );
}

#[test]
fn a_bad_type_fails_invalid_schema() {
    for ty in [json!("text"), json!([]), json!(["string", 1]), json!(7)] {
        assert_eq!(
            kinds(&check(&json!({"type": ty}))),
            [(InvalidSchema, String::new())],
            "{ty}"
        );
    }
    // A well-formed type array is refused as such under strict.
    assert_eq!(
        kinds(&check(&json!({"type": ["string", "string"]}))),
        [(TargetUnsupported, String::new())]
    );
}

#[test]
fn a_node_without_type_or_any_of_fails() {
    assert_eq!(
        kinds(&check(&closed_with("a", json!({"enum": ["x"]})))),
        [(StrictUnsupported, "/properties/a".to_owned())]
    );
    assert_eq!(
        kinds(&check(&json!({"oneOf": [{"type": "string"}]}))),
        [(StrictUnsupported, String::new())]
    );
}

#[test]
fn each_key_outside_the_keep_list_fails_once() {
    let found = check(
        &json!({"type": "string", "format": "date", "$ref": "#/x", "prefixItems": [{"type": "string"}]}),
    );
    // A leftover `$ref` is malformed on every target; `prefixItems` has its own strict row; then the keep-list.
    assert_eq!(
        kinds(&found),
        [
            (InvalidSchema, String::new()),
            (StrictUnsupported, String::new()),
            (StrictUnsupported, String::new()),
            (StrictUnsupported, String::new()),
        ]
    );
    assert!(found[0].message.contains("$ref"));
    assert!(found[1].message.contains("prefixItems"));
    assert!(found[2].message.contains("format"));
    assert!(found[3].message.contains("$ref"));
}

#[test]
fn objects_must_be_closed_with_every_property_required_in_order() {
    let cases = [
        json!({"type": "object", "required": [], "additionalProperties": false}),
        json!({"type": "object", "properties": [], "required": [], "additionalProperties": false}),
        json!({"type": "object", "properties": {}, "required": []}),
        json!({"type": "object", "properties": {}, "required": [], "additionalProperties": true}),
        json!({"type": "object", "properties": {}, "required": [], "additionalProperties": {"type": "string"}}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}),
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["b", "a"], "additionalProperties": false}),
    ];
    for case in cases {
        let found = check(&case);
        assert_eq!(
            kinds(&found),
            [(StrictUnsupported, String::new())],
            "{case}: {found:?}"
        );
    }
    // A `required` that is not an array of unique strings is malformed on every target, and fails the strict row
    // too.
    for required in [json!("a"), json!(["a", "a"])] {
        let found = check(
            &json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": required, "additionalProperties": false}),
        );
        assert_eq!(
            kinds(&found),
            [
                (InvalidSchema, String::new()),
                (StrictUnsupported, String::new())
            ]
        );
    }
    // A type array with `object` is refused before the object rows apply.
    assert_eq!(
        kinds(&check(
            &json!({"type": ["object", "null"], "properties": {}, "required": []})
        )),
        [(TargetUnsupported, String::new())]
    );
}

#[test]
fn a_nested_violation_is_reported_at_its_node() {
    let schema = closed_with(
        "outer",
        json!({"type": "array", "items": {"anyOf": [{"type": "object", "properties": {"x": {"type": "string"}}}, {"type": "null"}]}}),
    );
    let found = check(&schema);
    assert_eq!(
        kinds(&found),
        [
            (
                StrictUnsupported,
                "/properties/outer/items/anyOf/0".to_owned()
            ),
            (
                StrictUnsupported,
                "/properties/outer/items/anyOf/0".to_owned()
            ),
        ]
    );
    assert!(found[0].message.contains("additionalProperties"));
    assert!(found[1].message.contains("require"));
}

#[test]
fn arrays_need_items() {
    assert_eq!(
        kinds(&check(&closed_with("xs", json!({"type": "array"})))),
        [(StrictUnsupported, "/properties/xs".to_owned())]
    );
    assert_eq!(
        kinds(&check(&json!({"type": ["array", "null"]}))),
        [(TargetUnsupported, String::new())]
    );
}

#[test]
fn all_of_with_two_entries_fails() {
    let found =
        check(&json!({"type": "string", "allOf": [{"type": "string"}, {"type": "string"}]}));
    assert_eq!(kinds(&found), [(StrictUnsupported, String::new())]);
    assert!(found[0].message.contains("allOf"));
}

#[test]
fn empty_or_misshaped_combinators_fail_invalid_schema() {
    assert_eq!(
        kinds(&check(&json!({"anyOf": []}))),
        [(InvalidSchema, String::new())]
    );
    assert_eq!(
        kinds(&check(
            &json!({"type": "string", "oneOf": {"type": "string"}})
        )),
        [(InvalidSchema, String::new())]
    );
    assert_eq!(
        kinds(&check(&json!({"type": "string", "properties": 1}))),
        [(InvalidSchema, String::new())]
    );
}

#[test]
fn violations_come_in_document_order() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string", "pattern": "x"},
            "b": {"type": "array", "items": {"minimum": 1}},
            "c": true
        },
        "required": ["a", "b", "c"],
        "additionalProperties": false
    });
    assert_eq!(
        kinds(&check(&schema)),
        [
            (StrictUnsupported, "/properties/a".to_owned()),
            (StrictUnsupported, "/properties/b/items".to_owned()),
            (StrictUnsupported, "/properties/b/items".to_owned()),
            (BooleanSchema, "/properties/c".to_owned()),
        ]
    );
}

#[test]
fn a_hundred_thousand_levels_end_in_one_depth_reason_past_400() {
    let deep = chain(100_000, json!({"type": "string"}), |inner| {
        object([("type", json!("array")), ("items", inner)])
    });
    let found = check(&deep);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kind, BudgetDepth);
    assert_eq!(found[0].pointer, "/items".repeat(401));
    free(deep);

    let at_limit = chain(400, json!({"type": "string"}), |inner| {
        object([("type", json!("array")), ("items", inner)])
    });
    assert_eq!(check(&at_limit), []);
    free(at_limit);
}
