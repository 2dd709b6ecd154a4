//! The strict acceptance check: it passes on strict outputs and names the kind and pointer of each violation.

use llmshim_core::FallbackKind::{BooleanSchema, BudgetDepth, InvalidSchema, StrictUnsupported};
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
fn plain_type_arrays_and_single_entry_all_of_are_accepted() {
    assert_eq!(check(&json!({"type": ["string", "null"]})), []);
    assert_eq!(
        check(&json!({"allOf": [{"type": "string"}], "type": "string"})),
        []
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
    for ty in [
        json!("text"),
        json!([]),
        json!(["string", "string"]),
        json!(["string", 1]),
        json!(7),
    ] {
        assert_eq!(
            kinds(&check(&json!({"type": ty}))),
            [(InvalidSchema, String::new())],
            "{ty}"
        );
    }
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
    assert_eq!(
        kinds(&found),
        [
            (StrictUnsupported, String::new()),
            (StrictUnsupported, String::new()),
            (StrictUnsupported, String::new()),
        ]
    );
    assert!(found[0].message.contains("format"));
    assert!(found[1].message.contains("$ref"));
    assert!(found[2].message.contains("prefixItems"));
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
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "a"], "additionalProperties": false}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": "a", "additionalProperties": false}),
        json!({"type": ["object", "null"], "properties": {}, "required": []}),
    ];
    for case in cases {
        let found = check(&case);
        assert_eq!(
            kinds(&found),
            [(StrictUnsupported, String::new())],
            "{case}: {found:?}"
        );
    }
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
        [(StrictUnsupported, String::new())]
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
