//! An exact no-op hit allocates nothing, and a changed hit no more than one clone of the stored output (far less
//! when only a small part changed), counted by the allocator of `support/counting.rs` in a test binary of its own,
//! per thread (tests in one binary run in parallel on their own threads).

#[path = "support/counting.rs"]
mod counting;

use llmshim_cache::{Limits, Lookup, Memo};
use llmshim_core::Normalization;
use serde_json::json;

#[test]
fn an_exact_no_op_hit_allocates_nothing_and_a_changed_hit_at_most_one_clone() {
    let memo: Memo<u32> = Memo::new(Limits::default());
    let input = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}});
    let Lookup::Miss(fingerprint) = memo.lookup(&1, &input) else {
        panic!("a fresh memo misses");
    };
    memo.insert(
        fingerprint,
        1,
        input.clone(),
        input.clone(),
        Normalization::default(),
    );
    let changed_input = json!({"type": "string"});
    let Lookup::Miss(fingerprint) = memo.lookup(&2, &changed_input) else {
        panic!("a fresh key misses");
    };
    memo.insert(
        fingerprint,
        2,
        changed_input.clone(),
        json!({"type": "object", "properties": {}}),
        Normalization::default(),
    );

    let mut caller = input.clone();
    let before = counting::allocations();
    let hit = memo.lookup(&1, &caller);
    let Lookup::Hit(hit) = hit else {
        panic!("the stored input hits");
    };
    assert!(hit.is_unchanged());
    hit.apply(&mut caller);
    let report_is_default = *hit.report() == Normalization::default();
    drop(hit);
    let after = counting::allocations();
    assert!(report_is_default);
    assert_eq!(after - before, 0, "an exact no-op hit allocated");

    let stored = json!({"type": "object", "properties": {}});
    let before = counting::allocations();
    let copy = stored.clone();
    let one_clone = counting::allocations() - before;
    drop(copy);

    let mut other = changed_input.clone();
    let before = counting::allocations();
    if let Lookup::Hit(hit) = memo.lookup(&2, &other) {
        hit.apply(&mut other);
    } else {
        panic!("the stored input hits");
    }
    let after = counting::allocations();
    assert_eq!(other, json!({"type": "object", "properties": {}}));
    assert!(
        after - before <= one_clone,
        "a changed hit allocated {} times, more than one clone of the stored output ({one_clone})",
        after - before
    );

    // A large schema of which one member changed: the hit edits that member and leaves the rest where it is.
    let properties: serde_json::Map<String, serde_json::Value> = (0..40)
        .map(|i| {
            (
                format!("p{i}"),
                json!({"type": "string", "description": format!("field {i}")}),
            )
        })
        .collect();
    let large = json!({"type": "object", "properties": properties, "additionalProperties": false});
    let mut output = large.clone();
    if let Some(map) = output.as_object_mut() {
        map.remove("additionalProperties");
    }
    let Lookup::Miss(fingerprint) = memo.lookup(&3, &large) else {
        panic!("a fresh key misses");
    };
    memo.insert(
        fingerprint,
        3,
        large.clone(),
        output.clone(),
        Normalization::default(),
    );
    let before = counting::allocations();
    let copy = output.clone();
    let one_clone = counting::allocations() - before;
    drop(copy);
    let mut caller = large.clone();
    let before = counting::allocations();
    if let Lookup::Hit(hit) = memo.lookup(&3, &caller) {
        hit.apply(&mut caller);
    } else {
        panic!("the stored input hits");
    }
    let after = counting::allocations();
    assert_eq!(caller, output);
    assert!(
        (after - before) * 20 <= one_clone,
        "a hit that removes one key allocated {} times, more than a twentieth of a clone ({one_clone})",
        after - before
    );
}
