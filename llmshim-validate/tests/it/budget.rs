//! The work budget: a schema that reaches one subschema along exponentially many paths stops with an error.

use llmshim_validate::{Options, Resources, compile, compile_with, errors};
use serde_json::{Map, Value, json};

/// `d0` is `leaf`; each `dN` applies `d(N-1)` twice through `keyword`, so `d40` reaches `d0` along 2^40 paths.
fn bomb(keyword: &str, levels: usize, leaf: &Value) -> Value {
    let mut defs = Map::new();
    defs.insert("d0".to_owned(), leaf.clone());
    for level in 1..=levels {
        let below = json!({"$ref": format!("#/$defs/d{}", level - 1)});
        defs.insert(
            format!("d{level}"),
            json!({ keyword: [below.clone(), below] }),
        );
    }
    json!({"$ref": format!("#/$defs/d{levels}"), "$defs": defs})
}

const SPENT: &str = ": validation exceeded its work budget of 10000000 subschema applications ()";

#[test]
fn an_any_of_bomb_that_fails_everywhere_stops_with_the_budget_error() {
    let validator = compile(&bomb("anyOf", 40, &json!({"type": "integer"}))).expect("compiles");
    // An integer matches along the first path at once; a string fails along all 2^40.
    assert!(validator.is_valid(&json!(7)));
    assert!(!validator.is_valid(&json!("seven")));
    assert_eq!(errors(&validator, &json!("seven")), [SPENT]);
}

#[test]
fn an_all_of_bomb_that_holds_everywhere_is_invalid_once_the_budget_is_spent() {
    let validator = compile(&bomb("allOf", 40, &json!({"type": "integer"}))).expect("compiles");
    assert!(!validator.is_valid(&json!(7)));
    assert_eq!(errors(&validator, &json!(7)), [SPENT]);
}

#[test]
fn negation_cannot_turn_a_spent_budget_into_a_pass() {
    let inner = bomb("anyOf", 40, &json!({"type": "integer"}));
    let schema = json!({"not": {"$ref": "#/$defs/bomb"}, "$defs": {"bomb": inner}});
    // The references inside the bomb are relative to its own document root, so they are rewritten to its place.
    let text = schema
        .to_string()
        .replace("#/$defs/d", "#/$defs/bomb/$defs/d");
    let schema: Value = serde_json::from_str(&text).expect("still JSON");
    let validator = compile(&schema).expect("compiles");
    assert!(!validator.is_valid(&json!("seven")));
    assert_eq!(errors(&validator, &json!("seven")), [SPENT]);
}

#[test]
fn the_budget_is_an_option_and_counts_subschema_applications() {
    let schema = json!({"type": "array", "items": {"type": "object", "properties": {"a": {"type": "integer"}}}});
    let small = Options::default().with_max_evaluations(12);
    let validator = compile_with(&schema, &Resources::new(), &small).expect("compiles");
    let items = |n: usize| Value::Array(vec![json!({"a": 1}); n]);
    assert!(validator.is_valid(&items(4)));
    assert!(validator.validate(&items(4)).is_ok());
    assert!(!validator.is_valid(&items(40)));
    assert_eq!(
        errors(&validator, &items(40)),
        [": validation exceeded its work budget of 12 subschema applications ()"]
    );
    // The default leaves the same instance alone.
    let default = compile(&schema).expect("compiles");
    assert!(default.is_valid(&items(40)));
}
