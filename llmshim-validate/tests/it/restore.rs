//! `restore_optional_omissions`: strict-mode nulls on optional properties are removed again.

use llmshim_validate::restore_optional_omissions;
use serde_json::{Value, json};

fn restored(schema: &Value, mut value: Value) -> Value {
    restore_optional_omissions(schema, &mut value);
    value
}

#[test]
fn the_contract_example() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "string", "format": "email"},
            "c": {"anyOf": [{"type": "string"}, {"type": "null"}]}
        },
        "required": ["a"]
    });
    assert_eq!(
        restored(&schema, json!({"a": null, "b": null, "c": null})),
        json!({"a": null, "c": null})
    );
}

#[test]
fn nested_objects_and_array_items_are_walked() {
    let schema = json!({
        "type": "object",
        "properties": {
            "user": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "nick": {"type": "string"}},
                "required": ["name"]
            },
            "tags": {
                "type": "array",
                "items": {"type": "object", "properties": {"label": {"type": "string"}, "n": {"type": ["integer", "null"]}}}
            },
            "tuple": {"type": "array", "prefixItems": [{"type": "object", "properties": {"x": {"type": "string"}}}]}
        }
    });
    let value = json!({
        "user": {"name": null, "nick": null},
        "tags": [{"label": null, "n": null}, {"label": "x", "n": 1}],
        "tuple": [{"x": null}]
    });
    assert_eq!(
        restored(&schema, value),
        json!({
            "user": {"name": null},
            "tags": [{"n": null}, {"label": "x", "n": 1}],
            "tuple": [{"x": null}]
        })
    );
}

#[test]
fn key_order_is_kept_and_non_matching_shapes_are_left_alone() {
    let schema = json!({"properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}}});
    let out = restored(&schema, json!({"c": "1", "b": null, "a": "2"}));
    assert_eq!(
        serde_json::to_string(&out).expect("serializes"),
        r#"{"c":"1","a":"2"}"#
    );
    assert_eq!(restored(&schema, json!([null])), json!([null]));
    assert_eq!(
        restored(&json!(true), json!({"a": null})),
        json!({"a": null})
    );
    // A property whose subschema does not compile keeps its null.
    let broken = json!({"properties": {"a": {"minLength": -1}}});
    assert_eq!(restored(&broken, json!({"a": null})), json!({"a": null}));
    // `additionalProperties` is not followed.
    let extra = json!({"properties": {}, "additionalProperties": {"type": "string"}});
    assert_eq!(restored(&extra, json!({"z": null})), json!({"z": null}));
}
