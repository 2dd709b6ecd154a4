//! What tells entries apart: every key field and the exact input, even under a hash collision.

use crate::support::{Colliding, Key, changed, served, store};
use llmshim_cache::{Hit, Limits, Lookup, Memo};
use serde_json::{Value, json};
use std::hash::{BuildHasher, RandomState};

/// Each field of [`Key`] changed alone.
fn variants() -> Vec<(&'static str, Key)> {
    let base = Key::of("chat");
    vec![
        (
            "target",
            Key {
                target: "responses",
                ..base.clone()
            },
        ),
        (
            "strict",
            Key {
                strict: true,
                ..base.clone()
            },
        ),
        (
            "nullable",
            Key {
                nullable: 1,
                ..base.clone()
            },
        ),
        (
            "rewrite_one_of",
            Key {
                rewrite_one_of: true,
                ..base.clone()
            },
        ),
        (
            "strip_lookarounds",
            Key {
                strip_lookarounds: true,
                ..base.clone()
            },
        ),
        (
            "bypass",
            Key {
                bypass: true,
                ..base.clone()
            },
        ),
        (
            "max_depth",
            Key {
                max_depth: 95,
                ..base.clone()
            },
        ),
        (
            "max_nodes",
            Key {
                max_nodes: 32_767,
                ..base.clone()
            },
        ),
        (
            "max_literal_bytes",
            Key {
                max_literal_bytes: 12,
                ..base.clone()
            },
        ),
        (
            "diagnostics",
            Key {
                diagnostics: true,
                ..base.clone()
            },
        ),
        (
            "structured_output",
            Key {
                structured_output: true,
                ..base
            },
        ),
    ]
}

#[test]
fn every_key_field_changes_the_entry() {
    let memo = Memo::new(Limits::default());
    let input = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    store(
        &memo,
        Key::of("chat"),
        &input,
        &json!({"from": "base"}),
        changed(true),
    );
    for (field, key) in variants() {
        assert!(
            matches!(memo.lookup(&key, &input), Lookup::Miss(_)),
            "a different {field} was served another entry"
        );
        store(&memo, key, &input, &json!({"from": field}), changed(true));
    }
    // All twelve entries coexist, and each key is served its own output.
    assert_eq!(memo.stats().entries, 12);
    assert_eq!(
        served(&memo, &Key::of("chat"), &input).map(|s| s.0),
        Some(json!({"from": "base"}))
    );
    for (field, key) in variants() {
        assert_eq!(
            served(&memo, &key, &input).map(|s| s.0),
            Some(json!({"from": field}))
        );
    }
}

#[test]
fn every_key_field_changes_the_entry_even_when_hashes_collide() {
    let memo = Memo::with_hasher(Limits::default(), Colliding);
    let input = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let mut previous = (Key::of("chat"), json!({"from": "base"}));
    store(
        &memo,
        previous.0.clone(),
        &input,
        &previous.1,
        changed(true),
    );
    for (field, key) in variants() {
        // The stored key differs in one field only, and the hashes are equal: a miss, never the stored output.
        assert!(
            matches!(memo.lookup(&key, &input), Lookup::Miss(_)),
            "a different {field} was served another entry"
        );
        // Storing replaces the entry with the same hash; the previous key now misses instead of being served ours.
        let output = json!({"from": field});
        store(&memo, key.clone(), &input, &output, changed(true));
        assert_eq!(
            served(&memo, &key, &input).map(|s| s.0),
            Some(output.clone())
        );
        assert_eq!(served(&memo, &previous.0, &input), None);
        previous = (key, output);
    }
    assert_eq!(memo.stats().entries, 1);
}

#[test]
fn a_hash_collision_never_returns_the_other_entry() {
    let memo = Memo::with_hasher(Limits::default(), Colliding);
    let a = json!({"type": "string"});
    let b = json!({"type": "number"});
    store(
        &memo,
        1u8,
        &a,
        &json!({"type": "string", "from": "a"}),
        changed(true),
    );
    // Same hash, same key, different input: a miss, never `a`'s output.
    assert!(matches!(memo.lookup(&1, &b), Lookup::Miss(_)));
    // Same hash, same input, different key: a miss too.
    assert!(matches!(memo.lookup(&2, &a), Lookup::Miss(_)));
    // Storing `b` replaces `a`, the entry with the same hash; each input is only ever served its own output.
    store(
        &memo,
        1u8,
        &b,
        &json!({"type": "number", "from": "b"}),
        changed(true),
    );
    assert_eq!(memo.stats().entries, 1);
    assert!(matches!(memo.lookup(&1, &a), Lookup::Miss(_)));
    let (output, _) = served(&memo, &1, &b).expect("a hit");
    assert_eq!(output, json!({"type": "number", "from": "b"}));
}

fn distinct_entries<S: BuildHasher>(memo: &Memo<u8, S>, first: &Value, second: &Value) {
    let first_output = json!({"from": "first"});
    let second_output = json!({"from": "second"});
    store(memo, 0, first, &first_output, changed(true));
    assert!(
        matches!(memo.lookup(&0, second), Lookup::Miss(_)),
        "{second} was served the entry of {first}"
    );
    store(memo, 0, second, &second_output, changed(true));
    if let Some((output, _)) = served(memo, &0, first) {
        assert_eq!(output, first_output);
    }
    let (output, _) = served(memo, &0, second).expect("the last insert is held");
    assert_eq!(output, second_output);
}

#[test]
fn signed_zeros_key_order_and_number_kinds_are_distinct_entries() {
    // Value equality calls the first two pairs equal; identity tells all three apart.
    let pairs = [
        (
            json!({"type": "number", "default": 0.0}),
            json!({"type": "number", "default": -0.0}),
            true,
        ),
        (json!({"a": 1, "b": 2}), json!({"b": 2, "a": 1}), true),
        (json!({"const": 1}), json!({"const": 1.0}), false),
    ];
    for (first, second, equal) in &pairs {
        assert_eq!(first == second, *equal);
        distinct_entries(&Memo::new(Limits::default()), first, second);
        distinct_entries(&Memo::new(Limits::default()), second, first);
        distinct_entries(
            &Memo::with_hasher(Limits::default(), Colliding),
            first,
            second,
        );
        distinct_entries(
            &Memo::with_hasher(Limits::default(), RandomState::new()),
            second,
            first,
        );
    }
}

#[test]
fn signed_zero_results_are_never_served_for_each_other() {
    // Each default is lifted in its own rendering, and each stays with its own input.
    let memo = Memo::new(Limits::default());
    let positive = json!({"type": "object", "properties": {"z": {"type": "number", "default": 0.0}}, "required": ["z"]});
    let negative = json!({"type": "object", "properties": {"z": {"type": "number", "default": -0.0}}, "required": ["z"]});
    let lifted = |text: &str| json!({"type": "object", "properties": {"z": {"type": "number", "description": text}}});
    store(
        &memo,
        "chat-strict",
        &positive,
        &lifted("(default: 0.0)"),
        changed(true),
    );
    store(
        &memo,
        "chat-strict",
        &negative,
        &lifted("(default: -0.0)"),
        changed(true),
    );
    for _ in 0..3 {
        assert_eq!(
            served(&memo, &"chat-strict", &positive).map(|s| s.0),
            Some(lifted("(default: 0.0)"))
        );
        assert_eq!(
            served(&memo, &"chat-strict", &negative).map(|s| s.0),
            Some(lifted("(default: -0.0)"))
        );
    }
}

/// The output `lookup_as` serves for `input` under `key` starting from `same`, or `None` on a miss.
fn served_as<S: BuildHasher>(
    memo: &Memo<Key, S>,
    key: &Key,
    input: &Value,
    same: &Hit<Key>,
) -> Option<Value> {
    match memo.lookup_as(key, input, same) {
        Lookup::Hit(hit) => {
            let mut value = input.clone();
            hit.apply(&mut value);
            Some(value)
        }
        Lookup::Miss(_) | Lookup::Unkeyed => None,
    }
}

/// A hit for `input` under `key`, which must be stored.
fn hit_of<S: BuildHasher>(memo: &Memo<Key, S>, key: &Key, input: &Value) -> Hit<Key> {
    match memo.lookup(key, input) {
        Lookup::Hit(hit) => hit,
        other => panic!("expected a hit for {input}, got {other:?}"),
    }
}

fn same_input_under_a_second_key<S: BuildHasher>(memo: &Memo<Key, S>) {
    let strict = Key {
        strict: true,
        ..Key::of("anthropic")
    };
    let plain = Key::of("anthropic");
    let input = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let other = json!({"type": "object", "properties": {"b": {"type": "string"}}});
    store(
        memo,
        strict.clone(),
        &input,
        &json!({"from": "strict"}),
        changed(true),
    );
    store(
        memo,
        plain.clone(),
        &other,
        &json!({"from": "other"}),
        changed(true),
    );
    let same = hit_of(memo, &strict, &input);
    // Nothing stored for the input under the plain key: a miss (not the other input's entry, not the strict one),
    // whose fingerprint stores the entry a plain lookup then finds.
    let Lookup::Miss(fingerprint) = memo.lookup_as(&plain, &input, &same) else {
        panic!("expected a miss under the plain key");
    };
    memo.insert(
        fingerprint,
        plain.clone(),
        input.clone(),
        json!({"from": "plain"}),
        changed(true),
    );
    assert_eq!(
        served(memo, &plain, &input).map(|s| s.0),
        Some(json!({"from": "plain"}))
    );
    // Each key is served its own entry, the other input's entry never.
    assert_eq!(
        served_as(memo, &plain, &input, &same),
        Some(json!({"from": "plain"}))
    );
    assert_eq!(
        served_as(memo, &strict, &input, &same),
        Some(json!({"from": "strict"}))
    );
    let other_hit = hit_of(memo, &plain, &other);
    assert_eq!(
        served_as(memo, &plain, &other, &other_hit),
        Some(json!({"from": "other"}))
    );
    // A key with no entry for the input misses.
    let responses = Key::of("responses");
    assert!(matches!(
        memo.lookup_as(&responses, &input, &same),
        Lookup::Miss(_)
    ));
}

#[test]
fn the_same_input_is_found_under_a_second_key_from_the_first_hit() {
    let memo = Memo::new(Limits::default());
    same_input_under_a_second_key(&memo);
    let stats = memo.stats();
    // Two stores (each after a miss), the miss under the plain key and the one under `responses`.
    assert_eq!((stats.misses, stats.inserts), (4, 3));
}

#[test]
fn under_a_second_key_a_colliding_entry_is_served_only_for_its_own_key_and_input() {
    // Every hash is equal, so the table holds one entry at a time, each replacing the one before.
    let memo = Memo::with_hasher(Limits::default(), Colliding);
    let strict = Key {
        strict: true,
        ..Key::of("chat")
    };
    let plain = Key::of("chat");
    let input = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let other = json!({"type": "object", "properties": {"b": {"type": "string"}}});
    store(
        &memo,
        strict.clone(),
        &input,
        &json!({"from": "strict"}),
        changed(true),
    );
    let same = hit_of(&memo, &strict, &input);
    // The held entry is the input's under the strict key: the plain key misses.
    assert!(matches!(
        memo.lookup_as(&plain, &input, &same),
        Lookup::Miss(_)
    ));
    // The other input's plain entry replaces it: same key, same hash, another input, so still a miss.
    store(
        &memo,
        plain.clone(),
        &other,
        &json!({"from": "other"}),
        changed(true),
    );
    assert!(matches!(
        memo.lookup_as(&plain, &input, &same),
        Lookup::Miss(_)
    ));
    // The input's own plain entry is served, and the strict key, whose entry it replaced, misses.
    store(
        &memo,
        plain.clone(),
        &input,
        &json!({"from": "plain"}),
        changed(true),
    );
    assert_eq!(
        served_as(&memo, &plain, &input, &same),
        Some(json!({"from": "plain"}))
    );
    assert_eq!(served_as(&memo, &strict, &input, &same), None);
}

#[test]
fn a_hit_of_another_memo_or_input_never_panics_and_another_memo_serves_its_own() {
    let plain = Key::of("chat");
    let strict = Key {
        strict: true,
        ..Key::of("chat")
    };
    let input = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let other = json!({"type": "array", "items": {"type": "number"}});
    let first = Memo::new(Limits::default());
    let second = Memo::new(Limits::default());
    store(
        &first,
        strict.clone(),
        &input,
        &json!({"from": "first"}),
        changed(true),
    );
    store(
        &second,
        plain.clone(),
        &input,
        &json!({"from": "second"}),
        changed(true),
    );
    store(
        &second,
        plain.clone(),
        &other,
        &json!({"from": "other"}),
        changed(true),
    );
    let from_first = hit_of(&first, &strict, &input);
    // The hit of another memo (another seed) still leads to the entry of an identical input.
    assert_eq!(
        served_as(&second, &plain, &input, &from_first),
        Some(json!({"from": "second"}))
    );
    // A hit for another input breaks the contract; the answer is unspecified, but nothing panics.
    let from_other = hit_of(&second, &plain, &other);
    for input in [&input, &other, &Value::Null, &json!({})] {
        if let Lookup::Hit(hit) = second.lookup_as(&plain, input, &from_other) {
            let mut value = input.clone();
            hit.apply(&mut value);
        }
        drop(first.lookup_as(&strict, input, &from_other));
    }
}
