//! The Acme target passes the contract checks every built-in passes (and every built-in does), and its own golden
//! cases.

use llmshim::schema::{Normalizer, Options, Target};
use llmshim::tools::ToolReport;
use serde_json::json;

#[test]
fn acme_passes_the_contract_checks() {
    match llmshim::testing::check_target(&acme_llmshim_target::ACME) {
        Ok(summary) => assert!(summary.runs >= 20),
        Err(problems) => panic!("{problems}"),
    }
}

#[test]
fn every_built_in_target_passes_the_same_checks() {
    // The kit's checks are the ones the built-ins pass: every row of the table of built-in targets runs them.
    for row in Target::builtins() {
        match llmshim::testing::check_target(row.rules) {
            Ok(summary) => assert!(summary.runs >= 20, "{}", row.name),
            Err(problems) => panic!("{}:\n{problems}", row.name),
        }
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

#[test]
fn acme_tools_are_written_in_acme_s_envelope() {
    let options = Options::for_target(Target::custom(&acme_llmshim_target::ACME)).with_strict(true);
    let mut request = json!({"tools": [
        {"type": "function", "function": {"name": "find", "description": "Find", "parameters": {
            "type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]
        }}},
        {"kind": "function", "name": "ping", "arguments": {"type": "object", "properties": {}}, "strict": false},
        {"type": "web_search"}
    ]});
    let report = Normalizer::default()
        .without_memo()
        .normalize_native_tools(&options, &mut request);
    assert_eq!(
        request,
        json!({"tools": [
            {"kind": "function", "name": "find", "description": "Find", "arguments": {
                "type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"],
                "additionalProperties": false
            }, "strict": true},
            {"kind": "function", "name": "ping", "arguments": {"type": "object", "properties": {}}, "strict": false},
            {"type": "web_search"}
        ]})
    );
    let pointers: Vec<String> = report.tools.iter().map(ToolReport::pointer).collect();
    assert_eq!(
        pointers,
        ["/tools/0/function/parameters", "/tools/1/arguments"]
    );
    assert_eq!(
        acme_llmshim_target::ENVELOPE.schema_pointer(None),
        "/arguments"
    );
}

#[test]
fn acme_s_own_strict_limits_demote_what_openai_s_accept() {
    // Six levels of nested objects: within OpenAI's ten, beyond Acme's five.
    let mut schema = json!({"type": "string"});
    for name in ["f", "e", "d", "c", "b", "a"] {
        schema = json!({"type": "object", "properties": {name: schema}, "required": [name]});
    }
    let normalizer = Normalizer::default().without_memo();
    let acme = Options::for_target(Target::custom(&acme_llmshim_target::ACME)).with_strict(true);
    let mut out = schema.clone();
    let report = normalizer.normalize_with(&acme, &mut out);
    assert!(!report.strict, "{report:?}");
    assert_eq!(
        report.fallback_reason.map(|r| r.kind),
        Some(llmshim::schema::FallbackKind::ProviderLimit)
    );
    assert_eq!(acme_llmshim_target::LIMITS.max_nesting, 5);

    let chat = Options::for_target(Target::OpenAiChat).with_strict(true);
    let mut out = schema;
    assert!(normalizer.normalize_with(&chat, &mut out).strict);
}
