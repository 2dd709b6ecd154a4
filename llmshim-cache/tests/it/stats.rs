//! The counters of `Memo::stats` and what `clear` keeps.

use crate::support::{changed, nested, store};
use llmshim_cache::{Limits, Lookup, Memo, Stats};
use serde_json::json;

#[test]
fn every_counter_counts_what_it_says() {
    let memo = Memo::new(Limits::default().with_max_entries(1));
    let (a, b) = (json!({"n": "a"}), json!({"n": "b"}));
    assert_eq!(memo.stats(), Stats::default());

    store(&memo, 0u8, &a, &a, changed(false)); // One miss, one insert.
    assert!(matches!(memo.lookup(&0, &a), Lookup::Hit(_))); // One hit.
    store(&memo, 0u8, &b, &b, changed(false)); // One miss, one insert, one eviction.
    assert!(matches!(memo.lookup(&0, &a), Lookup::Miss(_))); // One miss.
    assert!(matches!(memo.lookup(&0, &nested(100)), Lookup::Unkeyed)); // Nothing.

    let stats = memo.stats();
    assert_eq!(
        (
            stats.hits,
            stats.misses,
            stats.inserts,
            stats.evictions,
            stats.entries
        ),
        (1, 3, 2, 1, 1)
    );
    assert_eq!(stats.bytes, 2 * (64 + 576 + (1 + 32) + 64 + (1 + 32)) + 512);
}

#[test]
fn clear_empties_the_memo_and_keeps_the_counters() {
    let memo = Memo::new(Limits::default());
    let a = json!({"n": "a"});
    store(&memo, 0u8, &a, &a, changed(false));
    let before = memo.stats();
    memo.clear();
    let after = memo.stats();
    assert_eq!((after.entries, after.bytes), (0, 0));
    assert_eq!(
        (after.hits, after.misses, after.inserts, after.evictions),
        (before.hits, before.misses, before.inserts, before.evictions)
    );
    assert!(matches!(memo.lookup(&0, &a), Lookup::Miss(_)));
}

#[test]
fn the_default_memo_has_the_contracts_limits_and_a_readable_debug_form() {
    let memo: Memo<u8> = Memo::default();
    assert_eq!(memo.limits(), Limits::default());
    assert_eq!(
        (memo.limits().max_entries, memo.limits().max_bytes),
        (512, 16_777_216)
    );
    let text = format!("{memo:?}");
    assert!(text.starts_with("Memo"), "{text}");
    assert!(text.contains("max_entries: 512"), "{text}");
}
