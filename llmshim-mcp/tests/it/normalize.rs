//! Tests of `normalize_tool`, with fake normalizers in place of the facade's.

use std::cell::Cell;

use llmshim_core::{FallbackKind, Normalization};
use llmshim_mcp::normalize_tool;
use serde_json::{Value, json};

use crate::support::{
    assert_not_object_fallback, busy_report, bypass, fallback, infer_object, type_from_title,
    untouched,
};

#[test]
fn a_value_without_input_schema_is_left_alone_and_the_normalizer_is_not_called() {
    let values = [
        json!({"name": "ping"}),
        json!({"name": "ping", "input_schema": {"type": "string"}}),
        json!({"type": "function", "function": {"name": "f", "parameters": {"type": "string"}}}),
        json!({"name": "ping", "parameters": {"type": "string"}, "inputschema": {}}),
        json!([{"inputSchema": {"type": "string"}}]),
        json!("inputSchema"),
        json!(null),
        json!({}),
    ];
    for original in values {
        let mut value = original.clone();
        let called = Cell::new(false);
        let report = normalize_tool(&mut value, |_schema| {
            called.set(true);
            Normalization::bypassed()
        });
        assert_eq!(report, Normalization::default(), "{original}");
        assert!(!called.get(), "{original}");
        assert_eq!(value.to_string(), original.to_string());
    }
}

#[test]
fn the_normalizer_receives_the_input_schema_itself() {
    let mut tool = json!({
        "name": "t",
        "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}},
        "outputSchema": {"type": "string"}
    });
    let seen = Cell::new(false);
    normalize_tool(&mut tool, |schema| {
        assert_eq!(
            *schema,
            json!({"type": "object", "properties": {"a": {"type": "string"}}})
        );
        seen.set(true);
        Normalization::default()
    });
    assert!(seen.get());
}

#[test]
fn the_normalized_schema_is_written_back_in_place() {
    let mut tool =
        json!({"name": "t", "inputSchema": {"title": "record", "properties": {}}, "z": 1});
    let report = normalize_tool(&mut tool, type_from_title);
    assert_eq!(
        tool.to_string(),
        r#"{"name":"t","inputSchema":{"title":"record","properties":{},"type":"object"},"z":1}"#
    );
    // The report is the normalizer's own, which a second run on a fresh copy reproduces.
    assert_eq!(
        report,
        type_from_title(&mut json!({"title": "record", "properties": {}}))
    );
    assert!(report.strict && report.changed && !report.used_fallback);
}

#[test]
fn a_string_schema_falls_back() {
    let mut tool = json!({"name": "say", "inputSchema": {"type": "string"}});
    let report = normalize_tool(&mut tool, untouched);
    assert_eq!(tool, json!({"name": "say", "inputSchema": fallback()}));
    assert_not_object_fallback(&report, true);
    assert_eq!(
        report.to_json(false),
        json!({
            "changed": true,
            "used_fallback": true,
            "strict": false,
            "bypassed": false,
            "narrowed": false,
            "fallback_reason": {
                "kind": "not_object",
                "pointer": "",
                "message": "mcp tool input schema has type \"string\"; tool parameters must describe an object"
            }
        })
    );
}

#[test]
fn an_empty_schema_falls_back() {
    let mut tool = json!({"name": "anything", "inputSchema": {}});
    let report = normalize_tool(&mut tool, untouched);
    assert_eq!(tool, json!({"name": "anything", "inputSchema": fallback()}));
    assert_not_object_fallback(&report, true);
    let message = report.fallback_reason.map(|reason| reason.message);
    assert_eq!(
        message.as_deref(),
        Some("mcp tool input schema has no type; tool parameters must describe an object")
    );
}

#[test]
fn a_bare_any_of_falls_back() {
    let schema = json!({"anyOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {"type": "object", "properties": {"b": {"type": "number"}}}
    ]});
    let mut tool = json!({"name": "either", "inputSchema": schema});
    let report = normalize_tool(&mut tool, untouched);
    assert_eq!(tool, json!({"name": "either", "inputSchema": fallback()}));
    assert_not_object_fallback(&report, true);
}

#[test]
fn every_type_other_than_the_string_object_falls_back() {
    let schemas = [
        json!({"type": "array", "items": {"type": "string"}}),
        json!({"type": "Object", "properties": {}}),
        json!({"type": "object ", "properties": {}}),
        json!({"type": ["object"], "properties": {}}),
        json!({"type": ["object", "null"], "properties": {}}),
        json!({"type": null, "properties": {}}),
        json!({"type": {"const": "object"}}),
        json!({"$ref": "#/$defs/Args", "$defs": {"Args": {"type": "object"}}}),
        json!({"allOf": [{"type": "object"}]}),
        json!({"const": {"a": 1}}),
        json!(true),
        json!(false),
        json!(null),
        json!("object"),
        json!([{"type": "object"}]),
        json!(7),
    ];
    for schema in schemas {
        let mut tool = json!({"name": "t", "inputSchema": schema.clone()});
        let report = normalize_tool(&mut tool, untouched);
        assert_eq!(
            tool,
            json!({"name": "t", "inputSchema": fallback()}),
            "{schema}"
        );
        assert_not_object_fallback(&report, true);
    }
}

#[test]
fn a_type_set_by_the_normalizer_decides() {
    let cases = [
        ("scalar", false),
        ("record", true),
        ("list", false),
        ("other", false),
    ];
    for (title, passes) in cases {
        let mut tool = json!({"name": "t", "inputSchema": {"title": title, "properties": {}}});
        let report = normalize_tool(&mut tool, type_from_title);
        if passes {
            assert!(report.strict && !report.used_fallback, "{title}");
            assert_eq!(report.changes.len(), 1);
            assert_eq!(tool["inputSchema"]["title"], title);
        } else {
            assert_not_object_fallback(&report, true);
            assert_eq!(tool["inputSchema"], fallback(), "{title}");
        }
    }
}

#[test]
fn a_schema_with_only_properties_passes_when_the_normalizer_infers_its_type() {
    let mut tool = json!({
        "name": "add",
        "inputSchema": {"properties": {"a": {"type": "number"}, "b": {"type": "number"}}}
    });
    let report = normalize_tool(&mut tool, infer_object);
    assert_eq!(
        tool.to_string(),
        r#"{"name":"add","inputSchema":{"properties":{"a":{"type":"number"},"b":{"type":"number"}},"type":"object"}}"#
    );
    assert!(report.changed);
    assert!(!report.used_fallback);
    assert_eq!(report.fallback_reason, None);
    assert_eq!(report.changes.len(), 1);
    assert_eq!(report.changes[0].rule, "walk.infer-type");
}

#[test]
fn a_schema_with_only_properties_falls_back_when_nothing_infers_its_type() {
    let mut tool = json!({"name": "add", "inputSchema": {"properties": {"a": {"type": "number"}}}});
    let report = normalize_tool(&mut tool, untouched);
    assert_eq!(tool["inputSchema"], fallback());
    assert_not_object_fallback(&report, true);
}

#[test]
fn an_object_result_keeps_the_normalizer_report_exactly() {
    let original = json!({"name": "t", "inputSchema": {"type": "object", "properties": {"a": {}}}});
    let mut tool = original.clone();
    let report = normalize_tool(&mut tool, |_schema| busy_report());
    assert_eq!(report, busy_report());
    assert_eq!(tool.to_string(), original.to_string());

    // A normalizer that fell back itself hands over an object, which passes as it is.
    let mut tool = json!({"name": "t", "inputSchema": {"$ref": "#/missing"}});
    let report = normalize_tool(&mut tool, |schema| {
        *schema = fallback();
        let mut report = Normalization::default();
        report.changed = true;
        report.used_fallback = true;
        report.fallback_reason = Some(llmshim_core::FallbackReason::new(
            FallbackKind::UnresolvedRef,
            "",
            "pointer not found",
        ));
        report
    });
    assert_eq!(tool["inputSchema"], fallback());
    assert!(report.used_fallback);
    assert_eq!(
        report.fallback_reason.map(|reason| reason.kind),
        Some(FallbackKind::UnresolvedRef)
    );
}

#[test]
fn the_fallback_report_replaces_every_field_of_the_normalizer_report() {
    let mut tool = json!({"name": "t", "inputSchema": {"type": "object"}});
    let report = normalize_tool(&mut tool, |schema| {
        *schema = json!({"type": "string"});
        busy_report()
    });
    assert_eq!(tool["inputSchema"], fallback());
    // Strict, the demotion reason and the changes of the discarded result are all gone.
    assert_not_object_fallback(&report, true);
}

#[test]
fn bypass_leaves_a_schema_that_is_not_an_object_alone() {
    let schemas = [
        json!({"type": "string"}),
        json!({}),
        json!({"anyOf": [{"type": "object"}]}),
        json!({"$ref": "#/missing"}),
        json!(null),
        json!(true),
    ];
    for schema in schemas {
        let original = json!({"name": "t", "inputSchema": schema, "annotations": null});
        let mut tool = original.clone();
        let report = normalize_tool(&mut tool, bypass);
        assert_eq!(report, Normalization::bypassed(), "{original}");
        assert_eq!(tool.to_string(), original.to_string());
    }
}

#[test]
fn bypass_is_read_from_the_report_and_keeps_what_the_normalizer_wrote() {
    let mut tool = json!({"name": "t", "inputSchema": {"type": "object"}});
    let report = normalize_tool(&mut tool, |schema| {
        *schema = json!({"type": "number"});
        Normalization::bypassed()
    });
    assert_eq!(report, Normalization::bypassed());
    assert_eq!(tool["inputSchema"], json!({"type": "number"}));
}

#[test]
fn changed_is_false_when_the_original_already_was_the_fallback() {
    // The normalizer turns the fallback into a string schema and says it changed it; the fallback restores the
    // original, so the caller's value has not changed.
    let mut tool = json!({"name": "t", "inputSchema": {"type": "object", "properties": {}}});
    let report = normalize_tool(&mut tool, |schema| {
        *schema = json!({"type": "string"});
        let mut report = Normalization::default();
        report.changed = true;
        report
    });
    assert_eq!(tool, json!({"name": "t", "inputSchema": fallback()}));
    assert_not_object_fallback(&report, false);
}

#[test]
fn changed_ignores_key_order_when_the_original_equals_the_fallback() {
    let mut tool = json!({"name": "t", "inputSchema": {"properties": {}, "type": "object"}});
    let report = normalize_tool(&mut tool, |schema| {
        *schema = json!({});
        Normalization::default()
    });
    assert_not_object_fallback(&report, false);
    // Value equality ignores order, but the value held now is the fallback in its own order.
    assert_eq!(
        tool.to_string(),
        r#"{"name":"t","inputSchema":{"type":"object","properties":{}}}"#
    );
}

#[test]
fn changed_is_true_when_the_original_only_resembles_the_fallback() {
    let originals = [
        json!({"type": "object"}),
        json!({"type": "object", "properties": {}, "required": []}),
        json!({"type": "object", "properties": {}, "description": "no arguments"}),
        json!({"type": "object", "properties": {"a": {}}}),
    ];
    for original in originals {
        let mut tool = json!({"name": "t", "inputSchema": original.clone()});
        // The normalizer reports no change although it broke the schema; the fallback report recomputes it.
        let report = normalize_tool(&mut tool, |schema| {
            *schema = json!({"type": "null"});
            Normalization::default()
        });
        assert_eq!(tool["inputSchema"], fallback(), "{original}");
        assert_not_object_fallback(&report, true);
    }
}

#[test]
fn no_other_field_of_the_tool_is_touched() {
    let tool_with = |input_schema: Value| {
        json!({
            "name": "create_issue",
            "title": "Create issue",
            "description": "Create a new issue in a GitHub repository.",
            "inputSchema": input_schema,
            "outputSchema": {"type": "string"},
            "annotations": {"title": "Create issue", "readOnlyHint": false},
            "_meta": {"io.example/owner": "team"},
            "icons": [{"src": "https://example.test/icon.png", "mimeType": "image/png"}],
            "cache_control": {"type": "ephemeral"},
            "x-vendor": [1, 2.5, null]
        })
    };

    // A fallback replaces the schema only.
    let mut tool = tool_with(json!({"type": "string"}));
    normalize_tool(&mut tool, untouched);
    assert_eq!(tool.to_string(), tool_with(fallback()).to_string());

    // A normalizer's rewrite changes the schema only.
    let mut tool = tool_with(json!({"properties": {"title": {"type": "string"}}}));
    normalize_tool(&mut tool, infer_object);
    assert_eq!(
        tool.to_string(),
        tool_with(json!({"properties": {"title": {"type": "string"}}, "type": "object"}))
            .to_string()
    );

    // The `outputSchema`, although not an object schema, is never checked.
    let mut tool = tool_with(json!({"type": "object", "properties": {}}));
    let report = normalize_tool(&mut tool, untouched);
    assert_eq!(report, Normalization::default());
    assert_eq!(
        tool.to_string(),
        tool_with(json!({"type": "object", "properties": {}})).to_string()
    );
}
