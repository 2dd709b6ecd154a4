//! Tests for `tools_golden`: not written yet.
