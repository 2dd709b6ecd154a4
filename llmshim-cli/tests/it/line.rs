//! Library-level tests of the batch-line parser and the per-line environment.

use llmshim::schema::{EnvFlags, Nullable, Target};
use llmshim_cli::api::Api;
use llmshim_cli::batch::Runner;
use llmshim_cli::batch::env::line_flags;
use llmshim_cli::batch::line::parse_line;
use serde_json::json;

use crate::support::keys;

fn error(text: &str) -> String {
    parse_line(text, EnvFlags::default()).unwrap_err().message
}

#[test]
fn a_full_line_is_parsed_in_the_contract_order() {
    let text = r#"{"name": "ignored", "api": "normalize", "target": "google", "strict": true,
                   "options": {"strict": false, "nullable": "remove", "max_nodes": 7, "diagnostics": true},
                   "env": {"LLMSHIM_NO_SCHEMA_CACHE": "true"}, "input": {"type": "string"}, "extra": [1]}"#;
    let line = parse_line(text, EnvFlags::default()).unwrap();
    assert_eq!(line.api, Api::Normalize);
    assert_eq!(line.options.target, Target::Google);
    // `strict` first, then each member of `options`, so the member wins.
    assert!(!line.options.strict);
    assert_eq!(line.options.nullable, Nullable::Remove);
    assert_eq!(line.options.budget.max_nodes, 7);
    assert!(line.options.diagnostics);
    assert!(line.options.rewrite_one_of, "Google's default is kept");
    assert_eq!(line.env, EnvFlags::default().with_no_schema_cache(true));
    assert_eq!(line.input, json!({"type": "string"}));
}

#[test]
fn defaults_apply_when_members_are_absent_or_null() {
    let line = parse_line(
        r#"{"api": "tools", "target": "anthropic", "input": {}}"#,
        EnvFlags::default(),
    )
    .unwrap();
    assert!(!line.options.strict);
    assert_eq!(line.env, EnvFlags::default());
    let process = EnvFlags::default().with_no_strict(true);
    let line = parse_line(r#"{"api": "output", "target": "cca", "strict": null, "options": null, "env": null, "input": 1}"#, process)
        .unwrap();
    assert_eq!(line.env, process);
    assert_eq!(line.options.nullable, Nullable::Remove);
}

#[test]
fn the_target_may_be_omitted_for_mcp_tool_only() {
    let line = parse_line(r#"{"api": "mcp_tool", "input": {}}"#, EnvFlags::default()).unwrap();
    assert_eq!(line.options.target, Target::Mcp);
    for api in ["normalize", "output", "tools"] {
        let message = error(&format!(r#"{{"api": "{api}", "input": {{}}}}"#));
        assert!(message.contains("missing \"target\""), "{api}: {message}");
    }
}

#[test]
fn every_malformed_line_has_a_message() {
    for (text, needle) in [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("{} {}", "not valid JSON"),
        ("null", "not a JSON object"),
        (r#""normalize""#, "not a JSON object"),
        (r#"{"target": "chat", "input": {}}"#, "missing \"api\""),
        (
            r#"{"api": 1, "target": "chat", "input": {}}"#,
            "\"api\" must be a string",
        ),
        (
            r#"{"api": "Normalize", "target": "chat", "input": {}}"#,
            "unknown api \"Normalize\"",
        ),
        (
            r#"{"api": "normalize", "target": "CHAT", "input": {}}"#,
            "unknown target \"CHAT\"",
        ),
        (
            r#"{"api": "normalize", "target": ["chat"], "input": {}}"#,
            "\"target\" must be a string",
        ),
        (
            r#"{"api": "normalize", "target": "chat", "strict": "true", "input": {}}"#,
            "\"strict\" must be a boolean",
        ),
        (
            r#"{"api": "normalize", "target": "chat", "options": [], "input": {}}"#,
            "\"options\" must be an object",
        ),
        (
            r#"{"api": "normalize", "target": "chat", "options": {"target": "google"}, "input": {}}"#,
            "unknown option \"target\"",
        ),
        (
            r#"{"api": "normalize", "target": "chat", "options": {"maxDepth": 3}, "input": {}}"#,
            "unknown option \"maxDepth\"",
        ),
        (
            r#"{"api": "normalize", "target": "chat", "options": {"max_depth": -3}, "input": {}}"#,
            "non-negative integer",
        ),
        (
            r#"{"api": "normalize", "target": "chat", "options": {"max_depth": 1.5}, "input": {}}"#,
            "non-negative integer",
        ),
        (
            r#"{"api": "normalize", "target": "chat", "options": {"nullable": "never"}, "input": {}}"#,
            "option \"nullable\" must be \"preserve\", \"marker\" or \"remove\"",
        ),
        (
            r#"{"api": "normalize", "target": "chat", "options": {"nullable": true}, "input": {}}"#,
            "option \"nullable\" must be \"preserve\", \"marker\" or \"remove\"",
        ),
        (
            r#"{"api": "normalize", "target": "chat", "options": {"bypass": 1}, "input": {}}"#,
            "must be a boolean",
        ),
        (
            r#"{"api": "normalize", "target": "chat", "env": "LLMSHIM_NO_STRICT=1", "input": {}}"#,
            "\"env\" must be an object",
        ),
        (
            r#"{"api": "normalize", "target": "chat", "env": {"LLMSHIM_NO_STRICT": [1]}, "input": {}}"#,
            "env value",
        ),
        (
            r#"{"api": "normalize", "target": "chat"}"#,
            "missing \"input\"",
        ),
    ] {
        let message = error(text);
        assert!(message.contains(needle), "{text}: {message}");
    }
}

#[test]
fn input_null_is_an_input() {
    let line = parse_line(
        r#"{"api": "normalize", "target": "chat", "input": null}"#,
        EnvFlags::default(),
    )
    .unwrap();
    assert_eq!(line.input, json!(null));
}

#[test]
fn env_values_follow_the_flag_rule() {
    let flags =
        |env: serde_json::Value| line_flags(EnvFlags::default(), env.as_object().unwrap()).unwrap();
    assert!(flags(json!({"LLMSHIM_NO_STRICT": "TRUE"})).no_strict);
    assert!(flags(json!({"LLMSHIM_NO_STRICT": true})).no_strict);
    assert!(flags(json!({"LLMSHIM_NO_STRICT": 1})).no_strict);
    assert!(
        !flags(json!({"LLMSHIM_NO_STRICT": 1.0})).no_strict,
        "1.0 is not the text 1"
    );
    assert!(!flags(json!({"LLMSHIM_NO_STRICT": false})).no_strict);
    assert!(!flags(json!({"LLMSHIM_NO_STRICT": " true"})).no_strict);
    assert!(
        !flags(json!({"llmshim_no_strict": "1"})).no_strict,
        "names are case-sensitive"
    );
    assert!(flags(json!({"LLMSHIM_NO_SCHEMA_NORMALIZATION": "1"})).no_schema_normalization);
    let on = EnvFlags::default()
        .with_no_strict(true)
        .with_no_schema_normalization(true);
    let cleared = line_flags(on, json!({"LLMSHIM_NO_STRICT": null}).as_object().unwrap()).unwrap();
    assert_eq!(
        cleared,
        EnvFlags::default().with_no_schema_normalization(true)
    );
}

#[test]
fn the_runner_answers_with_the_contract_shapes() {
    let runner = Runner::new(EnvFlags::default());
    let answer = runner
        .answer(r#"{"api": "output", "target": "chat", "input": {"type": "boolean"}}"#)
        .unwrap();
    let keys = keys(&answer);
    assert_eq!(keys, ["output", "report", "wrapped"]);
    // A runner whose process flags bypass normalization bypasses lines without an env of their own.
    let bypassing = Runner::new(EnvFlags::default().with_no_schema_normalization(true));
    let answer = bypassing
        .answer(r##"{"api": "normalize", "target": "chat", "input": {"$ref": "#/x"}}"##)
        .unwrap();
    assert_eq!(answer["report"]["bypassed"], true);
    let answer = bypassing
        .answer(r##"{"api": "normalize", "target": "chat", "env": {"LLMSHIM_NO_SCHEMA_NORMALIZATION": null}, "input": {"$ref": "#/x"}}"##)
        .unwrap();
    assert_eq!(answer["report"]["used_fallback"], true);
}

#[test]
fn the_runner_writes_one_line_per_non_blank_line() {
    let input = "{\"api\": \"normalize\", \"target\": \"mcp\", \"input\": {}}\r\n\r\n\n oops \n{\"api\": \"tools\", \"target\": \"chat\", \"input\": {}}";
    let (mut out, mut diag) = (Vec::new(), Vec::new());
    let summary = Runner::new(EnvFlags::default())
        .run(&mut input.as_bytes(), &mut out, &mut diag)
        .unwrap();
    assert_eq!((summary.lines, summary.errors), (3, 1));
    let out = String::from_utf8(out).unwrap();
    assert_eq!(out.lines().count(), 3);
    assert!(out.lines().nth(1).unwrap().starts_with("{\"error\":"));
    assert!(
        String::from_utf8(diag)
            .unwrap()
            .starts_with("llmshim: batch line 4: ")
    );
}
