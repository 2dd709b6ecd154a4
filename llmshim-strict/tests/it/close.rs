//! Closing objects: added `properties`, required names, nullable optionals, `required` and
//! `additionalProperties` placement, and failures.

use llmshim_core::{ChangeKind, FallbackKind};
use llmshim_strict::check;
use serde_json::json;

use crate::support::{changes, run, strict, strict_settings, text};

#[test]
fn a_bare_object_gets_empty_properties_and_is_closed() {
    let out = strict(json!({"type": "object", "title": "Empty"}));
    assert_eq!(
        text(&out),
        r#"{"type":"object","title":"Empty","properties":{},"required":[],"additionalProperties":false}"#
    );
    assert_eq!(check(&out), []);
}

#[test]
fn required_and_additional_properties_are_replaced_in_place() {
    let out = strict(json!({
        "required": ["b"],
        "additionalProperties": true,
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}
    }));
    assert_eq!(
        text(&out),
        r#"{"required":["a","b"],"additionalProperties":false,"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]},"b":{"type":"integer"}}}"#
    );
}

#[test]
fn required_follows_declared_order_not_the_original_order() {
    let out = strict(json!({
        "type": "object",
        "properties": {"z": {"type": "string"}, "a": {"type": "string"}, "m": {"type": "string"}},
        "required": ["m", "a", "z"]
    }));
    assert_eq!(out["required"], json!(["z", "a", "m"]));
    assert_eq!(out["properties"]["z"], json!({"type": "string"}));
}

#[test]
fn the_description_moves_to_the_wrapper_and_other_keys_stay() {
    let out = strict(json!({
        "type": "object",
        "properties": {
            "when": {"title": "When", "type": "string", "description": "A date", "format": "date"},
            "plain": {"type": "boolean"}
        }
    }));
    assert_eq!(
        text(&out["properties"]),
        r#"{"when":{"anyOf":[{"title":"When","type":"string"},{"type":"null"}],"description":"A date (format: date)"},"plain":{"anyOf":[{"type":"boolean"},{"type":"null"}]}}"#
    );
}

#[test]
fn optional_properties_that_admit_null_are_not_wrapped() {
    let out = strict(json!({
        "type": "object",
        "properties": {
            "n": {"type": "null"},
            "arr": {"type": ["integer", "null"]},
            "alt": {"anyOf": [{"type": "string"}, {"anyOf": [{"type": "integer"}, {"type": "null"}]}]}
        }
    }));
    assert_eq!(
        text(&out["properties"]),
        r#"{"n":{"type":"null"},"arr":{"type":["integer","null"]},"alt":{"anyOf":[{"type":"string"},{"anyOf":[{"type":"integer"},{"type":"null"}]}]}}"#
    );
    assert_eq!(out["required"], json!(["n", "arr", "alt"]));
}

#[test]
fn enum_null_const_null_and_nullable_do_not_count_as_admitting_null() {
    let out = strict(json!({
        "type": "object",
        "properties": {
            "e": {"type": "string", "enum": ["a", null]},
            "c": {"type": "string", "const": null},
            "n": {"type": "string", "nullable": true}
        }
    }));
    assert_eq!(
        text(&out["properties"]),
        r#"{"e":{"anyOf":[{"type":"string","enum":["a",null]},{"type":"null"}]},"c":{"anyOf":[{"type":"string","const":null},{"type":"null"}]},"n":{"anyOf":[{"type":"string"},{"type":"null"}]}}"#
    );
}

#[test]
fn nested_objects_are_closed_everywhere() {
    let out = strict(json!({
        "type": "object",
        "properties": {
            "list": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"]}},
            "either": {"anyOf": [{"type": "object"}, {"type": "string"}]}
        },
        "required": ["list", "either"]
    }));
    assert_eq!(
        text(&out),
        r#"{"type":"object","properties":{"list":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"],"additionalProperties":false}},"either":{"anyOf":[{"type":"object","properties":{},"required":[],"additionalProperties":false},{"type":"string"}]}},"required":["list","either"],"additionalProperties":false}"#
    );
    assert_eq!(check(&out), []);
}

#[test]
fn only_a_type_that_is_the_string_object_is_closed() {
    // A type array is split before closing (W23); on its own, closing leaves it alone.
    let schema = json!({"type": ["object", "null"], "properties": {"a": {"type": "string"}}});
    assert_eq!(strict(schema.clone()), schema);
    let untyped = json!({"anyOf": [{"type": "string"}], "properties": {"a": {"type": "string"}}});
    assert_eq!(strict(untyped.clone()), untyped);
}

#[test]
fn a_required_name_missing_from_properties_fails_strict_unsupported() {
    let mut schema = json!({
        "type": "object",
        "properties": {"p": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]}},
        "required": ["p"]
    });
    let reason = run(&mut schema, &strict_settings(false)).expect_err("fails");
    assert_eq!(
        (reason.kind, reason.pointer.as_str()),
        (FallbackKind::StrictUnsupported, "/properties/p")
    );
    assert!(reason.message.contains("\"b\""), "{}", reason.message);
}

#[test]
fn a_required_name_without_properties_fails() {
    let mut schema = json!({"type": "object", "required": ["a"]});
    let reason = run(&mut schema, &strict_settings(false)).expect_err("fails");
    assert_eq!(
        (reason.kind, reason.pointer.as_str()),
        (FallbackKind::StrictUnsupported, "")
    );
}

#[test]
fn a_required_that_is_not_an_array_of_strings_fails_invalid_schema() {
    for required in [json!("a"), json!([1]), json!({"a": true})] {
        let mut schema = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": required});
        let reason = run(&mut schema, &strict_settings(false)).expect_err("fails");
        assert_eq!(
            (reason.kind, reason.pointer.as_str()),
            (FallbackKind::InvalidSchema, "")
        );
    }
}

#[test]
fn changes_are_recorded_once_per_wrapped_property_and_once_per_changed_object() {
    let mut schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "string"},
            "c": {"type": "object", "properties": {}, "required": [], "additionalProperties": false}
        },
        "required": ["c"]
    });
    let walked = run(&mut schema, &strict_settings(true)).expect("walks");
    assert_eq!(
        changes(&walked),
        [
            (
                "/properties/a".to_owned(),
                "strict.nullable-optional".to_owned(),
                ChangeKind::Rewritten
            ),
            (
                "/properties/b".to_owned(),
                "strict.nullable-optional".to_owned(),
                ChangeKind::Rewritten
            ),
            (
                String::new(),
                "strict.close-object".to_owned(),
                ChangeKind::Rewritten
            ),
        ]
    );
}

#[test]
fn an_already_closed_object_records_nothing() {
    let mut schema = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "additionalProperties": false
    });
    let before = schema.clone();
    let walked = run(&mut schema, &strict_settings(true)).expect("walks");
    assert_eq!(text(&schema), text(&before));
    assert_eq!(changes(&walked), []);
}

#[test]
fn property_names_that_look_like_keywords_are_data() {
    let out = strict(json!({
        "type": "object",
        "properties": {"type": {"type": "string"}, "default": {"type": "string"}, "a/b~c": {"type": "string"}},
        "required": ["type", "default", "a/b~c"]
    }));
    assert_eq!(
        text(&out),
        r#"{"type":"object","properties":{"type":{"type":"string"},"default":{"type":"string"},"a/b~c":{"type":"string"}},"required":["type","default","a/b~c"],"additionalProperties":false}"#
    );
}
