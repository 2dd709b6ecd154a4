//! A counting global allocator for test binaries that prove a path allocates nothing.
//!
//! It is included with `#[path]` by `llmshim-cache/tests/alloc.rs` and `llmshim/tests/alloc.rs`, each a test binary
//! of its own. Each thread keeps its own count: the test harness allocates on its own threads while a test counts
//! (it records and prints the verdict of a test that just finished), and a process-wide counter saw those too.
//! This is the one file in the workspace that allows `unsafe_code`: implementing `GlobalAlloc` requires an
//! `unsafe impl`. `cargo xtask tidy` rejects the allowance anywhere else.
#![allow(
    unsafe_code,
    reason = "a counting allocator must implement the unsafe GlobalAlloc trait"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    // A const initializer needs no allocation and no lazy setup, so the allocator may read it.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// How many allocations and reallocations the calling thread has made so far.
pub(crate) fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// Counts one allocation on the calling thread; a thread being torn down, whose count is gone, is not counted.
fn count() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter only observes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which `System` shares.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` through `alloc` above with this `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract, which `System` shares.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;
