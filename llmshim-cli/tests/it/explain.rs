//! `llmshim explain`: the text format, diagnostics forced on.

use crate::support::{example, llmshim, run};

#[test]
fn explain_prints_the_flags_every_change_and_no_reason_on_success() {
    let out = run(&[
        "explain",
        "--target",
        "chat",
        "--strict",
        &example("pydantic-order.json"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "changed=true used_fallback=false strict=true bypassed=false"
    );
    assert!(lines.len() > 5);
    for line in &lines[1..] {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert!(
            [
                "dropped",
                "lifted",
                "rewritten",
                "relaxed",
                "added",
                "upgraded",
                "narrowed"
            ]
            .contains(&fields[0]),
            "{line}"
        );
        assert!(fields[1].contains('.'), "{line}");
    }
    assert!(lines.contains(&"dropped\tresolve.drop-definitions\t/$defs"));
    assert_eq!(lines.last(), Some(&"rewritten\tstrict.close-object\t"));
}

#[test]
fn explain_ends_with_the_reason() {
    let input = r##"{"type": "object", "properties": {"a": {"$ref": "#/missing"}}}"##;
    let out = llmshim(&["explain", "--target", "google"], input, &[]);
    assert_eq!(out.code, 0);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "changed=true used_fallback=true strict=false bypassed=false"
    );
    assert_eq!(
        lines.len(),
        2,
        "changes are empty after a fallback: {lines:?}"
    );
    assert!(
        lines[1].starts_with("reason\tunresolved_ref\t/properties/a\t"),
        "{}",
        lines[1]
    );
}

#[test]
fn explain_of_a_demotion_lists_changes_and_the_reason() {
    // A boolean subschema cannot be strict, so Chat demotes the schema to non-strict and says why.
    let input = r#"{"type": "object", "properties": {"a": true}}"#;
    let out = llmshim(&["explain", "--target", "chat", "--strict"], input, &[]);
    assert_eq!(out.code, 0);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[0].contains("strict=false"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("relaxed\tstrict.demoted\t")),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().starts_with("reason\t"), "{lines:?}");
}

#[test]
fn explain_of_a_bypass_is_one_line() {
    let out = llmshim(
        &["explain", "--target", "chat", "--pretty"],
        r##"{"$ref": "#/x"}"##,
        &[("LLMSHIM_NO_SCHEMA_NORMALIZATION", "1")],
    );
    assert_eq!(
        out.stdout,
        "changed=false used_fallback=false strict=false bypassed=true\n"
    );
}
