//! The error lines: `<instance pointer>: <message> (<schema pointer>)`, capped at `max_errors`.

use llmshim_validate::{Options, Resources, ValidationError, compile, compile_with, errors};
use serde_json::{Value, json};

fn lines(schema: &Value, instance: &Value) -> Vec<String> {
    let validator = compile(schema).unwrap_or_else(|e| panic!("{schema} does not compile: {e}"));
    errors(&validator, instance)
}

#[track_caller]
#[expect(
    clippy::needless_pass_by_value,
    reason = "the call sites read better with owned literals"
)]
fn expect(schema: Value, instance: Value, expected: &[&str]) {
    assert_eq!(
        lines(&schema, &instance),
        expected,
        "schema {schema}, instance {instance}"
    );
}

#[test]
fn assertion_messages_follow_the_table() {
    expect(
        json!({"type": "string"}),
        json!(1),
        &[": expected string, got integer (/type)"],
    );
    expect(
        json!({"type": ["string", "null"]}),
        json!(1.5),
        &[": expected string or null, got number (/type)"],
    );
    expect(json!({"type": "integer"}), json!(1.0), &[]);
    expect(
        json!({"type": "object"}),
        json!([]),
        &[": expected object, got array (/type)"],
    );
    expect(
        json!({"type": "null"}),
        json!(true),
        &[": expected null, got boolean (/type)"],
    );
    expect(
        json!({"enum": ["a", 1]}),
        json!("b"),
        &[": value is not one of the allowed values (/enum)"],
    );
    expect(json!({"enum": [1]}), json!(1.0), &[]);
    expect(
        json!({"const": {"a": [1]}}),
        json!({"a": [2]}),
        &[": value does not equal the constant (/const)"],
    );
    expect(
        json!({"minimum": 0}),
        json!(-1),
        &[": must be >= 0 (/minimum)"],
    );
    expect(
        json!({"maximum": 2.5}),
        json!(3),
        &[": must be <= 2.5 (/maximum)"],
    );
    expect(
        json!({"exclusiveMinimum": 1}),
        json!(1),
        &[": must be > 1 (/exclusiveMinimum)"],
    );
    expect(
        json!({"exclusiveMaximum": 1}),
        json!(1.0),
        &[": must be < 1 (/exclusiveMaximum)"],
    );
    expect(
        json!({"multipleOf": 0.5}),
        json!(1.25),
        &[": must be a multiple of 0.5 (/multipleOf)"],
    );
    expect(
        json!({"minLength": 3}),
        json!("éé"),
        &[": must be at least 3 characters long (/minLength)"],
    );
    expect(json!({"maxLength": 2}), json!("éé"), &[]);
    expect(
        json!({"maxLength": 1}),
        json!("ab"),
        &[": must be at most 1 characters long (/maxLength)"],
    );
    expect(
        json!({"pattern": "^a+$"}),
        json!("b"),
        &[": does not match pattern ^a+$ (/pattern)"],
    );
    expect(json!({"pattern": "a"}), json!("bab"), &[]);
    expect(
        json!({"format": "email"}),
        json!("nope"),
        &[": is not a valid email (/format)"],
    );
    expect(
        json!({"minItems": 2}),
        json!([1]),
        &[": must have at least 2 items (/minItems)"],
    );
    expect(
        json!({"maxItems": 0}),
        json!([1]),
        &[": must have at most 0 items (/maxItems)"],
    );
    expect(
        json!({"uniqueItems": true}),
        json!([1, 1.0]),
        &[": items must be unique (/uniqueItems)"],
    );
    expect(
        json!({"minProperties": 1}),
        json!({}),
        &[": must have at least 1 properties (/minProperties)"],
    );
    expect(
        json!({"maxProperties": 0}),
        json!({"a": 1}),
        &[": must have at most 0 properties (/maxProperties)"],
    );
}

#[test]
fn object_messages_point_at_the_object() {
    expect(
        json!({"required": ["a", "b/c"]}),
        json!({}),
        &[
            r#": missing required property "a" (/required)"#,
            r#": missing required property "b/c" (/required)"#,
        ],
    );
    expect(
        json!({"properties": {"a": true}, "additionalProperties": false}),
        json!({"a": 1, "b": 2}),
        &[r#": property "b" is not allowed (/additionalProperties)"#],
    );
    expect(
        json!({"properties": {"a": true}, "unevaluatedProperties": false}),
        json!({"a": 1, "b": 2}),
        &[r#": property "b" is not allowed (/unevaluatedProperties)"#],
    );
    expect(
        json!({"additionalProperties": {"type": "string"}}),
        json!({"x~y": 1}),
        &["/x~0y: expected string, got integer (/additionalProperties/type)"],
    );
    expect(
        json!({"dependentRequired": {"a": ["b"]}}),
        json!({"a": 1}),
        &[r#": property "a" requires property "b" (/dependentRequired)"#],
    );
    expect(
        json!({"dependencies": {"a": ["b"]}}),
        json!({"a": 1}),
        &[r#": property "a" requires property "b" (/dependencies)"#],
    );
    expect(
        json!({"propertyNames": {"maxLength": 2}}),
        json!({"abc": 1}),
        &[r#": property name "abc" is invalid (/propertyNames)"#],
    );
    expect(
        json!({"properties": {"a/b": {"properties": {"c": {"type": "integer"}}}}}),
        json!({"a/b": {"c": "x"}}),
        &["/a~1b/c: expected integer, got string (/properties/a~1b/properties/c/type)"],
    );
}

#[test]
fn array_messages_carry_item_pointers() {
    expect(
        json!({"items": {"type": "integer"}}),
        json!([1, "a", 2, "b"]),
        &[
            "/1: expected integer, got string (/items/type)",
            "/3: expected integer, got string (/items/type)",
        ],
    );
    expect(
        json!({"prefixItems": [{"type": "string"}], "items": false}),
        json!([1, 2]),
        &[
            "/0: expected string, got integer (/prefixItems/0/type)",
            "/1: no value is allowed here (/items)",
        ],
    );
    expect(
        json!({"prefixItems": [true], "unevaluatedItems": false}),
        json!([1, 2]),
        &["/1: no value is allowed here (/unevaluatedItems)"],
    );
    expect(
        json!({"contains": {"type": "string"}}),
        json!([1]),
        &[": must contain at least 1 matching items (/contains)"],
    );
    expect(
        json!({"contains": {"type": "string"}, "minContains": 2}),
        json!(["a", 1]),
        &[": must contain at least 2 matching items (/minContains)"],
    );
    expect(
        json!({"contains": {"type": "string"}, "maxContains": 1}),
        json!(["a", "b"]),
        &[": must contain at most 1 matching items (/maxContains)"],
    );
}

#[test]
fn combinators_and_references() {
    expect(
        json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
        json!(1),
        &[": does not match any alternative (/anyOf)"],
    );
    expect(
        json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]}),
        json!(1),
        &[": must match exactly one alternative, matched 2 (/oneOf)"],
    );
    expect(
        json!({"oneOf": [{"type": "string"}, {"type": "null"}]}),
        json!(1),
        &[": must match exactly one alternative, matched 0 (/oneOf)"],
    );
    expect(
        json!({"not": {"type": "integer"}}),
        json!(1),
        &[": must not match the excluded schema (/not)"],
    );
    expect(
        json!({"allOf": [{"minimum": 2}, {"maximum": 0}]}),
        json!(1),
        &[
            ": must be >= 2 (/allOf/0/minimum)",
            ": must be <= 0 (/allOf/1/maximum)",
        ],
    );
    expect(
        json!({"if": {"type": "integer"}, "then": {"minimum": 5}, "else": {"type": "string"}}),
        json!(1),
        &[": must be >= 5 (/then/minimum)"],
    );
    expect(
        json!({"if": {"type": "integer"}, "then": {"minimum": 5}, "else": {"type": "string"}}),
        json!(true),
        &[": expected string, got boolean (/else/type)"],
    );
    expect(json!(false), json!(1), &[": no value is allowed here ()"]);
    expect(
        json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "string"}}}),
        json!({"a": 1}),
        &["/a: expected string, got integer (/properties/a/$ref/$ref/type)"],
    );
}

#[test]
fn errors_come_depth_first_in_schema_keyword_order() {
    expect(
        json!({
            "required": ["z"],
            "properties": {"b": {"type": "string"}, "a": {"type": "string", "minLength": 2}},
            "minProperties": 5
        }),
        json!({"a": 1, "b": 2}),
        &[
            r#": missing required property "z" (/required)"#,
            "/b: expected string, got integer (/properties/b/type)",
            "/a: expected string, got integer (/properties/a/type)",
            ": must have at least 5 properties (/minProperties)",
        ],
    );
}

#[test]
fn the_error_cap_is_eight_by_default_and_configurable() {
    let schema = json!({"items": {"type": "string"}});
    let many = Value::Array((0..20).map(Value::from).collect());
    let default = lines(&schema, &many);
    assert_eq!(default.len(), 8);
    assert_eq!(default[7], "/7: expected string, got integer (/items/type)");
    let three = compile_with(
        &schema,
        &Resources::new(),
        &Options::default().with_max_errors(3),
    )
    .expect("compiles");
    assert_eq!(errors(&three, &many).len(), 3);
    let zero = compile_with(
        &schema,
        &Resources::new(),
        &Options::default().with_max_errors(0),
    )
    .expect("compiles");
    assert_eq!(
        errors(&zero, &many).len(),
        1,
        "an invalid instance always has an error"
    );
}

#[test]
fn structured_errors_match_the_lines() {
    let validator = compile(&json!({"properties": {"a": {"type": "string"}}})).expect("compiles");
    let errs = validator.validate(&json!({"a": 1})).expect_err("invalid");
    assert_eq!(errs.len(), 1);
    let first: &ValidationError = &errs[0];
    assert_eq!(first.instance_pointer, "/a");
    assert_eq!(first.schema_pointer, "/properties/a/type");
    assert_eq!(first.message, "expected string, got integer");
    assert_eq!(
        errs[0].to_string(),
        "/a: expected string, got integer (/properties/a/type)"
    );
    assert!(validator.validate(&json!({"a": "x"})).is_ok());
    assert!(!validator.is_valid(&json!({"a": 1})));
}
