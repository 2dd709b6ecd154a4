//! `llmshim mcp-tool`: the bundled MCP tool, the object requirement, and options applied with the target Mcp.

use serde_json::json;

use crate::support::{example, llmshim, run};

#[test]
fn the_bundled_tool_is_normalized_for_registries() {
    let out = run(&["mcp-tool", &example("mcp-tool-search.json")]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let answer = out.json();
    let tool = &answer["output"];
    assert_eq!(tool["name"], "search_tickets");
    assert_eq!(tool["title"], "Search support tickets");
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    let schema = &tool["inputSchema"];
    assert_eq!(
        schema["properties"]["status"]["items"]["enum"],
        json!(["open", "pending", "solved", "closed"])
    );
    assert!(schema.get("definitions").is_none());
    assert_eq!(answer["report"]["changed"], true);
    assert_eq!(answer["report"]["used_fallback"], false);
}

#[test]
fn a_tool_whose_schema_is_not_an_object_falls_back() {
    let tool = r#"{"name": "echo", "inputSchema": {"type": "string"}}"#;
    let out = llmshim(&["mcp-tool", "-"], tool, &[]);
    assert_eq!(out.code, 0);
    let answer = out.json();
    assert_eq!(
        answer["output"],
        json!({"name": "echo", "inputSchema": {"type": "object", "properties": {}}})
    );
    assert_eq!(answer["report"]["fallback_reason"]["kind"], "not_object");
}

#[test]
fn options_apply_and_a_value_that_is_no_tool_is_left_alone() {
    let tool = r#"{"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": ["string", "null"]}}}}"#;
    let answer = llmshim(
        &["mcp-tool", "--nullable", "remove", "--diagnostics"],
        tool,
        &[],
    )
    .json();
    assert_eq!(
        answer["output"]["inputSchema"]["properties"]["a"],
        json!({"type": "string"})
    );
    assert!(!answer["report"]["changes"].as_array().unwrap().is_empty());
    let bypassed = llmshim(&["mcp-tool", "--bypass"], tool, &[]).json();
    assert_eq!(bypassed["report"]["bypassed"], true);
    let none = llmshim(&["mcp-tool"], "[1, 2]", &[]).json();
    assert_eq!(none["output"], json!([1, 2]));
    assert_eq!(
        none["report"],
        crate::support::flags(false, false, false, false)
    );
}
