//! Patterns: ECMA-262 translation and bounded matching, so no pattern can hang validation.

use std::time::{Duration, Instant};

use llmshim_validate::{Options, Resources, compile, compile_with, errors};
use serde_json::json;

#[test]
fn the_classic_catastrophic_pattern_answers_quickly() {
    // `^(a+)+$` has no backreference or lookaround, so fancy-regex hands it to its linear-time engine: a long
    // non-matching string is rejected at once with the ordinary pattern message, and nothing backtracks.
    let validator = compile(&json!({"pattern": "^(a+)+$"})).expect("compiles");
    let text = format!("{}!", "a".repeat(100_000));
    let started = Instant::now();
    let lines = errors(&validator, &json!(text));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(lines, [": does not match pattern ^(a+)+$ (/pattern)"]);
}

#[test]
fn a_backtracking_pattern_stops_at_the_limit_with_an_error() {
    // The lookahead forces fancy-regex's backtracking engine, where `(?:a|a)+` is exponential.
    let pattern = "^(?:a|a)+(?!a)b";
    let validator = compile(&json!({"properties": {"s": {"pattern": pattern}}})).expect("compiles");
    let text = "a".repeat(40);
    let started = Instant::now();
    let lines = errors(&validator, &json!({"s": text}));
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(
        lines,
        ["/s: pattern evaluation exceeded the backtrack limit (/properties/s/pattern)"]
    );
    assert!(!validator.is_valid(&json!({"s": "a".repeat(40)})));
    assert!(validator.is_valid(&json!({"s": "ab"})));
}

#[test]
fn the_backtrack_limit_is_an_option() {
    let schema = json!({"pattern": "^(?:a|a)+(?!a)b"});
    let text = json!("aaaaaaaa");
    let generous = compile(&schema).expect("compiles");
    assert_eq!(
        errors(&generous, &text),
        [": does not match pattern ^(?:a|a)+(?!a)b (/pattern)"]
    );
    let tight = compile_with(
        &schema,
        &Resources::new(),
        &Options::default().with_backtrack_limit(10),
    )
    .expect("compiles");
    assert_eq!(
        errors(&tight, &text),
        [": pattern evaluation exceeded the backtrack limit (/pattern)"]
    );
}

#[test]
fn pattern_properties_report_the_backtrack_limit_too() {
    let validator =
        compile(&json!({"patternProperties": {"^(?:a|a)+(?!a)b": {"type": "integer"}}}))
            .expect("compiles");
    let key = "a".repeat(40);
    let lines = errors(&validator, &json!({key.clone(): 1}));
    assert_eq!(
        lines,
        [format!(
            "/{key}: pattern evaluation exceeded the backtrack limit (/patternProperties/^(?:a|a)+(?!a)b)"
        )]
    );
}

#[test]
fn ecma_semantics_hold() {
    let cases = [
        (r"^\d+$", "123", true),
        (r"^\d+$", "١٢٣", false),
        (r"^\w+$", "héllo", false),
        (r"^\s$", "\u{00a0}", true),
        (r"^[^]$", "\n", true),
        (r"^.$", "\u{2028}", false),
        (r"^\cJ$", "\n", true),
        (r"^\u00e9\u{1F600}$", "é😀", true),
        (r"^\-\/\:$", "-/:", true),
        (r"^(?<year>\d{4})-\k<year>$", "2024-2024", true),
        (r"(?<=\$)\d+", "$42", true),
        (r"^a{1,2}}$", "aa}", true),
        (r"^abc$", "abc\n", false),
        (r"\p{Lu}", "É", true),
        (r"cole", "école", true),
    ];
    for (pattern, text, expected) in cases {
        let validator = compile(&json!({"pattern": pattern}))
            .unwrap_or_else(|e| panic!("{pattern} does not compile: {e}"));
        assert_eq!(
            validator.is_valid(&json!(text)),
            expected,
            "{pattern} on {text:?}"
        );
    }
}

#[test]
fn patterns_apply_to_strings_only() {
    let validator = compile(&json!({"pattern": "^a$"})).expect("compiles");
    assert!(validator.is_valid(&json!(1)));
    assert!(validator.is_valid(&json!(["b"])));
}
