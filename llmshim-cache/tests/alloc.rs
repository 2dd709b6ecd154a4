//! An exact no-op hit allocates nothing: a counting global allocator in a test binary of its own (tests in one
//! binary run in parallel, so a shared counter would see other tests' allocations).
//!
//! This is the one file in the workspace that allows `unsafe_code`: implementing `GlobalAlloc` requires an
//! `unsafe impl`. `cargo xtask tidy` rejects the allowance anywhere else.
#![allow(
    unsafe_code,
    reason = "a counting allocator must implement the unsafe GlobalAlloc trait"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use llmshim_cache::{Limits, Lookup, Memo};
use llmshim_core::Normalization;
use serde_json::json;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the counter only observes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which `System` shares.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` through `alloc` above with this `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract, which `System` shares.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn an_exact_no_op_hit_allocates_nothing_and_a_changed_hit_only_clones() {
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
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let hit = memo.lookup(&1, &caller);
    let Lookup::Hit(hit) = hit else {
        panic!("the stored input hits");
    };
    assert!(hit.is_unchanged());
    hit.apply(&mut caller);
    let report_is_default = *hit.report() == Normalization::default();
    drop(hit);
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert!(report_is_default);
    assert_eq!(after - before, 0, "an exact no-op hit allocated");

    let stored = json!({"type": "object", "properties": {}});
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let copy = stored.clone();
    let one_clone = ALLOCATIONS.load(Ordering::SeqCst) - before;
    drop(copy);

    let mut other = changed_input.clone();
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    if let Lookup::Hit(hit) = memo.lookup(&2, &other) {
        hit.apply(&mut other);
    } else {
        panic!("the stored input hits");
    }
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(other, json!({"type": "object", "properties": {}}));
    assert_eq!(
        after - before,
        one_clone,
        "a changed hit allocates exactly one clone of the stored output"
    );
}
