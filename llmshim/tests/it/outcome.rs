//! `Normalization::outcome`: what each kind of normalization reports, in one value.

use llmshim::schema::{
    ChangeKind, Env, EnvFlags, FallbackKind, Normalizer, Options, Outcome, Target,
};
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

    let mut missing =
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/nope"}}, "required": ["a"]});
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

#[test]
fn the_report_says_narrowed_with_and_without_diagnostics() {
    // Gemini needs `items`: an array without them gets string items, which admit fewer arrays than the original.
    let input = json!({"type": "object", "properties": {"tags": {"type": "array"}}});
    for diagnostics in [false, true] {
        let options = Options::for_target(Target::Google).with_diagnostics(diagnostics);
        let mut value = input.clone();
        let report = normalizer().normalize_with(&options, &mut value);
        assert!(report.narrowed, "diagnostics {diagnostics}");
        assert_eq!(report.outcome(), Outcome::Rewritten);
        assert_eq!(report.to_json(false)["narrowed"], true);
        assert_eq!(
            value["properties"]["tags"]["items"],
            json!({"type": "string"})
        );
    }
    // Nothing narrowed: an array with items, and any schema on Chat.
    let mut typed = json!({"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}});
    let report = normalizer().normalize_with(&Options::for_target(Target::Google), &mut typed);
    assert!(!report.narrowed);
    let mut plain = input.clone();
    let report = normalizer().normalize_with(&Options::for_target(Target::OpenAiChat), &mut plain);
    assert!(!report.narrowed && report.changed);

    // A request's summary is narrowed when one of its tools is, and an output schema when either pass is.
    let request = json!({"tools": [
        {"type": "function", "function": {"name": "a", "parameters": {"type": "object", "properties": {}}}},
        {"type": "function", "function": {"name": "b", "parameters": input.clone()}}
    ]});
    let mut wire = request.clone();
    let tools =
        llmshim::tools::normalize_native_tools(&Options::for_target(Target::Google), &mut wire);
    assert!(tools.summary.narrowed);
    assert_eq!(
        tools
            .tools
            .iter()
            .map(|t| t.normalization.narrowed)
            .collect::<Vec<_>>(),
        [false, true]
    );
    let output =
        llmshim::schema::normalize_output_for(Target::Google, &json!({"type": "array"}), false);
    assert!(output.normalization.narrowed);
}

#[test]
fn a_constraint_widened_below_not_or_if_reports_narrowed() {
    // Responses deletes the lookaround of a pattern (`responses.lookaround`): the pattern admits more strings, so a
    // `not` around it admits fewer, and the enclosing schema now refuses every string of eight word characters.
    let pattern = r"^(?=.*[A-Z])\w{8,}$";
    let object = |p: serde_json::Value| json!({"type": "object", "properties": {"p": p}});
    let responses = |diagnostics: bool| {
        Options::for_target(Target::OpenAiResponses).with_diagnostics(diagnostics)
    };
    for diagnostics in [false, true] {
        let mut schema =
            object(json!({"type": "string", "not": {"type": "string", "pattern": pattern}}));
        let report = normalizer().normalize_with(&responses(diagnostics), &mut schema);
        assert_eq!(
            schema["properties"]["p"]["not"]["pattern"], r"^\w{8,}$",
            "{schema}"
        );
        assert!(
            report.narrowed && !report.used_fallback,
            "diagnostics {diagnostics}: {report:?}"
        );
        assert_eq!(report.outcome(), Outcome::Rewritten);
    }
    // Outside `not`, or below two of them, the same deletion only widens.
    for schema in [
        object(json!({"type": "string", "pattern": pattern})),
        object(json!({"type": "string", "not": {"not": {"type": "string", "pattern": pattern}}})),
    ] {
        let mut value = schema.clone();
        let report = normalizer().normalize_with(&responses(true), &mut value);
        assert!(report.changed && !report.narrowed, "{schema}: {report:?}");
    }
    // Below `if`, a wider condition sends more strings to `then`, whose bound they may break.
    let mut conditional = object(json!({
        "type": "string",
        "if": {"pattern": pattern},
        "then": {"maxLength": 10}
    }));
    let report = normalizer().normalize_with(&responses(true), &mut conditional);
    assert_eq!(
        conditional["properties"]["p"]["if"]["pattern"], r"^\w{8,}$",
        "{conditional}"
    );
    assert!(report.narrowed, "{report:?}");
}

#[test]
fn a_part_narrowed_below_not_is_recorded_relaxed_and_not_as_narrowing() {
    // Chat cannot express the external reference, so the union branch holding it is removed (`target.omit-property`):
    // the union admits fewer values, a `not` around it more, and below an `if` fewer strings reach `then` and more
    // reach `else`.
    let union = json!({"anyOf": [{"type": "string"},
        {"type": "object", "properties": {"a": {"$ref": "https://example.test/a"}}, "required": ["a"]}]});
    let cases = [
        (union.clone(), ChangeKind::Narrowed, true),
        (json!({"not": union}), ChangeKind::Relaxed, false),
        (json!({"not": {"not": union}}), ChangeKind::Narrowed, true),
        (
            json!({"if": union, "then": {"minLength": 1}}),
            ChangeKind::Relaxed,
            true,
        ),
        (
            json!({"not": {"if": union, "then": {"minLength": 1}}}),
            ChangeKind::Relaxed,
            true,
        ),
        // The failure is below the `not`, the branch removed above it: a narrowing.
        (
            json!({"anyOf": [{"not": {"$ref": "https://example.test/a"}}, {"type": "integer"}]}),
            ChangeKind::Narrowed,
            true,
        ),
    ];
    for (p, kind, narrowed) in cases {
        for diagnostics in [false, true] {
            let mut schema = json!({"type": "object", "properties": {"p": p}});
            let options = Options::for_target(Target::OpenAiChat).with_diagnostics(diagnostics);
            let report = normalizer().normalize_with(&options, &mut schema);
            assert!(
                !report.used_fallback
                    && schema.to_string().contains("(omitted anyOf: external_ref)"),
                "{p}: {schema}"
            );
            assert_eq!(report.narrowed, narrowed, "{p}: {report:?}");
            let kinds: Vec<ChangeKind> = report
                .changes
                .iter()
                .filter(|c| c.rule == "target.omit-property")
                .map(|c| c.kind)
                .collect();
            let expected = if diagnostics { vec![kind] } else { Vec::new() };
            assert_eq!(kinds, expected, "{p}: {report:?}");
        }
    }
}
