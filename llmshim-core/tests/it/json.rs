//! The JSON model: order-preserving edits, identity, compact text and deep values.

use llmshim_core::json;
use serde_json::{Map, Value, json};

use crate::support::{nested, nested_arrays, on_small_stack};

/// The object inside `value`.
fn map(value: &mut Value) -> &mut Map<String, Value> {
    value.as_object_mut().expect("an object")
}

#[test]
fn rename_in_place_keeps_the_position_and_removes_the_target() {
    let mut value = json!({"a": 1, "new": 0, "old": 2, "z": 3});
    assert!(json::rename_in_place(map(&mut value), "old", "new"));
    assert_eq!(json::compact(&value), r#"{"a":1,"new":2,"z":3}"#);
    assert!(!json::rename_in_place(map(&mut value), "missing", "a"));
    assert_eq!(json::compact(&value), r#"{"a":1,"new":2,"z":3}"#);
}

#[test]
fn remove_keeps_the_other_keys_in_order() {
    let mut value = json!({"a": 1, "b": 2, "c": 3, "d": 4});
    assert_eq!(json::remove(map(&mut value), "b"), Some(json!(2)));
    assert_eq!(json::remove(map(&mut value), "x"), None);
    assert_eq!(json::compact(&value), r#"{"a":1,"c":3,"d":4}"#);
}

#[test]
fn set_replaces_in_place_or_appends() {
    let mut value = json!({"a": 1, "b": 2});
    json::set(map(&mut value), "a", json!(9));
    json::set(map(&mut value), "c", json!(3));
    assert_eq!(json::compact(&value), r#"{"a":9,"b":2,"c":3}"#);
}

#[test]
fn identity_is_stricter_than_equality() {
    let pairs = [
        (json!({"a": 1, "b": 2}), json!({"b": 2, "a": 1})),
        (json!(0.0), json!(-0.0)),
        (
            json!([{"x": {"a": 1, "b": 2}}]),
            json!([{"x": {"b": 2, "a": 1}}]),
        ),
    ];
    for (a, b) in pairs {
        assert_eq!(a, b, "equal values: {a} and {b}");
        assert!(!json::identical(&a, &b), "not identical: {a} and {b}");
    }
    assert_ne!(json!(1), json!(1.0));
    assert!(!json::identical(&json!([1]), &json!([1.0])));
    let same = json!({"a": [1, 2.5, "x", null, true], "b": {"c": -0.0}});
    assert!(json::identical(&same, &same.clone()));
    assert!(!json::identical(&json!([1, 2]), &json!([1, 2, 3])));
    assert!(!json::identical(&json!({"a": 1}), &json!({"b": 1})));
    assert!(!json::identical(&json!("1"), &json!(1)));
}

#[test]
fn compact_matches_serde_json_and_compact_len_matches_compact() {
    let value = json!({
        "s": "quote \" backslash \\ newline \n control \u{7} é",
        "n": [0, -1, 1.5, 1e21, 1e-7, -0.0, 18_446_744_073_709_551_615_u64],
        "o": {"z": null, "a": [true, false, {}, []]},
        "": ""
    });
    let text = json::compact(&value);
    assert_eq!(text, serde_json::to_string(&value).expect("serializes"));
    assert_eq!(json::compact_len(&value), text.len());
    for scalar in [
        json!(null),
        json!(true),
        json!("é"),
        json!(12),
        json!([]),
        json!({}),
        json!("\u{0}\u{8}\t\n\u{b}\u{c}\r\u{1f} \u{7f} \"\\/ 😀"),
        json!({"k\"\n\u{1}": [[], {}, [{}], {"": []}], "é": -0.5}),
        json!([[[1, "a"], {"b": [null]}], 2.5e300]),
    ] {
        assert_eq!(json::compact_len(&scalar), json::compact(&scalar).len());
        assert_eq!(
            json::compact_len(&scalar),
            serde_json::to_string(&scalar).expect("serializes").len()
        );
    }
}

#[test]
fn deep_values_are_rendered_measured_and_dropped_without_recursion() {
    const DEEP: usize = 100_000;
    let (text, len, depth, within) = on_small_stack(|| {
        let value = nested_arrays(DEEP);
        let text = json::compact(&value);
        let len = json::compact_len(&value);
        let depth = json::depth_within(&value, usize::MAX);
        let within = json::depth_within(&value, 96);
        json::dismantle(value);
        (text, len, depth, within)
    });
    assert_eq!(text.len(), 2 * (DEEP + 1));
    assert!(text.starts_with("[[[") && text.ends_with("]]]"));
    assert_eq!(len, text.len());
    assert_eq!(depth, Some(DEEP));
    assert_eq!(within, None);
}

#[test]
fn depth_within_counts_members_one_deeper_than_their_container() {
    assert_eq!(json::depth_within(&json!(1), 0), Some(0));
    assert_eq!(json::depth_within(&json!({"a": [1]}), 2), Some(2));
    assert_eq!(json::depth_within(&json!({"a": [1]}), 1), None);
    assert_eq!(json::depth_within(&nested("a", 5), 5), Some(5));
}
