//! The Anthropic request-budget counters on small schemas and on strict outputs.

use llmshim_strict::{optional_count, union_count};
use serde_json::{Value, json};

use crate::support::{chain, free, object, strict};

#[test]
fn optional_properties_are_counted_at_every_depth() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}}, "required": ["y"]},
            "c": {"type": "array", "items": {"type": "object", "properties": {"z": {"type": "string"}}}},
            "d": {"anyOf": [{"type": "object", "properties": {"w": {"type": "string"}}, "required": ["w"]}, {"type": "null"}]}
        },
        "required": ["a", "b"]
    });
    // `c` and `d` at the root, `x` in `b`, `z` in the items; `w` is required.
    assert_eq!(optional_count(&schema), 4);
}

#[test]
fn a_required_that_is_not_an_array_lists_nothing() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": "a"});
    assert_eq!(optional_count(&schema), 2);
    assert_eq!(optional_count(&json!({"type": "object"})), 0);
}

#[test]
fn unions_are_any_of_nodes_and_type_arrays() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"anyOf": [{"type": "string"}, {"anyOf": [{"type": "integer"}, {"type": "null"}]}]},
            "b": {"type": ["string", "null"]},
            "c": {"type": "string", "enum": ["x", null]},
            "d": {"type": "array", "items": {"type": ["integer", "string"]}},
            "e": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
        }
    });
    // `a` and its inner `anyOf`, `b`, and the items of `d`.
    assert_eq!(union_count(&schema), 4);
}

#[test]
fn after_closing_optionals_become_unions() {
    let out = strict(json!({
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "integer"},
            "c": {"type": "object", "properties": {"d": {"type": "boolean"}}},
            "e": {"type": "string"}
        },
        "required": ["e"]
    }));
    assert_eq!(optional_count(&out), 0);
    // `a`, `b`, `c` at the root and `d` inside `c`.
    assert_eq!(union_count(&out), 4);
}

#[test]
fn the_counters_are_iterative() {
    let deep = chain(100_000, json!({"type": "string"}), |inner| {
        let union = object([("anyOf", Value::Array(vec![inner, json!({"type": "null"})]))]);
        object([
            ("type", json!("object")),
            ("properties", object([("x", union)])),
        ])
    });
    assert_eq!(optional_count(&deep), 100_000);
    assert_eq!(union_count(&deep), 100_000);
    free(deep);
}
