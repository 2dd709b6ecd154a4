//! `Normalization::outcome`: what each kind of normalization reports, in one value.

use llmshim::schema::{Env, EnvFlags, FallbackKind, Normalizer, Options, Outcome, Target};
use serde_json::json;

fn normalizer() -> Normalizer {
    Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo()
}

#[test]
fn every_outcome_comes_from_a_real_normalization() {
    let n = normalizer();
    let chat = Options::for_target(Target::OpenAiChat);

    let mut same = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    assert_eq!(
        n.normalize_with(&chat, &mut same).outcome(),
        Outcome::Unchanged
    );

    let mut snake =
        json!({"type": "object", "properties": {"a": {"type": "string", "min_length": 1}}});
    assert_eq!(
        n.normalize_with(&chat, &mut snake).outcome(),
        Outcome::Rewritten
    );

    // Eleven levels of nesting: within Chat's plain rules, past OpenAI's strict limit of ten.
    let mut deep = json!({"type": "string"});
    for _ in 0..11 {
        deep = json!({"type": "object", "properties": {"x": deep}, "required": ["x"]});
    }
    let report = n.normalize_with(&chat.clone().with_strict(true), &mut deep);
    match report.outcome() {
        Outcome::Demoted(reason) => assert_eq!(reason.kind, FallbackKind::ProviderLimit),
        other => panic!("expected a demotion, got {other:?}"),
    }

    let mut missing = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/nope"}}});
    match n.normalize_with(&chat, &mut missing).outcome() {
        Outcome::FellBack(Some(reason)) => assert_eq!(reason.kind, FallbackKind::UnresolvedRef),
        other => panic!("expected a fallback, got {other:?}"),
    }

    let mut anything = json!({"oneOf": []});
    let bypass = chat.clone().with_bypass(true);
    assert_eq!(
        n.normalize_with(&bypass, &mut anything).outcome(),
        Outcome::Bypassed
    );
}

#[test]
fn a_tool_over_the_anthropic_budget_reports_a_demotion() {
    let tools: Vec<_> = (0..21)
        .map(|i| {
            json!({"name": format!("t{i}"), "strict": true, "input_schema": {
                "type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]
            }})
        })
        .collect();
    let mut request = json!({ "tools": tools });
    let report =
        normalizer().normalize_native_tools(&Options::for_target(Target::Anthropic), &mut request);
    let outcomes: Vec<_> = report
        .tools
        .iter()
        .map(|t| t.normalization.outcome())
        .collect();
    assert!(
        outcomes[..20].iter().all(|o| *o == Outcome::Rewritten),
        "{outcomes:?}"
    );
    match outcomes[20] {
        Outcome::Demoted(reason) => assert_eq!(reason.kind, FallbackKind::ProviderLimit),
        other => panic!("expected a demotion, got {other:?}"),
    }
}
