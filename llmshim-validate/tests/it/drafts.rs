//! Draft selection: `$schema`, the draft option, and each draft's vocabulary.

use llmshim_validate::{Draft, Options, Resources, compile, compile_with};
use serde_json::{Value, json};

fn valid(schema: &Value, instance: &Value) -> bool {
    compile(schema)
        .unwrap_or_else(|e| panic!("{schema} does not compile: {e}"))
        .is_valid(instance)
}

#[test]
fn draft_04_reads_boolean_exclusive_bounds_and_id() {
    let schema = json!({
        "$schema": "http://json-schema.org/draft-04/schema#",
        "id": "http://example.test/s.json",
        "type": "object",
        "properties": {"n": {"$ref": "s.json#/definitions/pos"}},
        "definitions": {"pos": {"type": "number", "minimum": 0, "exclusiveMinimum": true}}
    });
    assert!(valid(&schema, &json!({"n": 1})));
    assert!(!valid(&schema, &json!({"n": 0})));
    let lines = llmshim_validate::errors(&compile(&schema).expect("compiles"), &json!({"n": 0}));
    assert_eq!(lines, ["/n: must be > 0 (/properties/n/$ref/minimum)"]);
    // Draft-03 is read as draft-04.
    let draft3 = json!({"$schema": "http://json-schema.org/draft-03/schema#", "minimum": 1, "exclusiveMinimum": true});
    assert!(!valid(&draft3, &json!(1)));
}

#[test]
fn draft_07_ref_overrides_siblings_and_keeps_tuples() {
    let schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"s": {"type": "string"}},
        "properties": {
            "a": {"$ref": "#/definitions/s", "maxLength": 1},
            "t": {"items": [{"type": "integer"}], "additionalItems": false}
        },
        "dependencies": {"a": ["t"]}
    });
    assert!(valid(&schema, &json!({"a": "long", "t": [1]})));
    assert!(!valid(&schema, &json!({"a": "x"})));
    assert!(!valid(&schema, &json!({"t": [1, 2]})));
    // In 2020-12 the sibling applies too.
    let modern = json!({"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "maxLength": 1});
    assert!(!valid(&modern, &json!("long")));
}

#[test]
fn the_option_overrides_the_root_schema_keyword() {
    let schema = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "items": [{"type": "integer"}]});
    assert!(compile(&schema).is_err(), "array items are not 2020-12");
    let as_07 = compile_with(
        &schema,
        &Resources::new(),
        &Options::default().with_draft(Draft::Draft7),
    )
    .expect("compiles as draft-07");
    assert!(!as_07.is_valid(&json!(["a"])));
    assert!(as_07.is_valid(&json!([1, "extra"])));
}

#[test]
fn unknown_dialects_are_read_as_2020_12() {
    let schema =
        json!({"$schema": "https://example.test/my-dialect", "prefixItems": [{"type": "string"}]});
    assert!(!valid(&schema, &json!([1])));
}

#[test]
fn draft_2019_09_recursive_references_follow_the_dynamic_scope() {
    let tree = json!({
        "$schema": "https://json-schema.org/draft/2019-09/schema",
        "$id": "https://ex.test/tree",
        "$recursiveAnchor": true,
        "type": "object",
        "properties": {
            "data": true,
            "children": {"type": "array", "items": {"$recursiveRef": "#"}}
        }
    });
    let strict = json!({
        "$schema": "https://json-schema.org/draft/2019-09/schema",
        "$id": "https://ex.test/strict-tree",
        "$recursiveAnchor": true,
        "$ref": "tree",
        "unevaluatedProperties": false
    });
    let resources = Resources::new().with("https://ex.test/tree", tree.clone());
    let validator = compile_with(&strict, &resources, &Options::default()).expect("compiles");
    assert!(validator.is_valid(&json!({"children": [{"data": 1}]})));
    assert!(!validator.is_valid(&json!({"children": [{"daat": 1}]})));
    // The tree alone accepts the misspelling.
    assert!(valid(&tree, &json!({"children": [{"daat": 1}]})));
}

#[test]
fn dynamic_references_extend_a_generic_list() {
    let list = json!({
        "$id": "https://ex.test/list",
        "$defs": {"item": {"$dynamicAnchor": "item", "not": true}},
        "type": "array",
        "items": {"$dynamicRef": "#item"}
    });
    let strings = json!({
        "$id": "https://ex.test/strings",
        "$ref": "list",
        "$defs": {"item": {"$dynamicAnchor": "item", "type": "string"}}
    });
    let resources = Resources::new().with("https://ex.test/list", list);
    let validator = compile_with(&strings, &resources, &Options::default()).expect("compiles");
    assert!(validator.is_valid(&json!(["a", "b"])));
    assert_eq!(
        llmshim_validate::errors(&validator, &json!(["a", 1])),
        ["/1: expected string, got integer (/$ref/items/$dynamicRef/type)"]
    );
}

#[test]
fn custom_meta_schemas_without_the_validation_vocabulary_turn_assertions_off() {
    let meta = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://ex.test/meta",
        "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/applicator": true}
    });
    let schema = json!({"$schema": "https://ex.test/meta", "properties": {"n": {"minimum": 10}, "no": false}});
    let resources = Resources::new().with("https://ex.test/meta", meta);
    let validator = compile_with(&schema, &resources, &Options::default()).expect("compiles");
    assert!(validator.is_valid(&json!({"n": 1})));
    assert!(!validator.is_valid(&json!({"no": 1})));
}
