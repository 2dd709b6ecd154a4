//! `llmshim batch`: one output line per non-blank input line, in order, error lines that do not stop the run,
//! per-line options and environment, and exit status 2 when some line is an error.

use serde_json::{Value, json};

use crate::support::{example, flags, keys, llmshim, run};

#[test]
fn the_bundled_batch_answers_every_line() {
    let file = example("batch.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let inputs = text.lines().filter(|l| !l.trim().is_empty()).count();
    let out = run(&["batch", &file]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let answers = out.json_lines();
    assert_eq!(answers.len(), inputs);
    for (answer, line) in answers
        .iter()
        .zip(text.lines().filter(|l| !l.trim().is_empty()))
    {
        let request: Value = serde_json::from_str(line).unwrap();
        let keys = keys(answer);
        if request["api"] == "output" {
            assert_eq!(keys, ["output", "report", "wrapped"], "{line}");
        } else {
            assert_eq!(keys, ["output", "report"], "{line}");
        }
    }
    // The same file on standard input gives the same answers.
    let piped = llmshim(&["batch"], &text, &[]);
    assert_eq!(piped.stdout, out.stdout);
}

#[test]
fn a_malformed_line_in_the_middle_gets_an_error_line_and_the_run_continues() {
    let input = [
        r#"{"api": "normalize", "target": "mcp", "input": {"type": "string"}}"#,
        "",
        r#"{"api": "normalize", "target": "mcp", "input": "#,
        "   ",
        r#"{"api": "normalize", "target": "gemini", "input": {}}"#,
        r#"{"api": "validate", "target": "mcp", "input": {}}"#,
        r#"{"api": "normalize", "target": "mcp", "options": {"colour": "blue"}, "input": {}}"#,
        "[1, 2]",
        r#"{"api": "mcp_tool", "input": {"name": "t", "inputSchema": {"properties": {}}}}"#,
    ]
    .join("\n");
    let out = llmshim(&["batch"], &input, &[]);
    assert_eq!(out.code, 2);
    let answers = out.json_lines();
    assert_eq!(answers.len(), 7, "{}", out.stdout);
    assert_eq!(
        answers[0],
        json!({"output": {"type": "string"}, "report": flags(false, false, false, false)})
    );
    for (i, needle) in [
        (1, "not valid JSON"),
        (2, "unknown target"),
        (3, "unknown api"),
        (4, "unknown option"),
        (5, "not a JSON object"),
    ] {
        let keys = keys(&answers[i]);
        assert_eq!(keys, ["error"], "{i}");
        assert!(
            answers[i]["error"].as_str().unwrap().contains(needle),
            "{i}: {}",
            answers[i]
        );
    }
    assert_eq!(answers[6]["output"]["inputSchema"]["type"], "object");
    // Diagnostics name the physical line numbers.
    for number in [3, 5, 6, 7, 8] {
        assert!(
            out.stderr.contains(&format!("batch line {number}:")),
            "{number}: {}",
            out.stderr
        );
    }
    assert!(
        out.stderr.contains("5 of 7 batch lines were errors"),
        "{}",
        out.stderr
    );
}

#[test]
fn env_applies_to_its_line_only() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let line = |env: Value| {
        json!({"api": "normalize", "target": "chat", "strict": true, "env": env, "input": schema})
            .to_string()
    };
    let input = [
        line(json!({})),
        line(json!({"LLMSHIM_NO_STRICT": "1"})),
        line(json!({"LLMSHIM_NO_STRICT": true})),
        line(json!({"LLMSHIM_NO_STRICT": 1})),
        line(json!({"LLMSHIM_NO_STRICT": "yes"})),
        line(json!({"LLMSHIM_NO_SCHEMA_NORMALIZATION": "TRUE"})),
        line(json!({"LLMSHIM_NO_SCHEMA_CACHE": 1, "PATH": "/nowhere"})),
        line(json!({})),
    ]
    .join("\n");
    let out = llmshim(&["batch"], &input, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let strict: Vec<Value> = out
        .json_lines()
        .iter()
        .map(|a| a["report"]["strict"].clone())
        .collect();
    assert_eq!(strict, [true, false, false, false, true, false, true, true]);
    assert_eq!(
        out.json_lines()[5]["report"],
        flags(false, false, false, true)
    );
    assert_eq!(out.json_lines()[6], out.json_lines()[0]);
}

#[test]
fn env_starts_from_the_process_values_and_null_unsets() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let line = |env: Value| {
        json!({"api": "normalize", "target": "chat", "strict": true, "env": env, "input": schema})
            .to_string()
    };
    let input = [
        line(json!({})),
        line(json!({"LLMSHIM_NO_STRICT": null})),
        line(json!({"LLMSHIM_NO_STRICT": 0})),
    ]
    .join("\n");
    let out = llmshim(&["batch"], &input, &[("LLMSHIM_NO_STRICT", "1")]);
    let strict: Vec<Value> = out
        .json_lines()
        .iter()
        .map(|a| a["report"]["strict"].clone())
        .collect();
    assert_eq!(strict, [false, true, true]);
}

#[test]
fn every_api_and_option_by_its_snake_case_name() {
    let input = [
        json!({"api": "normalize", "target": "google", "options": {"nullable": "REMOVE", "diagnostics": true},
               "input": {"type": "object", "properties": {"a": {"type": ["string", "null"]}}}}),
        json!({"api": "normalize", "target": "responses", "options": {"rewrite_one_of": false, "strip_lookarounds": false},
               "input": {"type": "object", "properties": {"a": {"oneOf": [{"type": "string", "pattern": "(?=a)a"}]}}}}),
        json!({"api": "normalize", "target": "mcp", "options": {"bypass": true}, "input": {"$ref": "#/x"}}),
        json!({"api": "normalize", "target": "mcp", "options": {"max_depth": 0, "max_nodes": 100, "max_literal_bytes": 100},
               "input": {"type": "object", "properties": {"a": {"type": "string"}}}}),
        json!({"api": "normalize", "target": "anthropic", "options": {"structured_output": true, "strict": true},
               "input": {"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}}}),
        json!({"api": "output", "target": "google", "input": {"type": "integer"}}),
        json!({"api": "tools", "target": "google", "strict": true,
               "input": {"tools": [{"type": "function", "function": {"name": "ping", "parameters": {"type": "object", "properties": {}}}}]}}),
        json!({"api": "mcp_tool", "target": "google", "input": {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": ["string", "null"]}}}}}),
        json!({"api": "normalize", "target": "google", "options": {"keywords": "conservative"},
               "input": {"type": "object", "properties": {"a": {"type": "string", "maxLength": 8}}}}),
        json!({"api": "normalize", "target": "google", "options": {"keywords": "current"},
               "input": {"type": "object", "properties": {"a": {"type": "string", "maxLength": 8}}}}),
    ]
    .iter()
    .map(Value::to_string)
    .collect::<Vec<_>>()
    .join("\n");
    let out = llmshim(&["batch", "-"], &input, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let a = out.json_lines();
    assert_eq!(a.len(), 10);
    assert_eq!(
        a[0]["output"],
        json!({"type": "object", "properties": {"a": {"type": "string"}}})
    );
    assert_eq!(a[0]["report"]["changes"][0]["rule"], "walk.nullable-remove");
    assert_eq!(
        a[1]["output"],
        json!({"type": "object", "properties": {"a": {"oneOf": [{"type": "string", "pattern": "(?=a)a"}]}}})
    );
    assert_eq!(a[2]["report"], flags(false, false, false, true));
    assert_eq!(a[3]["report"]["fallback_reason"]["kind"], "budget_depth");
    assert_eq!(a[4]["report"]["strict"], true);
    assert_eq!(a[5]["wrapped"], true);
    assert_eq!(
        a[6]["output"],
        json!({"tools": [{"functionDeclarations": [{"name": "ping"}]}]})
    );
    assert_eq!(a[6]["report"]["strict"], false);
    // For `mcp_tool` the target only chooses the option defaults: Google's marker policy, applied for Mcp.
    assert_eq!(
        a[7]["output"]["inputSchema"]["properties"]["a"],
        json!({"type": "string", "nullable": true})
    );
    assert_eq!(
        a[8]["output"]["properties"]["a"],
        json!({"type": "string", "description": "(maxLength: 8)"})
    );
    assert_eq!(
        a[9]["output"]["properties"]["a"],
        json!({"type": "string", "maxLength": 8})
    );
}

#[test]
fn an_empty_input_gives_no_lines_and_success() {
    let out = llmshim(&["batch"], "\n\n", &[]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.is_empty());
}

#[test]
fn invalid_utf8_is_an_error_line() {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_llmshim"));
    let dir = std::env::temp_dir().join(format!("llmshim-cli-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("lines.jsonl");
    let mut bytes =
        b"{\"api\": \"normalize\", \"target\": \"mcp\", \"input\": \"\xff\"}\n".to_vec();
    bytes.extend_from_slice(b"{\"api\": \"normalize\", \"target\": \"mcp\", \"input\": {}}\n");
    std::fs::write(&path, bytes).unwrap();
    let out = command.arg("batch").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0], r#"{"error":"the line is not valid UTF-8"}"#);
    std::fs::remove_dir_all(&dir).unwrap();
}
