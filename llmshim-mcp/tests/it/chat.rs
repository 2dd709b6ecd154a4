//! Tests of `to_chat_tool` and `into_chat_tool`: the canonical chat tool built from a raw MCP tool.

use llmshim_core::Normalization;
use llmshim_mcp::{into_chat_tool, normalize_tool, to_chat_tool};
use serde_json::{Value, json};

use crate::support::{fallback, untouched};

/// The compact text of the chat tool built from `tool`, so that key order is compared too.
/// The copying and the moving conversion must agree byte for byte.
fn chat_text(tool: &Value) -> String {
    let text = to_chat_tool(tool).to_string();
    assert_eq!(into_chat_tool(tool.clone()).to_string(), text, "{tool}");
    text
}

#[test]
fn a_full_tool_keeps_name_description_and_parameters_in_order() {
    let tool = json!({
        "description": "Fetch a URL.",
        "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]},
        "name": "fetch"
    });
    assert_eq!(
        chat_text(&tool),
        r#"{"type":"function","function":{"name":"fetch","description":"Fetch a URL.","parameters":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}}}"#
    );
}

#[test]
fn every_other_mcp_field_is_dropped() {
    let tool = json!({
        "name": "create_issue",
        "title": "Create issue",
        "description": "Create a new issue.",
        "inputSchema": {"type": "object", "properties": {}},
        "outputSchema": {"type": "object", "properties": {"id": {"type": "integer"}}},
        "annotations": {"title": "Create issue", "destructiveHint": false},
        "_meta": {"io.example/owner": "team"},
        "icons": [{"src": "https://example.test/icon.png"}],
        "execution": {"taskSupport": "optional"},
        "x-vendor": true
    });
    assert_eq!(
        to_chat_tool(&tool),
        json!({
            "type": "function",
            "function": {
                "name": "create_issue",
                "description": "Create a new issue.",
                "parameters": {"type": "object", "properties": {}}
            }
        })
    );
}

#[test]
fn the_moving_conversion_agrees_in_every_member_order() {
    // Orders where the tool's own map can become the function object, and orders where it cannot.
    let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    let tools = [
        json!({"name": "a", "description": "d", "inputSchema": schema, "annotations": {"readOnlyHint": true}}),
        json!({"_meta": {"k": 1}, "name": "a", "inputSchema": schema}),
        json!({"name": "a", "title": "T", "description": "d", "outputSchema": {"type": "object"}, "inputSchema": schema}),
        json!({"name": "a", "inputSchema": schema, "description": "d"}),
        json!({"name": "a", "title": "T", "inputSchema": schema}),
        json!({"name": "a", "description": "d", "inputSchema": schema, "cache_control": {"type": "ephemeral"}}),
        json!({"description": "d", "inputSchema": schema}),
        json!({"name": "a", "description": "d"}),
        json!({"inputSchema": schema, "name": "a"}),
    ];
    let texts: Vec<String> = tools.iter().map(chat_text).collect();
    assert_eq!(
        texts[0],
        r#"{"type":"function","function":{"name":"a","description":"d","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}}"#
    );
    assert_eq!(
        texts[1],
        r#"{"type":"function","function":{"name":"a","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}}"#
    );
    assert_eq!(texts[2], texts[0]);
    assert_eq!(texts[3], texts[0]);
}

#[test]
fn the_description_wins_over_the_title() {
    let tool =
        json!({"name": "t", "title": "Title", "description": "Description", "inputSchema": {}});
    assert_eq!(
        chat_text(&tool),
        r#"{"type":"function","function":{"name":"t","description":"Description","parameters":{}}}"#
    );
}

#[test]
fn a_null_description_is_copied_and_the_title_is_not_used() {
    let tool = json!({"name": "t", "title": "Title", "description": null, "inputSchema": {}});
    assert_eq!(
        chat_text(&tool),
        r#"{"type":"function","function":{"name":"t","description":null,"parameters":{}}}"#
    );
}

#[test]
fn the_title_stands_in_when_there_is_no_description_key() {
    let tool = json!({"title": "Title", "name": "t", "inputSchema": {}});
    assert_eq!(
        chat_text(&tool),
        r#"{"type":"function","function":{"name":"t","description":"Title","parameters":{}}}"#
    );
}

#[test]
fn a_null_title_is_copied_when_there_is_no_description_key() {
    let tool = json!({"name": "t", "title": null, "inputSchema": {}});
    assert_eq!(
        chat_text(&tool),
        r#"{"type":"function","function":{"name":"t","description":null,"parameters":{}}}"#
    );
}

#[test]
fn the_description_is_omitted_when_the_tool_has_neither_key() {
    let tool = json!({"name": "t", "inputSchema": {}, "annotations": {"title": "Not a title"}});
    assert_eq!(
        chat_text(&tool),
        r#"{"type":"function","function":{"name":"t","parameters":{}}}"#
    );
}

#[test]
fn values_are_copied_as_they_are_even_when_they_are_not_strings() {
    let tool = json!({"name": 42, "description": ["a", "b"], "inputSchema": "not a schema"});
    assert_eq!(
        chat_text(&tool),
        r#"{"type":"function","function":{"name":42,"description":["a","b"],"parameters":"not a schema"}}"#
    );
}

#[test]
fn a_missing_name_becomes_null() {
    let tool = json!({"description": "Anonymous.", "inputSchema": {"type": "object"}});
    assert_eq!(
        chat_text(&tool),
        r#"{"type":"function","function":{"name":null,"description":"Anonymous.","parameters":{"type":"object"}}}"#
    );
}

#[test]
fn cache_control_is_carried_after_the_function() {
    let tool = json!({
        "cache_control": {"type": "ephemeral", "ttl": "1h"},
        "name": "t",
        "inputSchema": {"type": "object", "properties": {}}
    });
    assert_eq!(
        chat_text(&tool),
        r#"{"type":"function","function":{"name":"t","parameters":{"type":"object","properties":{}}},"cache_control":{"type":"ephemeral","ttl":"1h"}}"#
    );
    // Any value is carried, `null` included.
    let tool = json!({"name": "t", "inputSchema": {}, "cache_control": null});
    assert_eq!(
        chat_text(&tool),
        r#"{"type":"function","function":{"name":"t","parameters":{}},"cache_control":null}"#
    );
}

#[test]
fn a_nested_cache_control_is_not_carried() {
    let tool =
        json!({"name": "t", "inputSchema": {}, "_meta": {"cache_control": {"type": "ephemeral"}}});
    assert_eq!(
        chat_text(&tool),
        r#"{"type":"function","function":{"name":"t","parameters":{}}}"#
    );
}

#[test]
fn parameters_are_the_input_schema_as_it_is() {
    // The conversion does not normalize: a schema that is not an object stays until `normalize_tool` runs.
    let tool = json!({"name": "t", "inputSchema": {"type": "string", "$defs": {"a": {}}}});
    assert_eq!(
        to_chat_tool(&tool)["function"]["parameters"],
        json!({"type": "string", "$defs": {"a": {}}})
    );
    let mut tool = tool;
    normalize_tool(&mut tool, untouched);
    assert_eq!(to_chat_tool(&tool)["function"]["parameters"], fallback());
}

#[test]
fn the_tool_is_not_modified() {
    let tool = json!({"name": "t", "title": "T", "inputSchema": {"type": "object"}, "icons": []});
    let before = tool.to_string();
    to_chat_tool(&tool);
    assert_eq!(tool.to_string(), before);
}

#[test]
fn a_value_that_is_not_an_mcp_tool_gets_null_name_and_parameters() {
    for value in [json!(null), json!("tool"), json!([1]), json!({})] {
        assert_eq!(
            chat_text(&value),
            r#"{"type":"function","function":{"name":null,"parameters":null}}"#,
            "{value}"
        );
    }
}

#[test]
fn ingestion_then_conversion_matches_the_prepare_request_shape() {
    let mut tool = json!({
        "name": "list_files",
        "title": "List files",
        "inputSchema": {"properties": {"path": {"type": "string"}}},
        "annotations": {"readOnlyHint": true},
        "cache_control": {"type": "ephemeral"}
    });
    let report = normalize_tool(&mut tool, |schema| {
        schema["type"] = json!("object");
        let mut report = Normalization::default();
        report.changed = true;
        report
    });
    assert!(report.changed && !report.used_fallback);
    assert_eq!(
        chat_text(&tool),
        r#"{"type":"function","function":{"name":"list_files","description":"List files","parameters":{"properties":{"path":{"type":"string"}},"type":"object"}},"cache_control":{"type":"ephemeral"}}"#
    );
}
