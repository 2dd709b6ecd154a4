//! Tests for `strict_fixtures`: not written yet.
