//! The Acme target passes the contract checks every built-in passes, and its own golden cases.

use llmshim::schema::{Normalizer, Options, Target};
use serde_json::json;

#[test]
fn acme_passes_the_contract_checks() {
    match llmshim::testing::check_target(&acme_llmshim_target::ACME) {
        Ok(summary) => assert!(summary.runs >= 20),
        Err(problems) => panic!("{problems}"),
    }
}

#[test]
fn acme_rewrites_const_and_lifts_what_it_does_not_keep() {
    let target = Target::custom(&acme_llmshim_target::ACME);
    let mut schema = json!({
        "type": "object",
        "properties": {
            "kind": {"const": "a", "description": "Kind"},
            "n": {"type": ["integer", "null"], "minimum": 1}
        }
    });
    let options = Options::for_target(target).with_diagnostics(true);
    let report = Normalizer::default()
        .without_memo()
        .normalize_with(&options, &mut schema);
    assert!(!report.used_fallback, "{report:?}");
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "kind": {"enum": ["a"], "description": "Kind", "type": "string"},
                "n": {"type": "integer", "description": "(minimum: 1)", "nullable": true}
            }
        })
    );
    assert!(
        report
            .changes
            .iter()
            .any(|c| c.rule == "acme.const-to-enum" && c.pointer == "/properties/kind/enum")
    );
}

#[test]
fn acme_entries_never_mix_with_other_targets_in_the_memo() {
    let acme = Options::for_target(Target::custom(&acme_llmshim_target::ACME));
    let chat = Options::for_target(Target::OpenAiChat);
    assert_ne!(acme, chat);
    let input = json!({"type": "object", "properties": {"c": {"const": 1}}});
    let mut a = input.clone();
    let mut b = input.clone();
    llmshim::schema::normalize_with(&acme, &mut a);
    llmshim::schema::normalize_with(&chat, &mut b);
    assert_eq!(
        a["properties"]["c"],
        json!({"enum": [1], "type": "integer"})
    );
    assert_eq!(b["properties"]["c"], json!({"const": 1, "type": "integer"}));
}
