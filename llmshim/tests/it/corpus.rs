//! Tests for `corpus`: not written yet.
