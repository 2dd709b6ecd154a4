//! Hostile inputs end in a typed error within the budgets, never a hang or a stack overflow.

use std::thread;

use llmshim_core::json::dismantle;
use llmshim_resolve::{Budget, ErrorKind, Options, Resources, dereference};
use serde_json::{Map, Value, json};

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawns")
        .join()
        .expect("no overflow or panic")
}

fn nested(depth: usize) -> Value {
    let mut v = json!({"type": "string"});
    for _ in 0..depth {
        let mut m = Map::new();
        m.insert("items".to_owned(), v);
        v = Value::Object(m);
    }
    v
}

#[test]
fn a_hundred_thousand_levels_fail_on_the_borrowed_input() {
    let kind = on_small_stack(|| {
        let mut deep = nested(100_000);
        let options = Options::default().with_budget(Budget::default().with_max_depth(usize::MAX));
        let result = dereference(&mut deep, &Resources::new(), &options);
        dismantle(deep);
        result.expect_err("too deep").kind()
    });
    assert_eq!(kind, ErrorKind::Budget);
}

#[test]
fn deep_literals_are_measured_before_any_clone() {
    let kind = on_small_stack(|| {
        let mut literal = json!(0);
        for _ in 0..100_000 {
            literal = Value::Array(vec![literal]);
        }
        // Built by hand: `json!` would serialize the literal recursively.
        let mut map = Map::new();
        map.insert("type".to_owned(), json!("array"));
        map.insert("default".to_owned(), literal);
        let mut schema = Value::Object(map);
        let result = dereference(&mut schema, &Resources::new(), &Options::default());
        dismantle(schema);
        result.expect_err("too deep").kind()
    });
    assert_eq!(kind, ErrorKind::Budget);
}

#[test]
fn the_default_depth_budget_is_96() {
    let mut ok = nested(96);
    dereference(&mut ok, &Resources::new(), &Options::default()).expect("96 levels fit");
    let mut too_deep = nested(97);
    assert_eq!(
        dereference(&mut too_deep, &Resources::new(), &Options::default())
            .expect_err("97 do not")
            .kind(),
        ErrorKind::Budget
    );
}

#[test]
fn reference_bombs_hit_the_node_budget() {
    // Each level refers to the previous one twice, so full expansion would need 2^40 nodes.
    let mut defs = Map::new();
    defs.insert("d0".to_owned(), json!({"type": "string"}));
    for i in 1..=40 {
        let prev = format!("#/$defs/d{}", i - 1);
        defs.insert(
            format!("d{i}"),
            json!({"type": "array", "prefixItems": [{"$ref": prev}, {"$ref": prev}]}),
        );
    }
    let mut schema = json!({"$ref": "#/$defs/d40"});
    schema["$defs"] = Value::Object(defs);
    let err = dereference(&mut schema, &Resources::new(), &Options::default()).expect_err("bomb");
    assert_eq!(err.kind(), ErrorKind::Budget);
}

#[test]
fn mutual_references_are_cycles() {
    let mut s = json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
    assert_eq!(
        dereference(&mut s, &Resources::new(), &Options::default())
            .expect_err("cycle")
            .kind(),
        ErrorKind::Cycle
    );
}

#[test]
fn many_properties_and_huge_literals_stay_within_budget() {
    let mut props = Map::new();
    for i in 0..100_000 {
        props.insert(format!("p{i}"), json!({"type": "string"}));
    }
    let mut wide = json!({"type": "object"});
    wide["properties"] = Value::Object(props);
    assert_eq!(
        dereference(&mut wide, &Resources::new(), &Options::default())
            .expect_err("wide")
            .kind(),
        ErrorKind::Budget
    );

    let mut big = json!({"type": "string", "$id": format!("https://ex.test/{}", "a".repeat(9 * 1024 * 1024))});
    assert_eq!(
        dereference(&mut big, &Resources::new(), &Options::default())
            .expect_err("huge id")
            .kind(),
        ErrorKind::Budget
    );
}
