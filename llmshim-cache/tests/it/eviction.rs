//! Inserts and eviction: the charge, the entry and byte caps, LRU order, and skipped inserts.

use crate::support::{changed, nested, served, store};
use llmshim_cache::{Fingerprint, Limits, Lookup, Memo};
use serde_json::{Value, json};
use std::hash::DefaultHasher;

fn estimate(value: &Value) -> usize {
    Fingerprint::new(value, DefaultHasher::new())
        .map(|f| f.bytes())
        .expect("within the limits")
}

fn hit<K: Eq + std::hash::Hash>(memo: &Memo<K>, key: &K, input: &Value) -> bool {
    matches!(memo.lookup(key, input), Lookup::Hit(_))
}

#[test]
fn the_charge_is_input_plus_output_plus_512() {
    let memo = Memo::new(Limits::default());
    let input = json!({"type": "string"});
    let output = json!({"type": "string", "description": "x"});
    store(&memo, 0u8, &input, &output, changed(true));
    let stats = memo.stats();
    assert_eq!(stats.entries, 1);
    assert_eq!(stats.bytes, 778 + estimate(&output) + 512);
    assert_eq!(estimate(&output), 778 + 64 + (11 + 32) + (1 + 32));
}

#[test]
fn with_capacity_two_the_recently_used_entry_survives() {
    let memo = Memo::new(Limits::default().with_max_entries(2));
    let (a, b, c) = (json!({"n": "a"}), json!({"n": "b"}), json!({"n": "c"}));
    store(&memo, 0u8, &a, &a, changed(false));
    store(&memo, 0u8, &b, &b, changed(false));
    // Using `a` makes `b` the least recently used, so `c` evicts `b`.
    assert!(hit(&memo, &0, &a));
    store(&memo, 0u8, &c, &c, changed(false));
    assert!(!hit(&memo, &0, &b));
    assert!(hit(&memo, &0, &a));
    assert!(hit(&memo, &0, &c));
    assert_eq!((memo.stats().entries, memo.stats().evictions), (2, 1));
    // Now `a` is older than `c`, so `b` evicts `a`.
    store(&memo, 0u8, &b, &b, changed(false));
    assert!(!hit(&memo, &0, &a));
    assert!(hit(&memo, &0, &c));
    assert!(hit(&memo, &0, &b));
    assert_eq!((memo.stats().entries, memo.stats().evictions), (2, 2));
}

#[test]
fn without_use_the_oldest_insert_is_evicted_first() {
    let memo = Memo::new(Limits::default().with_max_entries(3));
    let inputs: Vec<Value> = (0..6).map(|n| json!({"n": n})).collect();
    for input in &inputs {
        store(&memo, 0u8, input, input, changed(false));
    }
    let held: Vec<bool> = inputs.iter().map(|input| hit(&memo, &0, input)).collect();
    assert_eq!(held, [false, false, false, true, true, true]);
    assert_eq!(memo.stats().evictions, 3);
}

#[test]
fn a_byte_cap_of_one_entrys_charge_keeps_one_entry() {
    let (a, b) = (json!({"type": "string"}), json!({"type": "number"}));
    let charge = estimate(&a) + estimate(&a) + 512;
    assert_eq!(charge, 778 + 778 + 512);
    let memo = Memo::new(Limits::default().with_max_bytes(charge));
    store(&memo, 0u8, &a, &a, changed(false));
    assert_eq!((memo.stats().entries, memo.stats().bytes), (1, charge));
    // `b` charges as much as `a`, so it takes `a`'s place.
    store(&memo, 0u8, &b, &b, changed(false));
    assert_eq!((memo.stats().entries, memo.stats().bytes), (1, charge));
    assert!(hit(&memo, &0, &b));
    assert!(!hit(&memo, &0, &a));
    assert_eq!(memo.stats().evictions, 1);

    // One byte less and the entry does not fit at all.
    let memo = Memo::new(Limits::default().with_max_bytes(charge - 1));
    store(&memo, 0u8, &a, &a, changed(false));
    assert_eq!(memo.stats().entries, 0);
    assert!(!hit(&memo, &0, &a));
}

#[test]
fn a_byte_cap_evicts_as_many_entries_as_it_takes() {
    let small = json!({"t": "s"});
    let large = json!({"t": "s", "more": "x".repeat(10_000)});
    let small_charge = 2 * estimate(&small) + 512;
    let large_charge = 2 * estimate(&large) + 512;
    assert!(large_charge > 2 * small_charge);
    let memo = Memo::new(Limits::default().with_max_bytes(large_charge));
    for n in 0..3 {
        let input = json!({"t": "s", "n": n});
        store(&memo, 0u8, &input, &input, changed(false));
    }
    let before = memo.stats();
    assert_eq!((before.entries, before.evictions), (3, 0));
    store(&memo, 0u8, &large, &large, changed(false));
    let after = memo.stats();
    assert_eq!(after.entries, 1);
    assert_eq!(after.evictions - before.evictions, before.entries as u64);
    assert_eq!(after.bytes, large_charge);
}

#[test]
fn a_cap_of_one_byte_caches_nothing() {
    let memo = Memo::new(Limits::default().with_max_bytes(1));
    let input = json!({});
    store(&memo, 0u8, &input, &input, changed(false));
    store(&memo, 0u8, &input, &input, changed(false));
    let stats = memo.stats();
    assert_eq!(
        (stats.entries, stats.bytes, stats.inserts, stats.misses),
        (0, 0, 0, 2)
    );
}

#[test]
fn zero_entries_cache_nothing() {
    let memo = Memo::new(Limits::default().with_max_entries(0));
    let input = json!({"type": "object"});
    for _ in 0..3 {
        store(&memo, 0u8, &input, &input, changed(false));
    }
    let stats = memo.stats();
    assert_eq!(
        (stats.entries, stats.inserts, stats.hits, stats.misses),
        (0, 0, 0, 3)
    );
}

#[test]
fn a_later_insert_with_the_same_hash_replaces_the_earlier() {
    // Two callers that missed together both insert; the later result is the one held.
    let memo = Memo::new(Limits::default());
    let input = json!({"type": "object"});
    let (Lookup::Miss(first), Lookup::Miss(second)) =
        (memo.lookup(&0u8, &input), memo.lookup(&0u8, &input))
    else {
        panic!("expected two misses");
    };
    memo.insert(first, 0, input.clone(), json!({"from": 1}), changed(true));
    memo.insert(second, 0, input.clone(), json!({"from": 2}), changed(true));
    let stats = memo.stats();
    assert_eq!((stats.entries, stats.inserts, stats.evictions), (1, 2, 0));
    assert_eq!(
        stats.bytes,
        estimate(&input) + estimate(&json!({"from": 2})) + 512
    );
    assert_eq!(
        served(&memo, &0, &input).map(|s| s.0),
        Some(json!({"from": 2}))
    );
}

#[test]
fn inputs_beyond_the_key_limits_get_no_key() {
    let memo = Memo::new(Limits::default());
    let deep = nested(100);
    assert!(matches!(memo.lookup(&0u8, &deep), Lookup::Unkeyed));
    let wide = Value::Array(vec![Value::Null; 32_769]);
    assert!(matches!(memo.lookup(&0u8, &wide), Lookup::Unkeyed));
    let very_deep = nested(100_000);
    assert!(matches!(memo.lookup(&0u8, &very_deep), Lookup::Unkeyed));
    llmshim_core::json::dismantle(very_deep);
    // Unkeyed lookups touch nothing.
    assert_eq!(memo.stats(), Memo::<u8>::new(Limits::default()).stats());
}

#[test]
fn an_output_beyond_the_limits_is_not_stored() {
    let memo = Memo::new(Limits::default());
    let input = json!({"type": "array"});
    for output in [
        nested(97),
        Value::Array(vec![Value::Null; 32_768]),
        nested(100_000),
    ] {
        let Lookup::Miss(fingerprint) = memo.lookup(&0u8, &input) else {
            panic!("expected a miss");
        };
        // A 100 000-deep output would overflow the stack if it were dropped recursively.
        memo.insert(fingerprint, 0, input.clone(), output, changed(true));
    }
    let stats = memo.stats();
    assert_eq!((stats.entries, stats.inserts), (0, 0));
}
