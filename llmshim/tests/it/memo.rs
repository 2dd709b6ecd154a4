//! Tests for `memo`: not written yet.
