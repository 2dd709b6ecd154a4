//! Pathological nesting: deep instances, recursive schemas and reference cycles never overflow a 2 MiB stack.

use llmshim_core::json::dismantle;
use llmshim_validate::{Validator, compile, errors};
use serde_json::{Value, json};

/// Runs `f` on a thread with a 2 MiB stack, the size the contract promises to fit in.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn a thread")
        .join()
        .expect("the validation thread does not overflow or panic")
}

/// An array nested `depth` levels deep around `leaf`, built without recursion.
fn nested_arrays(depth: usize, leaf: Value) -> Value {
    let mut value = leaf;
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

/// An object chain `{"next": {"next": … leaf}}` `depth` levels deep.
fn nested_objects(depth: usize, leaf: Value) -> Value {
    let mut value = leaf;
    for _ in 0..depth {
        let mut map = serde_json::Map::new();
        map.insert("next".to_owned(), value);
        value = Value::Object(map);
    }
    value
}

#[test]
fn a_100_000_deep_instance_is_invalid_with_the_nesting_error() {
    let lines = on_small_stack(|| {
        let validator = compile(&json!({"type": "array"})).expect("compiles");
        let deep = nested_arrays(100_000, json!(1));
        let valid = validator.is_valid(&deep);
        let lines = errors(&validator, &deep);
        dismantle(deep);
        (valid, lines)
    });
    assert!(!lines.0);
    assert_eq!(lines.1, [": instance nesting exceeds 128 levels ()"]);
}

#[test]
fn the_depth_limit_is_an_option_and_counts_from_the_root() {
    let validator = compile(&json!({})).expect("compiles");
    let at_limit = nested_arrays(128, json!(null));
    let over = nested_arrays(129, json!(null));
    assert!(validator.is_valid(&at_limit));
    assert!(!validator.is_valid(&over));
    let shallow = llmshim_validate::compile_with(
        &json!({}),
        &llmshim_validate::Resources::new(),
        &llmshim_validate::Options::default().with_max_instance_depth(2),
    )
    .expect("compiles");
    assert!(shallow.is_valid(&json!([[1]])));
    assert_eq!(
        errors(&shallow, &json!([[[1]]])),
        [": instance nesting exceeds 2 levels ()"]
    );
}

fn recursive_validator() -> Validator {
    compile(&json!({
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"next": {"$ref": "#/$defs/node"}},
                "additionalProperties": false,
                "unevaluatedProperties": false
            }
        },
        "allOf": [{"$ref": "#/$defs/node"}]
    }))
    .expect("compiles")
}

#[test]
fn a_recursive_schema_walks_the_deepest_allowed_instance_on_a_small_stack() {
    let (valid, invalid_lines) = on_small_stack(|| {
        let validator = recursive_validator();
        let deep = nested_objects(128, json!({}));
        let valid = validator.is_valid(&deep);
        let bad = nested_objects(127, json!({"next": 1}));
        let lines = errors(&validator, &bad);
        (valid, lines)
    });
    assert!(valid);
    assert_eq!(invalid_lines.len(), 1, "{invalid_lines:?}");
    let instance = "/next".repeat(128);
    let schema = format!("/allOf/0/$ref{}/type", "/properties/next/$ref".repeat(128));
    assert_eq!(
        invalid_lines[0],
        format!("{instance}: expected object, got integer ({schema})")
    );
}

#[test]
fn in_place_reference_cycles_end_with_an_error_instead_of_overflowing() {
    let lines = on_small_stack(|| {
        let schemas = [
            json!({"$ref": "#"}),
            json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}),
            json!({"anyOf": [{"$ref": "#"}]}),
        ];
        schemas
            .iter()
            .map(|schema| {
                let validator = compile(schema).expect("a cyclic schema compiles");
                (validator.is_valid(&json!(1)), errors(&validator, &json!(1)))
            })
            .collect::<Vec<_>>()
    });
    let expected = [
        ": schema evaluation exceeds 512 nested subschemas (",
        ": schema evaluation exceeds 512 nested subschemas (",
        ": does not match any alternative (/anyOf)",
    ];
    for ((valid, lines), expected) in lines.iter().zip(expected) {
        assert!(!valid);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with(expected), "{lines:?}");
    }
}
