//! Tests for `strict_corpus`: not written yet.
