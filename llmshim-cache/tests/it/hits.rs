//! Lookups and hits: built once, served as stored, independent of the memo, no-ops left in place.

use crate::support::{Key, Path, changed, normalize, run, served, store};
use llmshim_cache::{Limits, Lookup, Memo};
use llmshim_core::{Change, ChangeKind, FallbackKind, FallbackReason};
use serde_json::{Value, json};

#[test]
fn identical_inputs_build_once_and_later_results_equal_the_first() {
    let memo = Memo::new(Limits::default());
    let key = Key::of("anthropic");
    let input = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let mut first = input.clone();
    let (first_report, path) = run(&memo, &key, &mut first);
    assert_eq!(path, Path::Miss);
    for _ in 0..5 {
        // A fresh value equal to the input, as a gateway would parse from each request.
        let mut value: Value = serde_json::from_str(&input.to_string()).expect("valid JSON");
        let (report, path) = run(&memo, &key, &mut value);
        assert_eq!(path, Path::Hit);
        assert!(llmshim_core::json::identical(&value, &first));
        assert_eq!(report, first_report);
    }
    let stats = memo.stats();
    assert_eq!((stats.misses, stats.inserts, stats.hits), (1, 1, 5));
}

#[test]
fn a_changed_hit_replaces_the_value_with_the_stored_output() {
    let memo = Memo::new(Limits::default());
    let input = json!({"type": "object"});
    let output = json!({"type": "object", "properties": {}});
    store(&memo, 1u8, &input, &output, changed(true));
    let Lookup::Hit(hit) = memo.lookup(&1, &input) else {
        panic!("expected a hit");
    };
    assert!(!hit.is_unchanged());
    let mut value = input.clone();
    hit.apply(&mut value);
    assert!(llmshim_core::json::identical(&value, &output));
    assert_eq!(hit.report(), &changed(true));
    // The input stays readable through the hit after the caller's value became the output.
    assert!(llmshim_core::json::identical(&hit.input(), &input));
}

#[test]
fn mutating_a_returned_value_never_reaches_the_memo() {
    let memo = Memo::new(Limits::default());
    let input = json!({"type": "object"});
    let output = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    store(&memo, 1u8, &input, &output, changed(true));

    let (mut first, _) = served(&memo, &1, &input).expect("a hit");
    first["properties"]["a"]["type"] = json!("number");
    first["extra"] = json!([1, 2, 3]);
    let (second, _) = served(&memo, &1, &input).expect("a hit");
    assert!(llmshim_core::json::identical(&second, &output));

    // The same holds for a value returned by the caller's protocol after a miss.
    let memo = Memo::new(Limits::default());
    let key = Key::of("chat");
    let mut value = json!({"type": "object"});
    run(&memo, &key, &mut value);
    let expected = value.clone();
    value["normalized_by"] = json!("someone else");
    let mut again = json!({"type": "object"});
    assert_eq!(run(&memo, &key, &mut again).1, Path::Hit);
    assert!(llmshim_core::json::identical(&again, &expected));
}

#[test]
fn an_exact_no_op_hit_leaves_the_callers_value_in_place() {
    let memo = Memo::new(Limits::default());
    let input =
        json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}}});
    store(&memo, 1u8, &input, &input, changed(false));

    // The caller's value is built with spare capacity, which no clone would reproduce.
    let mut value = input.clone();
    let mut roomy = String::with_capacity(4096);
    roomy.push_str("string");
    value["properties"]["a"]["type"] = Value::String(roomy);
    let mut items = Vec::with_capacity(1024);
    items.extend([json!("x"), json!("y")]);
    value["properties"]["a"]["enum"] = Value::Array(items);
    let before = buffers(&value);

    let Lookup::Hit(hit) = memo.lookup(&1, &value) else {
        panic!("expected a hit");
    };
    assert!(hit.is_unchanged());
    hit.apply(&mut value);
    assert_eq!(hit.report(), &changed(false));
    assert_eq!(
        buffers(&value),
        before,
        "the value's heap buffers were replaced"
    );
    assert!(llmshim_core::json::identical(&value, &input));
}

/// The address and capacity of every string and array buffer in `value`, in document order.
fn buffers(value: &Value) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(text) => found.push((text.as_ptr() as usize, text.capacity())),
            Value::Array(items) => {
                found.push((items.as_ptr() as usize, items.capacity()));
                stack.extend(items.iter().rev());
            }
            Value::Object(map) => {
                for (key, item) in map {
                    found.push((key.as_ptr() as usize, key.capacity()));
                    stack.push(item);
                }
            }
            _ => {}
        }
    }
    found
}

#[test]
fn the_stored_report_is_returned_as_stored() {
    let memo = Memo::new(Limits::default());
    let input = json!({"type": "object", "properties": {"p": {"$ref": "#/missing"}}});
    let output = json!({"type": "object", "properties": {}});
    let mut report = changed(true);
    report.used_fallback = true;
    report.fallback_reason = Some(FallbackReason::new(
        FallbackKind::UnresolvedRef,
        "/properties/p",
        "no such pointer",
    ));
    report.changes = vec![Change::new(
        "/properties/p",
        "resolve.inline-ref",
        ChangeKind::Rewritten,
    )];
    store(&memo, "chat", &input, &output, report.clone());
    let (value, served_report) = served(&memo, &"chat", &input).expect("a hit");
    assert_eq!(served_report, report);
    assert!(llmshim_core::json::identical(&value, &output));
}

#[test]
fn fallback_results_are_cached() {
    let memo = Memo::new(Limits::default());
    let key = Key::of("chat");
    let mut first = json!(["not", "a", "schema"]);
    let (report, path) = run(&memo, &key, &mut first);
    assert_eq!(path, Path::Miss);
    assert!(report.used_fallback);
    let mut second = json!(["not", "a", "schema"]);
    let (again, path) = run(&memo, &key, &mut second);
    assert_eq!(path, Path::Hit);
    assert_eq!(again, report);
    assert!(llmshim_core::json::identical(&second, &first));
}

#[test]
fn an_output_fed_back_is_served_as_an_exact_no_op() {
    let memo = Memo::new(Limits::default());
    let key = Key::of("chat");
    let mut value = json!({"type": "object", "keep": true});
    assert_eq!(run(&memo, &key, &mut value).1, Path::Miss);
    let Lookup::Hit(hit) = memo.lookup(&key, &value) else {
        panic!("expected a hit");
    };
    assert!(hit.is_unchanged());
    assert!(!hit.report().changed);
}

#[test]
fn a_hit_outlives_its_entry() {
    let memo = Memo::new(Limits::default().with_max_entries(1));
    let input = json!({"type": "object"});
    let output = json!({"type": "object", "properties": {}});
    store(&memo, 1u8, &input, &output, changed(true));
    let Lookup::Hit(hit) = memo.lookup(&1, &input) else {
        panic!("expected a hit");
    };
    // Evict the entry, then clear the memo; the hit still holds what was stored.
    store(&memo, 2u8, &input, &input, changed(false));
    memo.clear();
    let mut value = input.clone();
    hit.apply(&mut value);
    assert!(llmshim_core::json::identical(&value, &output));
    assert!(format!("{hit:?}").starts_with("Hit"));
}

#[test]
fn recomputation_after_a_clear_gives_the_same_result() {
    let memo = Memo::new(Limits::default());
    let key = Key::of("google");
    let mut cached = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
    run(&memo, &key, &mut cached);
    memo.clear();
    let mut recomputed = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
    let (report, path) = run(&memo, &key, &mut recomputed);
    assert_eq!(path, Path::Miss);
    assert!(llmshim_core::json::identical(&cached, &recomputed));
    assert_eq!(
        report,
        normalize(
            &key,
            &json!({"type": "object", "properties": {"a": {"type": "integer"}}})
        )
        .1
    );
}
