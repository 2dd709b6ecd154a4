//! Tests of `is_mcp_tool`, the `Tool` view and its `Error`.

use llmshim_core::{FallbackKind, FallbackReason};
use llmshim_mcp::{Error, Tool, is_mcp_tool};
use serde_json::json;

#[test]
fn an_mcp_tool_is_an_object_with_an_input_schema_key() {
    assert!(is_mcp_tool(
        &json!({"name": "t", "inputSchema": {"type": "object"}})
    ));
    assert!(is_mcp_tool(&json!({"inputSchema": {}})));
    assert!(is_mcp_tool(&json!({"inputSchema": null})));
    assert!(is_mcp_tool(&json!({"inputSchema": "string"})));
    assert!(is_mcp_tool(
        &json!({"type": "function", "name": "t", "inputSchema": {}})
    ));
}

#[test]
fn other_shapes_are_not_mcp_tools() {
    let values = [
        json!({"type": "function", "function": {"name": "t", "parameters": {}}}),
        json!({"type": "function", "name": "t", "parameters": {}}),
        json!({"name": "t", "input_schema": {}}),
        json!({"functionDeclarations": [{"name": "t", "inputSchema": {}}]}),
        json!({"name": "t", "InputSchema": {}}),
        json!({}),
        json!([{"inputSchema": {}}]),
        json!("inputSchema"),
        json!(null),
    ];
    for value in values {
        assert!(!is_mcp_tool(&value), "{value}");
    }
}

#[test]
fn a_full_tool_is_read_field_by_field() {
    let value = json!({
        "name": "get_weather",
        "title": "Weather",
        "description": "Get the weather.",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
        "outputSchema": {"type": "object", "properties": {"celsius": {"type": "number"}}},
        "annotations": {"readOnlyHint": true},
        "_meta": {"k": "v"},
        "icons": []
    });
    let tool = Tool::from_value(&value).expect("a valid tool");
    assert_eq!(tool.name, Some("get_weather"));
    assert_eq!(tool.title, Some(&json!("Weather")));
    assert_eq!(tool.description, Some(&json!("Get the weather.")));
    // The view borrows the schema rather than copying it.
    let input_schema: &serde_json::Value = &value["inputSchema"];
    assert!(std::ptr::eq(tool.input_schema, input_schema));
    assert_eq!(tool.output_schema, Some(&value["outputSchema"]));
    assert_eq!(tool.annotations, value["annotations"].as_object());
    assert_eq!(
        tool.description_or_title(),
        Some(&json!("Get the weather."))
    );
    // The view is a cheap copy of a few references.
    let copy = tool;
    assert_eq!(copy, tool);
}

#[test]
fn a_minimal_tool_has_only_its_input_schema() {
    let value = json!({"inputSchema": "anything"});
    let tool = Tool::from_value(&value).expect("a valid tool");
    assert_eq!(tool.name, None);
    assert_eq!(tool.title, None);
    assert_eq!(tool.description, None);
    assert_eq!(tool.input_schema, &json!("anything"));
    assert_eq!(tool.output_schema, None);
    assert_eq!(tool.annotations, None);
    assert_eq!(tool.description_or_title(), None);
}

#[test]
fn absent_and_null_descriptions_differ() {
    let value = json!({"inputSchema": {}, "title": "T"});
    let tool = Tool::from_value(&value).expect("a valid tool");
    assert_eq!(tool.description, None);
    assert_eq!(tool.description_or_title(), Some(&json!("T")));

    let value = json!({"inputSchema": {}, "title": "T", "description": null});
    let tool = Tool::from_value(&value).expect("a valid tool");
    assert_eq!(tool.description, Some(&json!(null)));
    assert_eq!(tool.description_or_title(), Some(&json!(null)));

    let value = json!({"inputSchema": {}, "title": null});
    let tool = Tool::from_value(&value).expect("a valid tool");
    assert_eq!(tool.title, Some(&json!(null)));
    assert_eq!(tool.description_or_title(), Some(&json!(null)));
}

#[test]
fn null_annotations_read_as_absent_and_output_schema_is_any_value() {
    let value = json!({"inputSchema": {}, "annotations": null, "outputSchema": null});
    let tool = Tool::from_value(&value).expect("a valid tool");
    assert_eq!(tool.annotations, None);
    assert_eq!(tool.output_schema, Some(&json!(null)));
}

#[test]
fn a_value_that_is_not_an_object_is_refused() {
    for value in [json!(null), json!([]), json!("tool"), json!(1)] {
        let err = Tool::from_value(&value).expect_err("not an object");
        assert_eq!(err, Error::NotObject);
        assert_eq!(err.pointer(), "");
        assert_eq!(err.to_string(), "tool is not an object");
    }
}

#[test]
fn an_object_without_input_schema_is_refused() {
    let value = json!({"name": "t", "input_schema": {}});
    let err = Tool::from_value(&value).expect_err("no inputSchema");
    assert_eq!(err, Error::MissingInputSchema);
    assert_eq!(err.pointer(), "");
    assert_eq!(err.to_string(), "tool has no inputSchema");
}

#[test]
fn fields_of_the_wrong_kind_are_refused_with_their_pointer() {
    let cases = [
        (
            json!({"name": 7, "inputSchema": {}}),
            "/name",
            "tool field \"/name\" must be a string, found a number",
        ),
        (
            json!({"name": null, "inputSchema": {}}),
            "/name",
            "tool field \"/name\" must be a string, found null",
        ),
        (
            json!({"name": "t", "title": false, "inputSchema": {}}),
            "/title",
            "tool field \"/title\" must be a string or null, found a boolean",
        ),
        (
            json!({"name": "t", "description": ["a"], "inputSchema": {}}),
            "/description",
            "tool field \"/description\" must be a string or null, found an array",
        ),
        (
            json!({"name": "t", "inputSchema": {}, "annotations": "read only"}),
            "/annotations",
            "tool field \"/annotations\" must be an object or null, found a string",
        ),
    ];
    for (value, pointer, message) in cases {
        let err = Tool::from_value(&value).expect_err("a field of the wrong kind");
        assert!(matches!(err, Error::InvalidField { .. }), "{value}");
        assert_eq!(err.pointer(), pointer, "{value}");
        assert_eq!(err.to_string(), message);
    }
}

#[test]
fn the_input_schema_is_checked_before_the_other_fields() {
    let value = json!({"name": 7});
    assert_eq!(Tool::from_value(&value), Err(Error::MissingInputSchema));
}

#[test]
fn errors_become_fallback_reasons() {
    let reason = FallbackReason::from(Error::NotObject);
    assert_eq!(reason.kind, FallbackKind::NotObject);
    assert_eq!(reason.pointer, "");
    assert_eq!(reason.message, "tool is not an object");

    let reason = FallbackReason::from(Error::MissingInputSchema);
    assert_eq!(reason.kind, FallbackKind::InvalidSchema);
    assert_eq!(reason.pointer, "");

    let value = json!({"name": [], "inputSchema": {}});
    let err = Tool::from_value(&value).expect_err("a name that is not a string");
    let reason = FallbackReason::from(err);
    assert_eq!(reason.kind, FallbackKind::InvalidSchema);
    assert_eq!(reason.pointer, "/name");
    assert_eq!(
        reason.message,
        "tool field \"/name\" must be a string, found an array"
    );
}
