//! The bounded fingerprint: what it hashes, what it estimates, and where it gives up.

use crate::support::nested;
use llmshim_cache::Fingerprint;
use serde_json::{Map, Value, json};
use std::hash::DefaultHasher;

/// A fingerprint with a fixed-key hasher, so that equal feeds give equal hashes across calls.
fn fingerprint(value: &Value) -> Option<Fingerprint> {
    Fingerprint::new(value, DefaultHasher::new())
}

fn hash(value: &Value) -> u64 {
    fingerprint(value)
        .map(|f| f.hash())
        .expect("within the limits")
}

fn bytes(value: &Value) -> usize {
    fingerprint(value)
        .map(|f| f.bytes())
        .expect("within the limits")
}

#[test]
fn the_estimate_of_a_string_schema_is_778() {
    // Two values (128), one object (576), the key `type` (4 + 32) and the string `string` (6 + 32).
    assert_eq!(bytes(&json!({"type": "string"})), 778);
}

#[test]
fn the_estimate_counts_every_value_object_key_and_string() {
    assert_eq!(bytes(&json!(null)), 64);
    assert_eq!(bytes(&json!(true)), 64);
    assert_eq!(bytes(&json!(1.5)), 64);
    assert_eq!(bytes(&json!("")), 64 + 32);
    assert_eq!(bytes(&json!([])), 64);
    assert_eq!(bytes(&json!({})), 64 + 576);
    // Values: the object, the array, 1, "xy" and the empty object; keys `a` and `b`; one string.
    let value = json!({"a": [1, "xy"], "b": {}});
    assert_eq!(bytes(&value), 5 * 64 + 2 * 576 + 2 * (1 + 32) + (2 + 32));
    // Non-ASCII text is counted in UTF-8 bytes.
    assert_eq!(bytes(&json!("é")), 64 + 2 + 32);
}

#[test]
fn identical_values_hash_alike() {
    let value = json!({"type": "object", "properties": {"a": {"type": ["string", "null"], "default": -0.0}}});
    assert_eq!(hash(&value), hash(&value.clone()));
    let reparsed: Value = serde_json::from_str(&value.to_string()).expect("valid JSON");
    assert_eq!(hash(&value), hash(&reparsed));
}

#[test]
fn key_order_signed_zero_and_number_kind_all_change_the_hash() {
    let pairs = [
        (json!({"a": 1, "b": 2}), json!({"b": 2, "a": 1})),
        (json!(0.0), json!(-0.0)),
        (json!(1), json!(1.0)),
        (json!(-1), json!(-1.0)),
        (json!(u64::MAX), Value::from(2f64.powi(64))),
        (json!(1), json!(true)),
        (json!(null), json!(false)),
        (json!("a"), json!(["a"])),
        (json!(["ab"]), json!(["a", "b"])),
        (json!({"a": "b"}), json!({"ab": ""})),
        (json!([[], []]), json!([[[]]])),
        (json!([{}]), json!({})),
    ];
    for (a, b) in &pairs {
        assert_ne!(hash(a), hash(b), "{a} and {b}");
    }
}

#[test]
fn a_text_changed_in_any_one_byte_changes_the_hash() {
    // Texts are folded eight bytes at a time; every length around those words, changed at every position, as a
    // string and as a key.
    for len in 1..=40 {
        let text: String = (0..len)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        for at in 0..len {
            let mut bytes = text.clone().into_bytes();
            bytes[at] = b'#';
            let other = String::from_utf8(bytes).expect("ASCII");
            assert_ne!(hash(&json!(text)), hash(&json!(other)), "{text:?}");
            assert_ne!(
                hash(&json!({ text.as_str(): 1 })),
                hash(&json!({ other.as_str(): 1 })),
                "{text:?}"
            );
        }
    }
}

#[test]
fn values_nested_deeper_than_96_get_no_fingerprint() {
    // `null` inside 96 arrays sits at depth 96, the deepest allowed; inside 97 it is too deep.
    assert!(fingerprint(&nested(96)).is_some());
    assert_eq!(fingerprint(&nested(97)), None);
    assert_eq!(fingerprint(&nested(100)), None);
    // An empty container at depth 96 has no members, so nothing is too deep.
    let mut empty_at_96 = json!([]);
    for _ in 0..96 {
        empty_at_96 = json!([empty_at_96]);
    }
    assert!(fingerprint(&empty_at_96).is_some());
    // Objects count the same way as arrays.
    let mut object = json!("leaf");
    for _ in 0..97 {
        object = json!({"p": object});
    }
    assert_eq!(fingerprint(&object), None);
}

#[test]
fn a_hundred_thousand_deep_array_is_refused_without_recursion() {
    let deep = nested(100_000);
    assert_eq!(fingerprint(&deep), None);
    // Dropping such a value recursively would overflow the stack.
    llmshim_core::json::dismantle(deep);
}

#[test]
fn more_than_32_768_values_get_no_fingerprint() {
    // The array itself plus its elements.
    assert!(fingerprint(&Value::Array(vec![Value::Null; 32_767])).is_some());
    assert_eq!(fingerprint(&Value::Array(vec![Value::Null; 32_768])), None);
    assert_eq!(fingerprint(&Value::Array(vec![Value::Null; 32_769])), None);
    // Members are counted as soon as their container is entered, before they are visited.
    let mut map = Map::new();
    map.insert("a".into(), Value::Array(vec![Value::Null; 32_765]));
    map.insert("b".into(), Value::Null);
    assert!(fingerprint(&Value::Object(map.clone())).is_some());
    map.insert("c".into(), Value::Null);
    assert_eq!(fingerprint(&Value::Object(map)), None);
}

#[test]
fn more_than_8_mib_of_key_and_string_bytes_get_no_fingerprint() {
    let limit = Fingerprint::MAX_TEXT_BYTES;
    assert_eq!(limit, 8_388_608);
    assert!(fingerprint(&Value::String("x".repeat(limit))).is_some());
    assert_eq!(fingerprint(&Value::String("x".repeat(limit + 1))), None);
    // Keys count too: one key byte plus a string of the rest fits, two key bytes do not.
    assert!(fingerprint(&json!({"k": "x".repeat(limit - 1)})).is_some());
    assert_eq!(fingerprint(&json!({"kk": "x".repeat(limit - 1)})), None);
    // And strings add up across the value.
    let half = "x".repeat(limit / 2);
    assert!(fingerprint(&json!([half, half])).is_some());
    assert_eq!(fingerprint(&json!([half, half, "x"])), None);
}

#[test]
fn the_limits_are_the_contracts() {
    assert_eq!(Fingerprint::MAX_DEPTH, 96);
    assert_eq!(Fingerprint::MAX_VALUES, 32_768);
    assert_eq!(Fingerprint::MAX_TEXT_BYTES, 8 * 1024 * 1024);
}
