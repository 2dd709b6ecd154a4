//! Property tests: strict outputs pass the check, validate under the oracle and are fixed points; the public
//! functions return on arbitrary JSON.

use llmshim_core::rules::OpenAiLimits;
use llmshim_strict::{admits_null, check, fits, optional_count, union_count};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::support::{changes, run, strict_settings, text};

/// Small case counts by default; `PROPTEST_CASES` raises them.
fn config() -> ProptestConfig {
    if std::env::var_os("PROPTEST_CASES").is_some() {
        ProptestConfig::default()
    } else {
        ProptestConfig::with_cases(48)
    }
}

/// A scalar schema, possibly with keywords that strict lifts.
fn leaf() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(vec!["string", "integer", "number", "boolean", "null"]),
        prop::option::of("[a-z ]{0,8}"),
        prop::option::of(0i64..5),
        any::<bool>(),
    )
        .prop_map(|(ty, description, bound, format)| {
            let mut node = Map::new();
            node.insert("type".to_owned(), json!(ty));
            if let Some(description) = description {
                node.insert("description".to_owned(), json!(description));
            }
            if let Some(bound) = bound {
                node.insert("minimum".to_owned(), json!(bound));
                node.insert("default".to_owned(), json!(bound));
            }
            if format {
                node.insert("format".to_owned(), json!("date"));
                node.insert("x-extra".to_owned(), json!(true));
            }
            Value::Object(node)
        })
}

/// A schema tree of objects, arrays with `items` and `anyOf` unions over the leaves.
fn schema() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            (
                prop::collection::vec(("[a-e]", inner.clone()), 0..4),
                prop::collection::vec(any::<bool>(), 4),
                any::<bool>()
            )
                .prop_map(|(members, picks, open)| {
                    let mut properties = Map::new();
                    for (name, member) in members {
                        properties.entry(name).or_insert(member);
                    }
                    let required: Vec<Value> = properties
                        .keys()
                        .zip(picks)
                        .filter(|(_, pick)| *pick)
                        .map(|(name, _)| json!(name))
                        .collect();
                    let mut node = Map::new();
                    node.insert("type".to_owned(), json!("object"));
                    node.insert("properties".to_owned(), Value::Object(properties));
                    node.insert("required".to_owned(), Value::Array(required));
                    if open {
                        node.insert("additionalProperties".to_owned(), json!(true));
                    }
                    Value::Object(node)
                }),
            (inner.clone(), any::<bool>()).prop_map(|(items, bounded)| {
                let mut node = json!({"type": "array", "items": items});
                if bounded {
                    node["maxItems"] = json!(3);
                }
                node
            }),
            prop::collection::vec(inner, 1..3).prop_map(|branches| json!({"anyOf": branches})),
        ]
    })
}

/// Arbitrary JSON, to feed the public functions values that are not schemas at all.
fn arbitrary_json() -> impl Strategy<Value = Value> {
    let scalar = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "[a-z]{0,4}".prop_map(Value::String),
    ];
    scalar.prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec![
                        "type",
                        "properties",
                        "items",
                        "anyOf",
                        "allOf",
                        "required",
                        "enum",
                        "const",
                        "additionalProperties",
                        "prefixItems",
                        "x"
                    ]),
                    inner
                ),
                0..5
            )
            .prop_map(|members| {
                let mut map = Map::new();
                for (key, value) in members {
                    map.insert(key.to_owned(), value);
                }
                Value::Object(map)
            }),
        ]
    })
}

/// The property names of every `properties` map, in document order.
fn property_names(value: &Value, out: &mut Vec<String>) {
    if let Value::Object(map) = value {
        for (key, child) in map {
            if key == "properties"
                && let Value::Object(members) = child
            {
                out.extend(members.keys().cloned());
            }
            property_names(child, out);
        }
    } else if let Value::Array(items) = value {
        for item in items {
            property_names(item, out);
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn strict_outputs_pass_the_check_and_the_oracle_and_are_fixed_points(input in schema()) {
        let mut out = input.clone();
        run(&mut out, &strict_settings(false)).expect("a generated schema walks");
        prop_assert_eq!(check(&out), []);
        prop_assert!(jsonschema::draft202012::meta::is_valid(&out));
        prop_assert_eq!(optional_count(&out), 0);
        prop_assert_eq!(fits(&out, &OpenAiLimits::OPENAI), Ok(()));

        let once = text(&out);
        let walked = run(&mut out, &strict_settings(true)).expect("walks again");
        prop_assert_eq!(text(&out), once);
        prop_assert_eq!(changes(&walked), []);
    }

    #[test]
    fn property_order_is_preserved(input in schema()) {
        let mut out = input.clone();
        run(&mut out, &strict_settings(false)).expect("a generated schema walks");
        let (mut before, mut after) = (Vec::new(), Vec::new());
        property_names(&input, &mut before);
        property_names(&out, &mut after);
        prop_assert_eq!(before, after);
    }

    #[test]
    fn the_public_functions_return_on_arbitrary_json(value in arbitrary_json()) {
        let _ = check(&value);
        let _ = fits(&value, &OpenAiLimits::OPENAI);
        let _ = optional_count(&value);
        let _ = union_count(&value);
        let _ = admits_null(&value);
    }
}
