//! `llmshim tools`: the mixed-tools request example for every target, and `--strict` as the request default.

use serde_json::{Value, json};

use crate::support::{example, llmshim, run, targets};

#[test]
fn the_mixed_request_translates_for_every_target_with_one_tool_falling_back() {
    let file = example("request-mixed-tools.json");
    for target in targets() {
        let out = run(&["tools", "--target", target, &file]);
        assert_eq!(out.code, 0, "{target}: {}", out.stderr);
        let answer = out.json();
        let report = &answer["report"];
        assert_eq!(report["changed"], true, "{target}");
        assert_eq!(report["used_fallback"], true, "{target}");
        assert_eq!(
            report["fallback_reason"]["kind"], "unresolved_ref",
            "{target}"
        );
        assert_eq!(
            report["fallback_reason"]["pointer"], "/tools/2/input_schema/properties/booking",
            "{target}"
        );
        assert!(
            out.stderr.contains("unresolved_ref"),
            "{target}: {}",
            out.stderr
        );
        let tools = if target == "cca" {
            &answer["output"]["request"]["tools"]
        } else {
            &answer["output"]["tools"]
        };
        let names: Vec<&str> = match target {
            "google" | "google-json" | "cca" => tools[0]["functionDeclarations"]
                .as_array()
                .unwrap()
                .iter()
                .map(name)
                .collect(),
            _ => tools.as_array().unwrap().iter().map(name).collect(),
        };
        assert_eq!(
            names,
            [
                "get_weather",
                "book_table",
                "send_confirmation",
                "find_restaurants"
            ],
            "{target}"
        );
    }
}

fn name(tool: &Value) -> &str {
    tool.get("function").unwrap_or(tool)["name"]
        .as_str()
        .unwrap()
}

#[test]
fn chat_tools_keep_their_envelope_and_strict_follows_the_report() {
    let answer = run(&[
        "tools",
        "--target",
        "chat",
        &example("request-mixed-tools.json"),
    ])
    .json();
    let tools = answer["output"]["tools"].as_array().unwrap();
    assert_eq!(tools[0]["function"]["strict"], true);
    assert_eq!(
        tools[2]["function"]["parameters"],
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(tools[2]["function"]["strict"], false);
    assert!(tools.iter().all(|t| t["type"] == "function"));
    assert_eq!(answer["report"]["strict"], true);
}

#[test]
fn strict_is_the_request_for_tools_without_their_own() {
    let request = r#"{"tools": [{"name": "lookup", "inputSchema": {"type": "object", "properties": {"key": {"type": "string"}}}}]}"#;
    let plain = llmshim(&["tools", "--target", "responses"], request, &[]).json();
    assert_eq!(plain["output"]["tools"][0]["strict"], false);
    let strict = llmshim(
        &[
            "tools",
            "--target",
            "responses",
            "--strict",
            "--diagnostics",
        ],
        request,
        &[],
    )
    .json();
    assert_eq!(strict["output"]["tools"][0]["strict"], true);
    assert_eq!(strict["report"]["strict"], true);
    let pointers: Vec<&str> = strict["report"]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["pointer"].as_str().unwrap())
        .collect();
    assert!(
        pointers.iter().all(|p| p.starts_with("/tools/0/")),
        "{pointers:?}"
    );
}

#[test]
fn the_code_assist_envelope_wraps_the_request() {
    let request = r#"{"model": "m", "tools": [{"type": "function", "function": {"name": "ping", "parameters": {"type": "object", "properties": {}}}}]}"#;
    let answer = llmshim(&["tools", "--target", "cca"], request, &[]).json();
    assert_eq!(
        answer["output"],
        json!({"model": "m", "request": {"tools": [{"functionDeclarations": [{"name": "ping", "parameters": {"type": "object"}}]}]}})
    );
}
