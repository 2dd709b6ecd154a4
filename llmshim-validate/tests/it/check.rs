//! `check`: the verdict and error of compiling, without building a validator for plain schemas.

use llmshim_benches::{testdata, workload};
use llmshim_validate::{Error, check, compile};
use serde_json::{Value, json};

/// `check` gives exactly compile's answer for `schema`; returns whether it compiled.
#[track_caller]
fn agrees(schema: &Value) -> bool {
    let expected = compile(schema).err();
    assert_eq!(
        check(schema).err(),
        expected,
        "check and compile differ on {schema}"
    );
    expected.is_none()
}

/// `schema` placed where a subschema stands: at the root, under `properties`, `items`, `anyOf`, `not`,
/// `additionalProperties`, `$defs` and `prefixItems`; last, as the value of an unknown keyword.
fn placements(schema: &Value) -> Vec<Value> {
    vec![
        schema.clone(),
        json!({"type": "object", "properties": {"a": schema}}),
        json!({"type": "array", "items": schema}),
        json!({"anyOf": [{"type": "string"}, schema]}),
        json!({"not": schema}),
        json!({"additionalProperties": schema}),
        json!({"$defs": {"x": schema}}),
        json!({"prefixItems": [schema], "items": false}),
        json!({"x-vendor": schema}),
    ]
}

#[test]
fn every_bad_keyword_value_gets_the_error_of_compile() {
    let bad = [
        json!({"minLength": -1}),
        json!({"maxItems": 1.5}),
        json!({"minProperties": "2"}),
        json!({"type": "strng"}),
        json!({"type": []}),
        json!({"type": ["string", "string"]}),
        json!({"type": 5}),
        json!({"required": ["a", "a"]}),
        json!({"required": "a"}),
        json!({"required": [1]}),
        json!({"required": (0..20).map(|i| format!("p{}", i % 19)).collect::<Vec<_>>()}),
        json!({"pattern": "("}),
        json!({"pattern": 5}),
        json!({"items": []}),
        json!({"items": 5}),
        json!({"anyOf": []}),
        json!({"oneOf": {}}),
        json!({"allOf": [5]}),
        json!({"prefixItems": []}),
        json!({"properties": {"a": 1}}),
        json!({"properties": []}),
        json!({"enum": 5}),
        json!({"examples": {}}),
        json!({"multipleOf": 0}),
        json!({"multipleOf": -2}),
        json!({"minimum": "1"}),
        json!({"exclusiveMaximum": true}),
        json!({"readOnly": "yes"}),
        json!({"uniqueItems": 1}),
        json!({"description": 5}),
        json!({"title": null}),
        json!({"$comment": []}),
        json!({"format": 1}),
        json!({"contentMediaType": 1}),
        json!({"not": 5}),
        json!({"additionalProperties": "no"}),
        json!({"propertyNames": 1}),
        json!({"$defs": {"x": 1}}),
        json!({"$ref": "#/nowhere"}),
        json!({"$ref": "https://example.test/x.json"}),
        json!({"$id": 5}),
        json!({"$anchor": "1bad"}),
        json!({"any_of": [{"$id": "http://[bad"}]}),
        json!({"definitions": {"x": 1}}),
        json!({"dependentRequired": {"a": ["b", "b"]}}),
        json!({"minContains": -1, "contains": {}}),
    ];
    for schema in &bad {
        let placed = placements(schema);
        // Under an unknown keyword the value is data, which neither compiles nor fails.
        let (data, schemas) = placed.split_last().expect("placements");
        for placed in schemas {
            assert!(!agrees(placed), "{placed} compiled");
        }
        assert!(agrees(data), "{data} did not compile");
    }
    assert_eq!(check(&json!(5)).err(), compile(&json!(5)).err());
    // A root `$schema` naming 2020-12 takes the walk; the walk still hands a bad value below it to the compile.
    let named = "https://json-schema.org/draft/2020-12/schema";
    assert!(agrees(
        &json!({"$schema": named, "type": "object", "properties": {"a": {"pattern": "^a"}}})
    ));
    assert!(!agrees(
        &json!({"$schema": named, "properties": {"a": {"minLength": -1}}})
    ));
    assert!(!agrees(
        &json!({"$schema": named, "properties": {"a": {"pattern": "("}}})
    ));
    assert!(matches!(check(&json!("x")), Err(Error::Invalid { .. })));
}

#[test]
fn plain_schemas_and_their_neighbours_agree() {
    let good = [
        json!(true),
        json!({}),
        json!({"type": ["string", "null"], "minLength": 0, "maxLength": 2.0, "pattern": "^[a-z]+$"}),
        json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 0, "multipleOf": 0.5}},
               "required": ["a"], "additionalProperties": false, "x-order": ["a"], "nullable": true}),
        json!({"enum": ["a", 1, null], "const": {"any": "thing"}, "default": {"$id": 5}, "examples": []}),
        json!({"prefixItems": [{"type": "string"}], "items": false, "uniqueItems": true}),
        json!({"anyOf": [{"type": "string", "format": "date-time"}, {"not": {"type": "null"}}]}),
        json!({"$defs": {"x": {"type": "string"}}, "$comment": "unused", "readOnly": false}),
        json!({"required": (0..20).map(|i| format!("p{i}")).collect::<Vec<_>>()}),
        json!({"pattern": "\\p{L}+"}),
        json!({"pattern": "(?<=a)b"}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}]}),
        json!({"$ref": "#/$defs/x", "$defs": {"x": {"type": "string"}}}),
        json!({"if": {"type": "string"}, "then": {"minLength": 1}}),
    ];
    for schema in &good {
        for placed in placements(schema) {
            agrees(&placed);
        }
    }
}

/// Over every schema of the test data, and every instance of the JSON-Schema-Test-Suite read as a schema
/// (arbitrary JSON, many of them refused), `check` answers as compile does.
#[test]
fn check_agrees_with_compile_on_the_test_data() {
    let Some(_) = testdata::require("the JSON-Schema-Test-Suite and the MCP corpus") else {
        return;
    };
    let mut schemas: Vec<Value> = Vec::new();
    for folder in ["draft2020-12", "draft7"] {
        for path in testdata::suite_files_with_optional(folder, None) {
            let groups = testdata::read_suite(&path).unwrap_or_else(|e| panic!("{e}"));
            for group in groups {
                schemas.push(group.schema);
                schemas.extend(group.tests.into_iter().map(|case| case.data));
            }
        }
    }
    for (_, request) in workload::mcp_corpus().unwrap_or_default() {
        schemas.extend(workload::input_schemas(&request));
    }
    for generator in ["pydantic", "zod", "zod4"] {
        schemas.extend(
            workload::generated_schemas(generator)
                .unwrap_or_default()
                .into_iter()
                .map(|(_, s)| s),
        );
    }
    let compiled = schemas.iter().filter(|s| agrees(s)).count();
    eprintln!("check: {} schemas, {compiled} compile", schemas.len());
    assert!(compiled > 1000 && schemas.len() - compiled > 100);
}
