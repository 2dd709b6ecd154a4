//! `admits_null`: only `type: "null"`, a type array with null, or an `anyOf` branch that
//! admits null count.

use llmshim_strict::admits_null;
use serde_json::{Value, json};

use crate::support::{chain, free, object};

#[test]
fn null_types_admit_null() {
    assert!(admits_null(&json!({"type": "null"})));
    assert!(admits_null(&json!({"type": ["null"]})));
    assert!(admits_null(
        &json!({"type": ["string", "null"], "description": "maybe"})
    ));
}

#[test]
fn any_of_branches_admit_null_recursively() {
    assert!(admits_null(
        &json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
    ));
    assert!(admits_null(
        &json!({"anyOf": [{"type": "string"}, {"anyOf": [{"type": "integer"}, {"type": ["boolean", "null"]}]}]})
    ));
    assert!(!admits_null(
        &json!({"anyOf": [{"type": "string"}, {"anyOf": [{"type": "integer"}]}]})
    ));
}

#[test]
fn enum_const_and_nullable_do_not_count() {
    assert!(!admits_null(&json!({"enum": [null]})));
    assert!(!admits_null(
        &json!({"type": "string", "enum": ["a", null]})
    ));
    assert!(!admits_null(&json!({"const": null})));
    assert!(!admits_null(&json!({"type": "string", "nullable": true})));
}

#[test]
fn other_combinators_and_non_objects_do_not_count() {
    assert!(!admits_null(&json!({"oneOf": [{"type": "null"}]})));
    assert!(!admits_null(&json!({"allOf": [{"type": "null"}]})));
    assert!(!admits_null(
        &json!({"type": "string", "items": {"type": "null"}})
    ));
    assert!(!admits_null(&json!({"type": "NULL"})));
    assert!(!admits_null(&json!({"anyOf": {"type": "null"}})));
    assert!(!admits_null(&json!(true)));
    assert!(!admits_null(&json!(null)));
    assert!(!admits_null(&json!({})));
}

#[test]
fn a_hundred_thousand_nested_branches_are_searched_without_overflow() {
    let deep = chain(100_000, json!({"type": "null"}), |inner| {
        object([(
            "anyOf",
            Value::Array(vec![json!({"type": "string"}), inner]),
        )])
    });
    assert!(admits_null(&deep));
    free(deep);
}
