//! Tests for `invariants`: not written yet.
