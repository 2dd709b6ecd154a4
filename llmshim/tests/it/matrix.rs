//! Tests for `matrix`: not written yet.
