//! Fake schema normalizers that stand in for the facade's real one.

use llmshim_core::{Change, ChangeKind, FallbackKind, FallbackReason, Normalization};
use serde_json::{Value, json};

/// The fallback schema.
pub(crate) fn fallback() -> Value {
    json!({"type": "object", "properties": {}})
}

/// A normalizer that changes nothing and reports nothing.
pub(crate) fn untouched(_schema: &mut Value) -> Normalization {
    Normalization::default()
}

/// A normalizer that skips normalization, as `Options::bypass` does.
pub(crate) fn bypass(_schema: &mut Value) -> Normalization {
    Normalization::bypassed()
}

/// A normalizer that infers `type: "object"` for an object schema with `properties` and no `type`, as W17 does.
pub(crate) fn infer_object(schema: &mut Value) -> Normalization {
    let mut report = Normalization::default();
    if let Some(map) = schema.as_object_mut()
        && map.contains_key("properties")
        && !map.contains_key("type")
    {
        map.insert("type".to_owned(), json!("object"));
        report.changed = true;
        report
            .changes
            .push(Change::new("", "walk.infer-type", ChangeKind::Added));
    }
    report
}

/// A normalizer that sets the schema's `type` from a table keyed by the schema's `title`, and reports a successful
/// strict enforcement with one change.
///
/// The table maps `"scalar"` to `"string"`, `"record"` to `"object"` and `"list"` to `"array"`; other titles are left
/// alone.
pub(crate) fn type_from_title(schema: &mut Value) -> Normalization {
    const TABLE: &[(&str, &str)] = &[
        ("scalar", "string"),
        ("record", "object"),
        ("list", "array"),
    ];
    let mut report = Normalization::default();
    let Some(map) = schema.as_object_mut() else {
        return report;
    };
    let title = map.get("title").and_then(Value::as_str).unwrap_or("");
    if let Some((_, ty)) = TABLE.iter().find(|(key, _)| *key == title) {
        map.insert("type".to_owned(), json!(ty));
        report.changed = true;
        report.strict = true;
        report.changes.push(Change::new(
            "/type",
            "test.type-from-title",
            ChangeKind::Rewritten,
        ));
    }
    report
}

/// A report with every field set, as after a strict demotion with diagnostics on.
pub(crate) fn busy_report() -> Normalization {
    let mut report = Normalization::default();
    report.changed = true;
    report.strict = true;
    report.fallback_reason = Some(FallbackReason::new(
        FallbackKind::ProviderLimit,
        "/properties/a",
        "too many optional parameters",
    ));
    report.changes = vec![
        Change::new("/properties/a", "strict.keyword", ChangeKind::Lifted),
        Change::new("", "strict.demoted", ChangeKind::Relaxed),
    ];
    report
}

/// The report of the not-object fallback, with the given `changed` and the message ignored.
pub(crate) fn assert_not_object_fallback(report: &Normalization, changed: bool) {
    assert_eq!(report.changed, changed, "changed: {report:?}");
    assert!(report.used_fallback, "used_fallback: {report:?}");
    assert!(!report.strict, "strict: {report:?}");
    assert!(!report.bypassed, "bypassed: {report:?}");
    assert!(report.changes.is_empty(), "changes: {report:?}");
    let reason = report
        .fallback_reason
        .as_ref()
        .expect("a fallback carries a reason");
    assert_eq!(reason.kind, FallbackKind::NotObject);
    assert_eq!(reason.pointer, "");
    // The message is lowercase text of its own, quoting the offending `type` as it was written.
    assert!(
        reason.message.starts_with("mcp tool input schema "),
        "{}",
        reason.message
    );
}
