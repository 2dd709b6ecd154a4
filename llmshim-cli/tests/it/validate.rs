//! `llmshim validate`: local validation against the original schema, the validator's error lines, exit 0/1/2.

use serde_json::json;

use crate::support::{example, llmshim, run};

#[test]
fn a_valid_instance_exits_with_zero() {
    let out = run(&[
        "validate",
        "--schema",
        &example("pydantic-order.json"),
        &example("order.json"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json(), json!({"valid": true, "errors": []}));
}

#[test]
fn an_invalid_instance_exits_with_one_and_lists_the_errors() {
    let schema = example("pydantic-order.json");
    let instance = r#"{"customer_id": 7, "items": [], "ship_to": {"street": "x", "city": "y", "postal_code": "1"}}"#;
    let out = llmshim(&["validate", "--schema", &schema], instance, &[]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.json(),
        json!({"valid": false, "errors": [
            "/customer_id: expected string, got integer (/properties/customer_id/type)",
            "/items: must have at least 1 items (/properties/items/minItems)",
            "/ship_to/postal_code: does not match pattern ^[0-9]{5}$ (/properties/ship_to/$ref/properties/postal_code/pattern)"
        ]})
    );
    let capped = llmshim(
        &["validate", "--schema", &schema, "--max-errors", "1", "-"],
        instance,
        &[],
    )
    .json();
    assert_eq!(capped["errors"].as_array().unwrap().len(), 1);
    let pretty = llmshim(
        &["validate", "--schema", &schema, "--pretty"],
        instance,
        &[],
    );
    assert!(
        pretty
            .stdout
            .starts_with("{\n  \"valid\": false,\n  \"errors\": [\n    \"/customer_id"),
        "{}",
        pretty.stdout
    );
}

#[test]
fn format_assertion_can_be_turned_off() {
    let dir = std::env::temp_dir().join(format!("llmshim-cli-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("email.json");
    std::fs::write(&schema, r#"{"type": "string", "format": "email"}"#).unwrap();
    let schema = schema.to_string_lossy().into_owned();
    let asserted = llmshim(
        &["validate", "--schema", &schema],
        r#""not an address""#,
        &[],
    );
    assert_eq!(asserted.code, 1);
    assert_eq!(
        asserted.json()["errors"],
        json!([": is not a valid email (/format)"])
    );
    let ignored = llmshim(
        &["validate", "--schema", &schema, "--no-format-assertion"],
        r#""not an address""#,
        &[],
    );
    assert_eq!(ignored.code, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_schema_that_does_not_compile_exits_with_two() {
    let dir = std::env::temp_dir().join(format!("llmshim-cli-compile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, schema, needle) in [
        ("negative.json", r#"{"minLength": -1}"#, "/minLength"),
        (
            "external.json",
            r#"{"$ref": "https://example.test/a.json"}"#,
            "external schema retrieval is disabled",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, schema).unwrap();
        let out = llmshim(
            &["validate", "--schema", &path.to_string_lossy()],
            "\"x\"",
            &[],
        );
        assert_eq!(out.code, 2, "{name}");
        assert!(out.stdout.is_empty());
        assert!(
            out.stderr.contains("does not compile") && out.stderr.contains(needle),
            "{}",
            out.stderr
        );
    }
    // The schema may come from standard input when the instance is a file.
    let from_stdin = llmshim(
        &["validate", "--schema", "-", &example("order.json")],
        r#"{"type": "object"}"#,
        &[],
    );
    assert_eq!(from_stdin.code, 0, "{}", from_stdin.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}
