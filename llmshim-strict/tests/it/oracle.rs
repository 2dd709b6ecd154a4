//! The `jsonschema` oracle: strict outputs are valid 2020-12 schemas, and they accept and reject what strict
//! promises.

use llmshim_strict::check;
use serde_json::{Value, json};

use crate::support::{run_with_split, strict, strict_settings};

/// Strict inputs that exercise lifting, wrapping, nesting and every kept keyword.
fn inputs() -> Vec<Value> {
    vec![
        json!({"type":"object","properties":{"city":{"type":"string","description":"City name"},"units":{"type":"string","enum":["c","f"],"default":"c"}},"required":["city"]}),
        json!({"type":"object","properties":{"p":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["y"]}},"required":["p"]}),
        json!({"type":"object","properties":{"n":{"type":"integer","description":"  Retries (default: 3)","default":5,"maximum":9}},"required":["n"]}),
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "title": "Everything",
            "properties": {
                "id": {"type": "string", "format": "uuid", "pattern": "^[0-9a-f-]+$", "minLength": 36},
                "tags": {"type": "array", "items": {"type": "string", "const": "t"}, "minItems": 1, "uniqueItems": true},
                "kind": {"type": "string", "enum": ["a", "b"], "examples": ["a"]},
                "shape": {"anyOf": [
                    {"type": "object", "properties": {"r": {"type": "number", "exclusiveMinimum": 0}}},
                    {"type": "object", "properties": {"w": {"type": "number"}, "h": {"type": "number"}}, "required": ["w", "h"]}
                ]},
                "meta": {"type": "object", "additionalProperties": {"type": "string"}, "propertyNames": {"maxLength": 3}},
                "one": {"type": "string", "allOf": [{"type": "string"}]}
            },
            "required": ["id"],
            "dependentRequired": {"id": ["kind"]},
            "not": {"required": ["forbidden"]}
        }),
    ]
}

#[test]
fn strict_outputs_are_valid_2020_12_schemas() {
    for input in inputs() {
        let out = strict(input.clone());
        assert!(
            jsonschema::draft202012::meta::is_valid(&out),
            "{input} gave {out}"
        );
        assert_eq!(check(&out), [], "{out}");
    }
}

#[test]
fn the_k4_output_is_a_valid_2020_12_schema() {
    let mut schema = json!({"type":"object","properties":{"note":{"type":["string","null"]}},"additionalProperties":{"type":"string"}});
    run_with_split(&mut schema, &strict_settings(false)).expect("walks");
    assert!(jsonschema::draft202012::meta::is_valid(&schema));
}

#[test]
fn a_strict_output_requires_every_property_and_accepts_null_for_optionals() {
    let out = strict(inputs().swap_remove(0));
    let validator = jsonschema::draft202012::new(&out).expect("compiles");
    assert!(validator.is_valid(&json!({"city": "Paris", "units": null})));
    assert!(validator.is_valid(&json!({"city": "Paris", "units": "c"})));
    assert!(!validator.is_valid(&json!({"city": "Paris"})));
    assert!(!validator.is_valid(&json!({"city": null, "units": "c"})));
    assert!(!validator.is_valid(&json!({"city": "Paris", "units": "k"})));
    assert!(!validator.is_valid(&json!({"city": "Paris", "units": null, "extra": 1})));
}
