//! Output contracts: wire schema, unwrap, strict restore, validation against the original, repair.

use llmshim::schema::validate::Contract;
use llmshim::schema::{Env, EnvFlags, Normalizer, Target};
use serde_json::json;

fn normalizer() -> Normalizer {
    Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo()
}

#[test]
fn a_wrapped_output_is_unwrapped_and_checked_against_the_original() {
    let original = json!({"type": "array", "items": {"type": "string", "minLength": 2}});
    let contract =
        Contract::with_normalizer(&normalizer(), Target::OpenAiResponses, &original, true)
            .expect("compiles");
    assert!(contract.wire().wrapped);
    assert!(contract.wire().normalization.strict);
    assert_eq!(
        contract.check(&json!({"response": ["ab", "cd"]})),
        Ok(json!(["ab", "cd"]))
    );
    // The wire schema lifted `minLength`, the original still enforces it.
    let violations = contract
        .check(&json!({"response": ["ab", "c"]}))
        .expect_err("too short");
    assert_eq!(
        violations.lines,
        ["/1: must be at least 2 characters long (/items/minLength)"]
    );
    let missing = contract
        .check(&json!({"answer": []}))
        .expect_err("no response member");
    assert_eq!(
        missing.lines,
        [": missing required property \"response\" (/required)"]
    );
    assert_eq!(
        contract.repair_message(&missing),
        "The previous response did not satisfy the required output schema: : missing required property \"response\" \
         (/required). Reply again with output that satisfies the schema."
    );
}

#[test]
fn strict_nulls_for_optional_properties_are_restored_before_validation() {
    let original = json!({
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "string", "format": "email"},
            "c": {"anyOf": [{"type": "string"}, {"type": "null"}]}
        },
        "required": ["a"]
    });
    let contract = Contract::with_normalizer(&normalizer(), Target::OpenAiChat, &original, true)
        .expect("compiles");
    assert!(contract.wire().normalization.strict);
    assert_eq!(
        contract.check(&json!({"a": 1, "b": null, "c": null})),
        Ok(json!({"a": 1, "c": null}))
    );
    let violations = contract
        .check(&json!({"a": null, "b": null, "c": null}))
        .expect_err("a is required non-null");
    assert_eq!(
        violations.lines,
        ["/a: expected integer, got null (/properties/a/type)"]
    );
}

#[test]
fn without_strict_nothing_is_restored() {
    let original = json!({"type": "object", "properties": {"b": {"type": "string"}}});
    let contract = Contract::with_normalizer(&normalizer(), Target::Anthropic, &original, false)
        .expect("compiles");
    assert!(!contract.wire().normalization.strict);
    let violations = contract
        .check(&json!({"b": null}))
        .expect_err("null is not a string");
    assert_eq!(
        violations.lines,
        ["/b: expected string, got null (/properties/b/type)"]
    );
}

#[test]
fn an_invalid_original_fails_before_anything_is_sent() {
    let err = Contract::new(
        Target::Google,
        &json!({"type": "object", "minProperties": -1}),
        false,
    )
    .expect_err("invalid");
    assert!(!err.to_string().is_empty());
}

#[test]
fn violations_are_capped_at_eight() {
    let original =
        json!({"type": "object", "required": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]});
    let contract =
        Contract::with_normalizer(&normalizer(), Target::Mcp, &original, false).expect("compiles");
    let violations = contract.check(&json!({})).expect_err("all missing");
    assert_eq!(violations.lines.len(), 8);
}
