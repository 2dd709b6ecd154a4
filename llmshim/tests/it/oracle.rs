//! Tests for `oracle`: not written yet.
