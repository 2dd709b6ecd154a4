//! Through the facade, an exact no-op memo hit allocates nothing: a counting global allocator in a test binary of
//! its own (tests in one binary run in parallel, so a shared counter would see other tests' allocations).
//!
//! One of the two files in the workspace that allow `unsafe_code`: implementing `GlobalAlloc` requires an
//! `unsafe impl`. `cargo xtask tidy` rejects the allowance anywhere else.
#![allow(
    unsafe_code,
    reason = "a counting allocator must implement the unsafe GlobalAlloc trait"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use llmshim::cache::Limits;
use llmshim::schema::{Env, EnvFlags, Normalizer, Options, SchemaMemo, Target};
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
fn an_exact_no_op_hit_through_normalize_with_allocates_nothing() {
    let memo = Arc::new(SchemaMemo::new(Limits::default()));
    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).with_memo(memo);
    let options = Options::for_target(Target::Anthropic);
    let mut schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let first = normalizer.normalize_with(&options, &mut schema);
    assert!(!first.changed);
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let second = normalizer.normalize_with(&options, &mut schema);
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(second, first);
    assert_eq!(after - before, 0, "an exact no-op hit allocated");
}
