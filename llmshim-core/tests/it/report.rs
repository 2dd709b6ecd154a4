//! The report: kind names, reasons, changes and the JSON shape of `Normalization`.

use std::str::FromStr;

use llmshim_core::report::UnknownName;
use llmshim_core::{Change, ChangeKind, FallbackKind, FallbackReason, Normalization};
use serde_json::json;

#[test]
fn fallback_kind_names_are_the_contract_names_and_round_trip() {
    let names: Vec<&str> = FallbackKind::ALL.iter().map(|k| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "invalid_schema",
            "boolean_schema",
            "invalid_ref",
            "external_ref",
            "unresolved_ref",
            "ref_cycle",
            "duplicate_resource",
            "invalid_uri",
            "regex",
            "strict_unsupported",
            "target_unsupported",
            "provider_limit",
            "budget_depth",
            "budget_nodes",
            "budget_literal",
            "compile",
            "not_object"
        ]
    );
    for kind in FallbackKind::ALL {
        assert_eq!(kind.to_string(), kind.as_str());
        assert_eq!(FallbackKind::from_str(kind.as_str()), Ok(kind));
        assert_eq!(kind.as_str().parse::<FallbackKind>(), Ok(kind));
    }
}

#[test]
fn change_kind_names_are_the_contract_names_and_round_trip() {
    let names: Vec<&str> = ChangeKind::ALL.iter().map(|k| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "dropped",
            "lifted",
            "rewritten",
            "relaxed",
            "added",
            "upgraded",
            "narrowed"
        ]
    );
    for kind in ChangeKind::ALL {
        assert_eq!(kind.to_string(), kind.as_str());
        assert_eq!(kind.as_str().parse::<ChangeKind>(), Ok(kind));
    }
}

#[test]
fn unknown_names_are_refused_with_the_name() {
    for name in ["InvalidSchema", "invalid-schema", "", " compile"] {
        let err = name.parse::<FallbackKind>().expect_err("not a kind");
        assert_eq!(err.name, name);
    }
    let err: UnknownName = "Dropped".parse::<ChangeKind>().expect_err("not a kind");
    assert_eq!(err.to_string(), r#"unknown name "Dropped""#);
}

#[test]
fn a_reason_displays_kind_pointer_and_message() {
    let reason = FallbackReason::new(FallbackKind::BudgetDepth, "/items", "too deep");
    assert_eq!(
        (
            reason.kind,
            reason.pointer.as_str(),
            reason.message.as_str()
        ),
        (FallbackKind::BudgetDepth, "/items", "too deep")
    );
    assert_eq!(reason.to_string(), r#"budget_depth at "/items": too deep"#);
    let boxed: Box<dyn std::error::Error> = Box::new(reason);
    assert!(boxed.source().is_none());
}

#[test]
fn a_change_keeps_pointer_rule_and_kind() {
    let change = Change::new("/a/default", "strict.keyword", ChangeKind::Lifted);
    assert_eq!(change.pointer, "/a/default");
    assert_eq!(change.rule, "strict.keyword");
    assert_eq!(change.kind, ChangeKind::Lifted);
    let owned = Change::new("", String::from("acme.rule"), ChangeKind::Added);
    assert_eq!(owned.rule, "acme.rule");
}

#[test]
fn the_default_report_is_all_false_and_empty() {
    let report = Normalization::default();
    assert!(!report.changed && !report.used_fallback && !report.strict && !report.bypassed);
    assert_eq!(report.fallback_reason, None);
    assert!(report.changes.is_empty());
    let bypassed = Normalization::bypassed();
    assert!(bypassed.bypassed && !bypassed.changed && !bypassed.used_fallback && !bypassed.strict);
    assert_eq!(bypassed.fallback_reason, None);
}

#[test]
fn to_json_writes_the_five_flags_in_order() {
    let mut report = Normalization::default();
    report.changed = true;
    report.strict = true;
    let value = report.to_json(false);
    assert_eq!(
        serde_json::to_string(&value).expect("serializes"),
        r#"{"changed":true,"used_fallback":false,"strict":true,"bypassed":false,"narrowed":false}"#
    );
}

#[test]
fn to_json_adds_the_reason_only_when_present_and_changes_only_when_asked() {
    let mut report = Normalization::default();
    report.used_fallback = true;
    report.fallback_reason = Some(FallbackReason::new(
        FallbackKind::InvalidSchema,
        "/properties/a",
        "a schema must be an object or a boolean",
    ));
    report.changes = vec![
        Change::new("/anyOf", "walk.snake-case", ChangeKind::Rewritten),
        Change::new("/a/default", "strict.keyword", ChangeKind::Lifted),
    ];
    let value = report.to_json(true);
    assert_eq!(
        serde_json::to_string(&value).expect("serializes"),
        concat!(
            r#"{"changed":false,"used_fallback":true,"strict":false,"bypassed":false,"narrowed":false,"#,
            r#""fallback_reason":{"kind":"invalid_schema","pointer":"/properties/a","#,
            r#""message":"a schema must be an object or a boolean"},"#,
            r#""changes":[{"pointer":"/anyOf","rule":"walk.snake-case","kind":"rewritten"},"#,
            r#"{"pointer":"/a/default","rule":"strict.keyword","kind":"lifted"}]}"#
        )
    );
    let without = report.to_json(false);
    assert!(without.get("changes").is_none());
    assert_eq!(without["fallback_reason"]["kind"], "invalid_schema");

    let empty = Normalization::default().to_json(true);
    assert_eq!(empty["changes"], json!([]));
    assert!(empty.get("fallback_reason").is_none());
    let keys: Vec<&str> = empty
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "changed",
            "used_fallback",
            "strict",
            "bypassed",
            "narrowed",
            "changes"
        ]
    );
}
