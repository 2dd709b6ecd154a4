//! Tests for `sdk_google`: not written yet.
