//! Formats: asserted by default on strings, ignored when `assert_formats` is off.

use llmshim_validate::{Options, Resources, compile, compile_with};
use serde_json::json;

#[test]
fn every_asserted_format_accepts_and_rejects() {
    let cases = [
        (
            "date-time",
            "2024-02-29T23:59:60.5+01:00",
            "2024-02-30T00:00:00Z",
        ),
        ("date", "2000-02-29", "1900-02-29"),
        ("time", "23:59:59z", "24:00:00Z"),
        ("duration", "P1Y2M3DT4H5M6S", "P1H"),
        ("email", "a.b+c@example.co", "a@b@c"),
        ("hostname", "a-b.example", "a_b.example"),
        ("ipv4", "255.255.255.255", "256.0.0.1"),
        ("ipv6", "fe80::1:2", "fe80:::1"),
        ("uri", "urn:isbn:0451450523", "no-scheme/path"),
        ("uri-reference", "../a?b#c", "a b"),
        (
            "uuid",
            "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
            "f81d4fae7dec11d0a76500a0c91e6bf6",
        ),
        ("regex", "^[a-z]+$", "[z-a"),
        ("json-pointer", "/a~1b/0", "a/b"),
    ];
    for (format, good, bad) in cases {
        let validator = compile(&json!({"format": format})).expect("compiles");
        assert!(
            validator.is_valid(&json!(good)),
            "{format} should accept {good:?}"
        );
        assert!(
            !validator.is_valid(&json!(bad)),
            "{format} should reject {bad:?}"
        );
        assert!(
            validator.is_valid(&json!(12)),
            "{format} ignores non-strings"
        );
    }
}

#[test]
fn formats_can_be_annotations_only() {
    let off = compile_with(
        &json!({"format": "email"}),
        &Resources::new(),
        &Options::default().with_assert_formats(false),
    )
    .expect("compiles");
    assert!(off.is_valid(&json!("not an email")));
    let unknown = compile(&json!({"format": "color"})).expect("unknown formats compile");
    assert!(unknown.is_valid(&json!("anything")));
}
