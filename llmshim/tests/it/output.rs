//! Tests for `output`: not written yet.
