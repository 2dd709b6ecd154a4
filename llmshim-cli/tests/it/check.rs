//! `llmshim check`: one report per target, every built-in target in the table's order by default, exit status 1 on a fallback.

use serde_json::json;

use crate::support::{example, flags, llmshim, run};

#[test]
fn all_six_targets_in_order() {
    let out = run(&["check", &example("pydantic-order.json")]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let answer = out.json();
    let results = answer["results"].as_array().unwrap();
    let targets: Vec<&str> = results
        .iter()
        .map(|r| r["target"].as_str().unwrap())
        .collect();
    assert_eq!(
        targets,
        ["chat", "responses", "anthropic", "google", "cca", "mcp"]
    );
    for result in results {
        let keys: Vec<&str> = result
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["target", "report"]);
        assert_eq!(result["report"], flags(true, false, false, false));
    }
}

#[test]
fn the_given_targets_in_the_given_order() {
    let out = llmshim(
        &[
            "check",
            "--target",
            "google",
            "--target",
            "chat",
            "--diagnostics",
        ],
        r#"{"type": "object", "properties": {}}"#,
        &[],
    );
    assert_eq!(out.code, 0);
    let answer = out.json();
    assert_eq!(answer["results"][0]["target"], "google");
    assert_eq!(answer["results"][1]["target"], "chat");
    assert_eq!(answer["results"][1]["report"]["changes"], json!([]));
}

#[test]
fn a_fallback_for_some_target_exits_with_one() {
    // Google and Code Assist reject a type array with two non-null types; the other targets accept it.
    let input = r#"{"type": "object", "properties": {"a": {"type": ["string", "integer"]}}}"#;
    let out = llmshim(&["check"], input, &[]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    let answer = out.json();
    let fell_back: Vec<&str> = answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["report"]["used_fallback"] == true)
        .map(|r| r["target"].as_str().unwrap())
        .collect();
    assert!(!fell_back.is_empty());
    assert!(!fell_back.contains(&"mcp"), "{fell_back:?}");
    for target in &fell_back {
        assert!(
            out.stderr
                .contains(&format!("llmshim: {target} falls back")),
            "{}",
            out.stderr
        );
    }
    let mcp_only = llmshim(&["check", "--target", "mcp"], input, &[]);
    assert_eq!(mcp_only.code, 0);
}

#[test]
fn a_strict_demotion_is_not_a_fallback() {
    let input = r#"{"type": "object", "properties": {"a": true}}"#;
    let out = llmshim(&["check", "--target", "chat", "--strict"], input, &[]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    let report = &out.json()["results"][0]["report"];
    assert_eq!(report["used_fallback"], false);
    assert!(report.get("fallback_reason").is_some());
}
