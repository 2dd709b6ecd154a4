//! The OpenAI strict limits, each at its boundary, with kind, pointer and message.

use llmshim_core::FallbackKind;
use llmshim_core::rules::OpenAiLimits;
use llmshim_strict::fits;
use serde_json::{Map, Value, json};

use crate::support::{chain, free, object};

const LIMITS: OpenAiLimits = OpenAiLimits::OPENAI;

/// The message of the `provider_limit` reason for `schema`; the test fails when the schema fits.
fn over(schema: &Value) -> String {
    let reason = fits(schema, &LIMITS).expect_err("over a limit");
    assert_eq!(reason.kind, FallbackKind::ProviderLimit);
    assert_eq!(reason.pointer, "");
    reason.message
}

/// A closed object with `count` string properties named `p0`, `p1`, ….
fn object_with(count: usize) -> Value {
    let mut properties = Map::new();
    for i in 0..count {
        properties.insert(format!("p{i}"), json!({"type": "string"}));
    }
    let required: Vec<Value> = properties.keys().cloned().map(Value::String).collect();
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

/// `count` distinct strings whose UTF-8 lengths add up to exactly `total` bytes (each at least 4 bytes long).
fn strings(count: usize, total: usize) -> Vec<Value> {
    let base = total / count;
    let extra = total % count;
    (0..count)
        .map(|i| {
            let len = base + usize::from(i < extra);
            let tag = format!("{i:04}");
            Value::String(format!("{tag}{}", "x".repeat(len - tag.len())))
        })
        .collect()
}

/// An object with one string property holding `values` as its `enum`.
fn enum_property(values: Vec<Value>) -> Value {
    let property = object([("type", json!("string")), ("enum", Value::Array(values))]);
    object([
        ("type", json!("object")),
        ("properties", object([("e", property)])),
        ("required", json!(["e"])),
        ("additionalProperties", json!(false)),
    ])
}

#[test]
fn the_published_numbers() {
    assert_eq!(
        (
            LIMITS.max_properties,
            LIMITS.max_nesting,
            LIMITS.max_enum_values,
            LIMITS.max_string_bytes,
            LIMITS.large_enum_values,
            LIMITS.large_enum_bytes
        ),
        (5_000, 10, 1_000, 120_000, 250, 15_000)
    );
}

#[test]
fn five_thousand_properties_fit_and_one_more_does_not() {
    assert_eq!(fits(&object_with(5_000), &LIMITS), Ok(()));
    assert_eq!(
        over(&object_with(5_001)),
        "5001 object properties exceed the limit of 5000"
    );
}

#[test]
fn properties_are_counted_across_every_object() {
    let split = |a: usize, b: usize| {
        let mut outer = object_with(a);
        outer["properties"]["inner"] = object_with(b);
        outer
    };
    // The outer object's own `inner` key counts too.
    assert_eq!(fits(&split(2_499, 2_500), &LIMITS), Ok(()));
    assert!(over(&split(2_500, 2_500)).starts_with("5001 object properties"));
}

#[test]
fn ten_nesting_levels_fit_and_eleven_do_not() {
    let nested = |levels: usize| {
        chain(
            levels - 1,
            object_with(1),
            |inner| json!({"type": "object", "properties": {"x": inner}, "required": ["x"], "additionalProperties": false}),
        )
    };
    assert_eq!(fits(&nested(10), &LIMITS), Ok(()));
    assert_eq!(
        over(&nested(11)),
        "nesting of 11 levels exceeds the limit of 10"
    );
}

#[test]
fn arrays_count_as_levels_and_any_of_wrappers_do_not() {
    // Root array plus nine arrays is ten levels; each level sits inside a nullable `anyOf` wrapper.
    let wrapped = |levels: usize| {
        chain(
            levels - 1,
            json!({"type": "array", "items": {"type": "string"}}),
            |inner| json!({"type": "array", "items": {"anyOf": [inner, {"type": "null"}]}}),
        )
    };
    assert_eq!(fits(&wrapped(10), &LIMITS), Ok(()));
    assert!(over(&wrapped(11)).starts_with("nesting of 11 levels"));

    // A root that is only an `anyOf` adds no level either.
    let root_any_of = json!({"anyOf": [wrapped(10), {"type": "null"}]});
    assert_eq!(fits(&root_any_of, &LIMITS), Ok(()));
}

#[test]
fn a_thousand_enum_values_fit_and_one_more_does_not() {
    let two_enums = |a: usize, b: usize| {
        let first: Vec<Value> = (0..a).map(|i| json!(i)).collect();
        let second: Vec<Value> = (0..b).map(|i| json!(i)).collect();
        json!({
            "type": "object",
            "properties": {"a": {"type": "integer", "enum": first}, "b": {"type": "integer", "enum": second}},
            "required": ["a", "b"],
            "additionalProperties": false
        })
    };
    assert_eq!(fits(&two_enums(500, 500), &LIMITS), Ok(()));
    assert_eq!(
        over(&two_enums(500, 501)),
        "1001 enum values exceed the limit of 1000"
    );
}

#[test]
fn a_hundred_and_twenty_thousand_bytes_fit_and_one_more_does_not() {
    // The property name `c` is one byte; the rest is the `const` value.
    let sized = |bytes: usize| json!({"type": "object", "properties": {"c": {"type": "string", "const": "y".repeat(bytes - 1)}}, "required": ["c"], "additionalProperties": false});
    assert_eq!(fits(&sized(120_000), &LIMITS), Ok(()));
    assert_eq!(
        over(&sized(120_001)),
        "120001 bytes of property names, enum and const values exceed the limit of 120000"
    );
}

#[test]
fn string_size_counts_names_enum_and_const_values_in_utf8_bytes() {
    // "é" is two bytes; `true` and `{"k":1}` count by their compact JSON (4 and 7 bytes).
    let schema = json!({
        "type": "object",
        "properties": {
            "é": {"type": "string", "enum": ["éé", null]},
            "k": {"anyOf": [{"type": "boolean", "const": true}, {"type": "object", "properties": {}, "required": [], "additionalProperties": false, "const": {"k": 1}}]}
        },
        "required": ["é", "k"],
        "additionalProperties": false
    });
    // 2 + 1 (names) + 4 + 4 (enum) + 4 + 7 (const) = 22 bytes.
    let mut padded = schema.clone();
    padded["properties"]["pad"] = json!({"type": "string", "const": "z".repeat(120_000 - 22 - 3)});
    assert_eq!(fits(&padded, &LIMITS), Ok(()));
    padded["properties"]["pad"]["const"] = json!("z".repeat(120_000 - 22 - 3 + 1));
    assert!(over(&padded).starts_with("120001 bytes"));
}

#[test]
fn a_large_enum_may_hold_fifteen_thousand_bytes_of_strings() {
    assert_eq!(fits(&enum_property(strings(251, 15_000)), &LIMITS), Ok(()));
    assert_eq!(
        over(&enum_property(strings(251, 15_001))),
        "an enum of 251 values holds 15001 bytes of strings, over the limit of 15000 for enums of more than 250 values"
    );
}

#[test]
fn an_enum_of_250_values_is_not_large() {
    assert_eq!(fits(&enum_property(strings(250, 20_000)), &LIMITS), Ok(()));
}

#[test]
fn only_string_values_count_toward_a_large_enum() {
    let mut values = strings(250, 15_001);
    values.push(json!(12_345));
    assert!(over(&enum_property(values)).starts_with("an enum of 251 values holds 15001 bytes"));

    let mut values = strings(250, 15_000);
    values.push(json!(12_345));
    assert_eq!(fits(&enum_property(values), &LIMITS), Ok(()));
}

#[test]
fn the_first_limit_in_table_order_is_reported() {
    let mut schema = object_with(5_001);
    let values: Vec<Value> = (0..1_001).map(|i| json!(i)).collect();
    schema["properties"]["p0"] = json!({"type": "integer", "enum": values});
    assert!(over(&schema).starts_with("5001 object properties"));
}

#[test]
fn a_hundred_thousand_levels_are_measured_without_overflow() {
    let deep = chain(100_000, json!({"type": "string"}), |inner| {
        object([("type", json!("array")), ("items", inner)])
    });
    assert_eq!(
        over(&deep),
        "nesting of 100000 levels exceeds the limit of 10"
    );
    free(deep);
}
