//! The strict keep-list: kept keys stay in order, lift-list keys are lifted, the rest dropped.

use std::fmt::Write as _;

use llmshim_core::ChangeKind;
use llmshim_core::keyword::LIFTABLE;
use llmshim_strict::{KEEP, is_kept};
use serde_json::{Value, json};

use crate::support::{changes, run, strict, strict_settings, text};

#[test]
fn the_keep_list_is_the_contracts() {
    assert_eq!(
        KEEP,
        [
            "type",
            "title",
            "description",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "anyOf",
            "allOf",
            "oneOf",
            "enum",
            "const",
            "$schema"
        ]
    );
    assert!(KEEP.iter().all(|k| is_kept(k)));
    for key in [
        "prefixItems",
        "format",
        "default",
        "$ref",
        "$defs",
        "nullable",
        "x-a",
    ] {
        assert!(!is_kept(key), "{key}");
    }
}

#[test]
fn kept_keys_survive_in_their_order() {
    // A string node: closing does not touch it, so only the keep-list acts.
    let out = strict(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "const": "a",
        "enum": ["a"],
        "description": "d",
        "title": "t",
        "type": "string"
    }));
    assert_eq!(
        text(&out),
        r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","const":"a","enum":["a"],"description":"d","title":"t","type":"string"}"#
    );
}

#[test]
fn every_lift_list_key_is_lifted_in_byte_wise_order() {
    let mut node = serde_json::Map::new();
    node.insert("type".to_owned(), json!("string"));
    for key in LIFTABLE.iter().rev() {
        if !is_kept(key) {
            node.insert((*key).to_owned(), json!(1));
        }
    }
    let mut schema = Value::Object(node);
    let walked = run(&mut schema, &strict_settings(true)).expect("walks");

    let mut lifted: Vec<&str> = LIFTABLE.iter().copied().filter(|k| !is_kept(k)).collect();
    lifted.sort_unstable();
    let expected = lifted.iter().fold(String::new(), |mut text, k| {
        let _ = write!(text, " ({k}: 1)");
        text
    });
    assert_eq!(
        schema,
        json!({"type": "string", "description": expected.trim_start()})
    );
    let recorded: Vec<(String, String, ChangeKind)> = lifted
        .iter()
        .map(|k| {
            (
                format!("/{k}"),
                "strict.keyword".to_owned(),
                ChangeKind::Lifted,
            )
        })
        .collect();
    assert_eq!(changes(&walked), recorded);
}

#[test]
fn keys_off_the_lift_list_are_dropped_in_key_order() {
    let mut schema = json!({
        "type": "string",
        "x-vendor": {"a": 1},
        "nullable": true,
        "deprecated": true,
        "unevaluatedProperties": false,
        "$dynamicRef": "#meta",
        "$dynamicAnchor": "meta",
        "propertyOrdering": ["a"],
        "prefixItems": [{"type": "string"}],
        "mystery": 1
    });
    let walked = run(&mut schema, &strict_settings(true)).expect("walks");
    assert_eq!(text(&schema), r#"{"type":"string"}"#);
    let dropped: Vec<(String, String, ChangeKind)> = [
        "x-vendor",
        "nullable",
        "deprecated",
        "unevaluatedProperties",
        "$dynamicRef",
        "$dynamicAnchor",
        "propertyOrdering",
        "prefixItems",
        "mystery",
    ]
    .iter()
    .map(|k| {
        (
            format!("/{}", k.replace('~', "~0").replace('/', "~1")),
            "strict.keyword".to_owned(),
            ChangeKind::Dropped,
        )
    })
    .collect();
    assert_eq!(changes(&walked), dropped);
}

#[test]
fn lifted_values_are_rendered_as_they_stood() {
    let out = strict(json!({
        "type": "string",
        "description": "Code",
        "pattern": "^[A-Z]{2}$",
        "format": "iso-3166",
        "examples": ["FR", "DE"],
        "default": "FR"
    }));
    assert_eq!(
        text(&out),
        r#"{"type":"string","description":"Code (default: \"FR\") (examples: [\"FR\",\"DE\"]) (format: iso-3166) (pattern: ^[A-Z]{2}$)"}"#
    );
}

#[test]
fn stripped_subschemas_are_lifted_and_never_walked() {
    // `not` and `if` are stripped before the children are walked, so the object below them is never closed.
    let out = strict(json!({
        "type": "string",
        "not": {"type": "object", "properties": {"a": {"type": "string"}}},
        "if": {"minLength": 2}
    }));
    assert_eq!(
        text(&out),
        r#"{"type":"string","description":"(if: {\"minLength\":2}) (not: {\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}})"}"#
    );
}

#[test]
fn snake_case_spellings_are_lifted_under_their_camel_case_name() {
    let out = strict(json!({"type": "string", "min_length": 1, "minLength": 9}));
    assert_eq!(
        text(&out),
        r#"{"type":"string","description":"(minLength: 1)"}"#
    );
}

#[test]
fn the_keep_list_applies_at_every_depth() {
    let out = strict(json!({
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 8}, "minItems": 1, "uniqueItems": true},
            "either": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]}
        },
        "required": ["tags", "either"],
        "patternProperties": {"^x-": {"type": "string"}},
        "minProperties": 1
    }));
    assert_eq!(
        text(&out),
        r#"{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string","description":"(maxLength: 8)"},"description":"(minItems: 1) (uniqueItems: true)"},"either":{"anyOf":[{"type":"integer","description":"(minimum: 0)"},{"type":"null"}]}},"required":["tags","either"],"description":"(minProperties: 1) (patternProperties: {\"^x-\":{\"type\":\"string\"}})","additionalProperties":false}"#
    );
}
