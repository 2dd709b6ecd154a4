//! Tests for `tools_corpus`: not written yet.
