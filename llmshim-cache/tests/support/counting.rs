//! A counting global allocator for test binaries that prove a path allocates nothing.
//!
//! It is included with `#[path]` by `llmshim-cache/tests/alloc.rs` and `llmshim/tests/alloc.rs`, each a test binary
//! of its own (tests in one binary run in parallel, so a shared counter would see other tests' allocations).
//! This is the one file in the workspace that allows `unsafe_code`: implementing `GlobalAlloc` requires an
//! `unsafe impl`. `cargo xtask tidy` rejects the allowance anywhere else.
#![allow(
    unsafe_code,
    reason = "a counting allocator must implement the unsafe GlobalAlloc trait"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

/// How many allocations and reallocations the process has made so far.
pub(crate) fn allocations() -> usize {
    ALLOCATIONS.load(Ordering::SeqCst)
}

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
