//! Compiling: the fixed limits, the schema checks, local-only references and the error type.

use llmshim_core::{FallbackKind, FallbackReason};
use llmshim_validate::{Error, Options, Resources, Validator, compile, compile_with};
use serde_json::{Value, json};

/// A leaf string schema `levels` `properties` levels below the root.
fn nested_properties(levels: usize) -> Value {
    let mut schema = json!({"type": "string"});
    for _ in 0..levels {
        schema = json!({"properties": {"a": schema}});
    }
    schema
}

#[test]
fn the_fixed_depth_limit_admits_47_property_levels_and_refuses_48() {
    let ok = nested_properties(47);
    assert_eq!(llmshim_core::json::depth_within(&ok, 200), Some(95));
    assert!(compile(&ok).is_ok());
    let too_deep = nested_properties(48);
    assert_eq!(
        compile(&too_deep).expect_err("48 levels are too deep"),
        Error::Limits
    );
    assert_eq!(
        Error::Limits.to_string(),
        "json schema exceeds validation limits"
    );
}

#[test]
fn the_value_and_byte_limits_refuse_large_schemas() {
    let many: serde_json::Map<String, Value> = (0..32_768)
        .map(|i| (format!("p{i}"), json!(true)))
        .collect();
    // The root, the `properties` object and its members: 32,770 values.
    assert_eq!(
        compile(&json!({"properties": many})).expect_err("too many values"),
        Error::Limits
    );
    let fewer: serde_json::Map<String, Value> = (0..32_000)
        .map(|i| (format!("p{i}"), json!(true)))
        .collect();
    assert!(compile(&json!({"properties": fewer})).is_ok());
    let big = "x".repeat(8 * 1024 * 1024);
    assert_eq!(
        compile(&json!({"description": big})).expect_err("too many bytes"),
        Error::Limits
    );
    let fits = "x".repeat(8 * 1024 * 1024 - 100);
    assert!(compile(&json!({"description": fits})).is_ok());
}

#[track_caller]
#[expect(
    clippy::needless_pass_by_value,
    reason = "the call sites read better with owned literals"
)]
fn rejects(schema: Value, pointer: &str) {
    match compile(&schema) {
        Err(Error::Invalid {
            pointer: at,
            message,
        }) => {
            assert_eq!(at, pointer, "{schema}: {message}");
            assert!(!message.is_empty());
            assert!(
                message.starts_with(|c: char| !c.is_uppercase()),
                "messages are lowercase: {message}"
            );
        }
        other => panic!("{schema} should be invalid at {pointer}, got {other:?}"),
    }
}

#[test]
fn schema_checks_reject_bad_keyword_values_at_their_pointer() {
    rejects(json!(1), "");
    rejects(json!({"properties": {"a": 1}}), "/properties/a");
    rejects(json!({"type": "text"}), "/type");
    rejects(json!({"type": []}), "/type");
    rejects(json!({"type": ["string", "string"]}), "/type");
    rejects(json!({"enum": "a"}), "/enum");
    rejects(json!({"required": ["a", "a"]}), "/required");
    rejects(json!({"required": [1]}), "/required");
    rejects(
        json!({"dependentRequired": {"a": "b"}}),
        "/dependentRequired/a",
    );
    rejects(json!({"multipleOf": 0}), "/multipleOf");
    rejects(json!({"multipleOf": -2}), "/multipleOf");
    rejects(json!({"minimum": "1"}), "/minimum");
    rejects(json!({"exclusiveMaximum": true}), "/exclusiveMaximum");
    rejects(json!({"minLength": -1}), "/minLength");
    rejects(json!({"maxItems": 1.5}), "/maxItems");
    rejects(
        json!({"minContains": "2", "contains": true}),
        "/minContains",
    );
    rejects(json!({"pattern": "("}), "/pattern");
    rejects(json!({"pattern": "[a"}), "/pattern");
    rejects(
        json!({"patternProperties": {"(": true}}),
        "/patternProperties/(",
    );
    rejects(json!({"format": 1}), "/format");
    rejects(json!({"title": 1}), "/title");
    rejects(json!({"description": []}), "/description");
    rejects(json!({"$comment": 1}), "/$comment");
    rejects(json!({"contentMediaType": 1}), "/contentMediaType");
    rejects(json!({"uniqueItems": "yes"}), "/uniqueItems");
    rejects(json!({"readOnly": 1}), "/readOnly");
    rejects(json!({"deprecated": null}), "/deprecated");
    rejects(json!({"examples": {}}), "/examples");
    rejects(json!({"$defs": {"a": "b"}}), "/$defs/a");
    rejects(json!({"definitions": []}), "/definitions");
    rejects(json!({"items": [{}]}), "/items");
    rejects(json!({"prefixItems": []}), "/prefixItems");
    rejects(json!({"allOf": []}), "/allOf");
    rejects(json!({"anyOf": [1]}), "/anyOf/0");
    rejects(json!({"not": []}), "/not");
    rejects(json!({"additionalItems": 1}), "/additionalItems");
    rejects(json!({"$anchor": "1a"}), "/$anchor");
    rejects(json!({"$id": 1}), "/$id");
    rejects(json!({"$ref": "#/$defs/missing"}), "/$ref");
    rejects(json!({"$ref": 1}), "/$ref");
}

#[test]
fn accepted_values_compile() {
    for schema in [
        json!({"minLength": 2.0, "maxItems": 0, "minimum": -1.5}),
        json!({"x-unknown": {"anything": [1, 2]}, "format": "not-a-known-format"}),
        json!({"$anchor": "_a-b.c", "$id": "https://ex.test/s.json"}),
        json!({"type": ["string", "null"], "enum": [], "const": null, "examples": []}),
        json!(true),
        json!(false),
        json!({"$schema": "http://json-schema.org/draft-04/schema#", "exclusiveMinimum": true, "minimum": 0}),
        json!({"$schema": "https://example.test/unknown-dialect", "type": "string"}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}]}),
    ] {
        assert!(compile(&schema).is_ok(), "{schema}");
    }
}

#[test]
fn external_references_are_refused_unless_registered() {
    let schema = json!({"properties": {"a": {"$ref": "https://ex.test/a.json#/$defs/A"}}});
    let err = compile(&schema).expect_err("the reference is external");
    assert_eq!(
        err,
        Error::Invalid {
            pointer: "/properties/a/$ref".to_owned(),
            message: "external schema retrieval is disabled".to_owned(),
        }
    );
    let resources = Resources::new().with(
        "https://ex.test/a.json",
        json!({"$defs": {"A": {"type": "integer"}}}),
    );
    let validator = compile_with(&schema, &resources, &Options::default()).expect("compiles");
    assert!(validator.is_valid(&json!({"a": 1})));
    assert!(!validator.is_valid(&json!({"a": "1"})));
}

#[test]
fn relative_references_join_against_the_base() {
    let schema = json!({
        "$id": "https://ex.test/root.json",
        "properties": {"item": {"$ref": "item.json"}},
        "$defs": {
            "item": {
                "$id": "item.json",
                "properties": {"name": {"$ref": "#/$defs/Name"}},
                "$defs": {"Name": {"type": "string", "minLength": 1}}
            }
        }
    });
    let validator = compile(&schema).expect("compiles");
    assert!(validator.is_valid(&json!({"item": {"name": "x"}})));
    assert!(!validator.is_valid(&json!({"item": {"name": ""}})));
}

#[test]
fn compile_errors_become_compile_fallbacks() {
    let reason =
        FallbackReason::from(compile(&json!({"minLength": -1})).expect_err("negative length"));
    assert_eq!(reason.kind, FallbackKind::Compile);
    assert_eq!(reason.pointer, "/minLength");
    let reason = FallbackReason::from(Error::Limits);
    assert_eq!(reason.kind, FallbackKind::Compile);
    assert_eq!(reason.pointer, "");
    assert_eq!(reason.message, "json schema exceeds validation limits");
}

#[test]
fn a_validator_is_send_sync_and_reusable_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Validator>();
    let validator = std::sync::Arc::new(
        compile(&json!({"type": "array", "items": {"type": "integer"}})).expect("compiles"),
    );
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let validator = validator.clone();
            std::thread::spawn(move || {
                (0..100).all(|j| {
                    validator.is_valid(&json!([i, j])) && !validator.is_valid(&json!([i, "j"]))
                })
            })
        })
        .collect();
    for handle in handles {
        assert!(handle.join().expect("no panic"));
    }
}

#[test]
fn options_are_comparable_hashable_builders() {
    use std::collections::HashSet;
    let a = Options::default().with_assert_formats(false);
    let b = Options::default().with_assert_formats(false);
    assert_eq!(a, b);
    let set: HashSet<Options> = [a.clone(), b, Options::default()].into_iter().collect();
    assert_eq!(set.len(), 2);
    assert_eq!(
        Options::default()
            .with_backtrack_limit(10)
            .with_max_instance_depth(3)
            .with_max_errors(1)
            .with_draft(llmshim_validate::Draft::Draft4),
        Options::default()
            .with_draft(llmshim_validate::Draft::Draft4)
            .with_max_errors(1)
            .with_max_instance_depth(3)
            .with_backtrack_limit(10)
    );
}

#[test]
fn referenced_documents_are_held_to_the_fixed_limits() {
    let mut deep = json!(1);
    for _ in 0..200 {
        deep = json!([deep]);
    }
    let resources = Resources::new()
        .with(
            "https://ex.test/deep.json",
            json!({"$defs": {"c": {"const": deep}}}),
        )
        .with("https://ex.test/small.json", json!({"type": "string"}));
    let options = Options::default();
    let to_deep = json!({"$ref": "https://ex.test/deep.json#/$defs/c"});
    assert_eq!(
        compile_with(&to_deep, &resources, &options).expect_err("the document is too deep"),
        Error::Limits
    );
    // An oversized document that no reference reaches does not matter.
    let to_small = json!({"$ref": "https://ex.test/small.json"});
    assert!(compile_with(&to_small, &resources, &options).is_ok());
}
