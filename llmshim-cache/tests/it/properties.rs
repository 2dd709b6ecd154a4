//! Property tests: a hit is served exactly when the input is identical, and always equals recomputation.

use crate::support::{Colliding, Key, Path, changed, normalize, run};
use llmshim_cache::{Fingerprint, Limits, Lookup, Memo};
use proptest::prelude::*;
use serde_json::{Map, Number, Value};
use std::hash::{BuildHasher, DefaultHasher};

/// Small JSON values with the cases identity cares about: signed zeros, `1` against `1.0`, repeated keys.
fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..3).prop_map(Value::from),
        prop_oneof![Just(0.0), Just(-0.0), Just(1.0), Just(-1.5), Just(1e300)]
            .prop_map(|f: f64| Number::from_f64(f).map_or(Value::Null, Value::Number)),
        "[ab]{0,2}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[ab]{1}", inner), 0..4)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A second value that is often identical to, or equal but not identical to, the first, or the first wrapped
/// (as strict wraps an optional property in a union with `null`).
fn pair() -> impl Strategy<Value = (Value, Value)> {
    json().prop_flat_map(|a| {
        let same = Just(a.clone());
        let reordered = Just(reverse_keys(&a));
        let reparsed = Just(serde_json::from_str(&a.to_string()).unwrap_or(Value::Null));
        let wrapped = (json(), json(), any::<bool>()).prop_map({
            let a = a.clone();
            move |(extra, sibling, first)| wrap(&a, extra, sibling, first)
        });
        (
            Just(a),
            prop_oneof![same, reordered, reparsed, json(), wrapped],
        )
    })
}

/// `{"u": [<value, one member moved out and another added>, sibling], "m": <the moved member>}`, the value's
/// branch first or second.
fn wrap(value: &Value, extra: Value, sibling: Value, first: bool) -> Value {
    let mut branch = value.clone();
    let mut outside = Map::new();
    if let Value::Object(map) = &mut branch {
        if let Some(key) = map.keys().next().cloned()
            && let Some(moved) = map.shift_remove(&key)
        {
            outside.insert("m".into(), moved);
        }
        map.insert("added".into(), extra);
    }
    let branches = if first {
        vec![branch, sibling]
    } else {
        vec![sibling, branch]
    };
    let mut wrapper = Map::new();
    wrapper.insert("u".into(), Value::Array(branches));
    wrapper.extend(outside);
    Value::Object(wrapper)
}

/// `value` with the members of every object in reverse order.
fn reverse_keys(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(reverse_keys).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .rev()
                .map(|(k, v)| (k.clone(), reverse_keys(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The owned-bytes estimate of the fingerprint, computed by recursion as a reference.
fn reference_estimate(value: &Value) -> usize {
    64 + match value {
        Value::String(text) => text.len() + 32,
        Value::Array(items) => items.iter().map(reference_estimate).sum(),
        Value::Object(map) => {
            576 + map
                .iter()
                .map(|(k, v)| k.len() + 32 + reference_estimate(v))
                .sum::<usize>()
        }
        _ => 0,
    }
}

fn served_iff_identical<S: BuildHasher>(
    memo: &Memo<u8, S>,
    a: &Value,
    b: &Value,
) -> Result<(), TestCaseError> {
    let Lookup::Miss(fingerprint) = memo.lookup(&0, a) else {
        return Err(TestCaseError::fail("an empty memo hit"));
    };
    let output = Value::String("output".into());
    memo.insert(fingerprint, 0, a.clone(), output.clone(), changed(true));
    let identical = llmshim_core::json::identical(a, b);
    match memo.lookup(&0, b) {
        Lookup::Hit(hit) => {
            prop_assert!(identical, "{} was served the entry of {}", b, a);
            let mut value = b.clone();
            hit.apply(&mut value);
            prop_assert_eq!(value, output);
        }
        Lookup::Miss(_) => prop_assert!(!identical, "{} missed its own entry", b),
        Lookup::Unkeyed => return Err(TestCaseError::fail("a small value got no key")),
    }
    Ok(())
}

proptest! {
    #[test]
    fn a_hit_is_served_exactly_for_an_identical_input((a, b) in pair()) {
        served_iff_identical(&Memo::new(Limits::default()), &a, &b)?;
        served_iff_identical(&Memo::with_hasher(Limits::default(), Colliding), &a, &b)?;
    }

    #[test]
    fn a_changed_hit_gives_a_value_identical_to_the_stored_output((input, output) in pair()) {
        // The hit edits the caller's copy of the input into the output, reusing what it can; the result must be
        // the stored output exactly (key order, number kinds and signed zeros included).
        let memo = Memo::new(Limits::default());
        let Lookup::Miss(fingerprint) = memo.lookup(&0u8, &input) else {
            return Err(TestCaseError::fail("an empty memo hit"));
        };
        memo.insert(fingerprint, 0, input.clone(), output.clone(), changed(true));
        let mut value = input.clone();
        let Lookup::Hit(hit) = memo.lookup(&0, &value) else {
            return Err(TestCaseError::fail("an identical input missed"));
        };
        prop_assert_eq!(hit.is_unchanged(), llmshim_core::json::identical(&input, &output));
        hit.apply(&mut value);
        prop_assert!(llmshim_core::json::identical(&value, &output), "{} patched to {}, not {}", input, value, output);
    }

    #[test]
    fn identical_values_have_equal_fingerprints((a, b) in pair()) {
        let fa = Fingerprint::new(&a, DefaultHasher::new());
        let fb = Fingerprint::new(&b, DefaultHasher::new());
        if llmshim_core::json::identical(&a, &b) {
            prop_assert_eq!(fa, fb);
        }
        prop_assert_eq!(fa.map(|f| f.bytes()), Some(reference_estimate(&a)));
    }

    #[test]
    fn cached_calls_equal_uncached_ones(inputs in prop::collection::vec(json(), 1..12), strict in any::<bool>()) {
        let memo = Memo::new(Limits::default().with_max_entries(4));
        let key = Key { strict, ..Key::of("chat") };
        // Each input is run twice, so that both paths are taken.
        for input in inputs.iter().chain(&inputs) {
            let mut value = input.clone();
            let (report, path) = run(&memo, &key, &mut value);
            prop_assert_ne!(path, Path::Unkeyed);
            let (expected, expected_report) = normalize(&key, input);
            prop_assert!(llmshim_core::json::identical(&value, &expected));
            prop_assert_eq!(report, expected_report);
        }
    }
}
