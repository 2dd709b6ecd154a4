//! Tests for `adversarial`: not written yet.
