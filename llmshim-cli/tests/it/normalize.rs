//! `llmshim normalize`: files and standard input, every target, the option flags, `--pretty` and the environment.

use serde_json::json;

use crate::support::{example, flags, keys, llmshim, run, targets};

const NULLABLE: &str =
    r#"{"type": "object", "properties": {"name": {"type": ["string", "null"]}}}"#;

#[test]
fn the_pydantic_example_normalizes_for_every_target() {
    let file = example("pydantic-order.json");
    for target in targets() {
        let out = run(&["normalize", "--target", target, &file]);
        assert_eq!(out.code, 0, "{target}: {}", out.stderr);
        let answer = out.json();
        let keys = keys(&answer);
        assert_eq!(keys, ["output", "report"], "{target}");
        assert_eq!(
            answer["report"],
            flags(true, false, false, false),
            "{target}"
        );
        let output = answer["output"].to_string();
        assert!(
            !output.contains("$ref") && !output.contains("$defs"),
            "{target}: {output}"
        );
        assert_eq!(answer["output"]["type"], "object");
    }
}

#[test]
fn standard_input_is_read_for_a_dash_or_no_file() {
    let expected = json!({
        "output": {"type": "object", "properties": {"name": {"type": "string", "nullable": true}}},
        "report": {"changed": true, "used_fallback": false, "strict": false, "bypassed": false, "narrowed": false}
    });
    for args in [
        &["normalize", "--target", "google"][..],
        &["normalize", "--target", "google", "-"],
    ] {
        let out = llmshim(args, NULLABLE, &[]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(out.json(), expected);
        assert_eq!(out.stdout.matches('\n').count(), 1);
        assert!(out.stderr.is_empty(), "{}", out.stderr);
    }
}

#[test]
fn pretty_indents_by_two_spaces() {
    let out = llmshim(
        &["normalize", "--target", "mcp", "--pretty"],
        r#"{"type": "string"}"#,
        &[],
    );
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        "{\n  \"output\": {\n    \"type\": \"string\"\n  },\n  \"report\": {\n    \"changed\": false,\n    \
         \"used_fallback\": false,\n    \"strict\": false,\n    \"bypassed\": false,\n    \"narrowed\": false\n  }\n}\n"
    );
}

#[test]
fn strict_and_diagnostics_list_every_change() {
    let input = r#"{"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}"#;
    let out = llmshim(
        &["normalize", "--target", "chat", "--strict", "--diagnostics"],
        input,
        &[],
    );
    assert_eq!(out.code, 0);
    let answer = out.json();
    assert_eq!(
        answer["output"],
        json!({
            "type": "object",
            "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "(default: \"x\")"}},
            "required": ["a"],
            "additionalProperties": false
        })
    );
    assert_eq!(answer["report"]["strict"], true);
    let rules: Vec<&str> = answer["report"]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "strict.keyword",
            "strict.nullable-optional",
            "strict.close-object"
        ]
    );
    let keys = keys(&answer["report"]["changes"][0]);
    assert_eq!(keys, ["pointer", "rule", "kind"]);
}

#[test]
fn diagnostics_off_omits_changes_and_on_lists_an_empty_array() {
    let off = llmshim(
        &["normalize", "--target", "mcp"],
        r#"{"type": "string"}"#,
        &[],
    )
    .json();
    assert!(off["report"].get("changes").is_none());
    let on = llmshim(
        &["normalize", "--target", "mcp", "--diagnostics"],
        r#"{"type": "string"}"#,
        &[],
    )
    .json();
    assert_eq!(on["report"]["changes"], json!([]));
}

#[test]
fn policy_flags_override_the_target_defaults() {
    let marker = llmshim(
        &["normalize", "--target", "chat", "--nullable", "marker"],
        NULLABLE,
        &[],
    )
    .json();
    assert_eq!(
        marker["output"]["properties"]["name"],
        json!({"type": "string", "nullable": true})
    );
    let preserve = llmshim(
        &["normalize", "--target", "google", "--nullable", "preserve"],
        NULLABLE,
        &[],
    )
    .json();
    // Without the marker Gemini gets the type array split into alternatives.
    assert!(
        preserve["output"]["properties"]["name"]
            .get("nullable")
            .is_none()
    );
    assert_eq!(preserve["report"]["used_fallback"], false);
    let remove = llmshim(
        &["normalize", "--target", "google", "--nullable", "remove"],
        NULLABLE,
        &[],
    )
    .json();
    assert_eq!(
        remove["output"]["properties"]["name"],
        json!({"type": "string"})
    );

    let one_of = r#"{"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}}"#;
    let kept = llmshim(
        &[
            "normalize",
            "--target",
            "responses",
            "--rewrite-one-of",
            "false",
        ],
        one_of,
        &[],
    )
    .json();
    assert!(kept["output"]["properties"]["a"].get("oneOf").is_some());
    let rewritten = llmshim(
        &["normalize", "--target", "chat", "--rewrite-one-of", "true"],
        one_of,
        &[],
    )
    .json();
    assert!(
        rewritten["output"]["properties"]["a"]
            .get("anyOf")
            .is_some()
    );

    let pattern =
        r#"{"type": "object", "properties": {"a": {"type": "string", "pattern": "^(?!x)a$"}}}"#;
    let stripped = llmshim(
        &[
            "normalize",
            "--target",
            "chat",
            "--strip-lookarounds",
            "true",
        ],
        pattern,
        &[],
    )
    .json();
    assert_eq!(stripped["output"]["properties"]["a"]["pattern"], "^a$");
    let left = llmshim(
        &[
            "normalize",
            "--target",
            "responses",
            "--strip-lookarounds",
            "false",
        ],
        pattern,
        &[],
    )
    .json();
    assert_eq!(left["output"]["properties"]["a"]["pattern"], "^(?!x)a$");
}

#[test]
fn budgets_fall_back_with_exit_status_zero() {
    let literal = llmshim(
        &["normalize", "--target", "mcp", "--max-literal-bytes", "11"],
        r#"{"type": "string"}"#,
        &[],
    );
    assert_eq!(literal.code, 0);
    let answer = literal.json();
    assert_eq!(
        answer["output"],
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(answer["report"]["used_fallback"], true);
    assert_eq!(
        answer["report"]["fallback_reason"]["kind"],
        "budget_literal"
    );
    assert_eq!(answer["report"]["fallback_reason"]["pointer"], "");
    assert!(
        literal.stderr.contains("budget_literal"),
        "{}",
        literal.stderr
    );
    let keys = keys(&answer["report"]);
    assert_eq!(
        keys,
        [
            "changed",
            "used_fallback",
            "strict",
            "bypassed",
            "narrowed",
            "fallback_reason"
        ]
    );

    let three = r#"{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}}}"#;
    let nodes = llmshim(
        &["normalize", "--target", "mcp", "--max-nodes", "3"],
        three,
        &[],
    )
    .json();
    assert_eq!(nodes["report"]["fallback_reason"]["kind"], "budget_nodes");
    let enough = llmshim(
        &["normalize", "--target", "mcp", "--max-nodes", "4"],
        three,
        &[],
    )
    .json();
    assert_eq!(enough["report"]["used_fallback"], false);

    let chain = r#"{"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}}}"#;
    let depth = llmshim(
        &["normalize", "--target", "mcp", "--max-depth", "1"],
        chain,
        &[],
    )
    .json();
    assert_eq!(depth["report"]["fallback_reason"]["kind"], "budget_depth");
}

#[test]
fn bypass_flag_and_environment_leave_the_schema_alone() {
    let missing = r##"{"$ref": "#/missing"}"##;
    let expected =
        json!({"output": {"$ref": "#/missing"}, "report": flags(false, false, false, true)});
    assert_eq!(
        llmshim(&["normalize", "--target", "chat", "--bypass"], missing, &[]).json(),
        expected
    );
    let env = [("LLMSHIM_NO_SCHEMA_NORMALIZATION", "TRUE")];
    assert_eq!(
        llmshim(&["normalize", "--target", "chat"], missing, &env).json(),
        expected
    );
}

#[test]
fn the_no_strict_environment_flag_applies() {
    let schema = r#"{"type": "object", "properties": {"a": {"type": "string"}}}"#;
    let strict = llmshim(&["normalize", "--target", "chat", "--strict"], schema, &[]).json();
    assert_eq!(strict["report"]["strict"], true);
    let off = llmshim(
        &["normalize", "--target", "chat", "--strict"],
        schema,
        &[("LLMSHIM_NO_STRICT", "1")],
    )
    .json();
    assert_eq!(off["report"], flags(false, false, false, false));
    let not_a_flag = llmshim(
        &["normalize", "--target", "chat", "--strict"],
        schema,
        &[("LLMSHIM_NO_STRICT", "yes")],
    );
    assert_eq!(not_a_flag.json()["report"]["strict"], true);
}

#[test]
fn no_cache_gives_identical_answers() {
    let file = example("pydantic-order.json");
    for target in ["chat", "google"] {
        let cached = run(&[
            "normalize",
            "--target",
            target,
            "--strict",
            "--diagnostics",
            &file,
        ]);
        let uncached = run(&[
            "normalize",
            "--target",
            target,
            "--strict",
            "--diagnostics",
            "--no-cache",
            &file,
        ]);
        assert_eq!(cached.code, 0);
        assert_eq!(cached.stdout, uncached.stdout);
    }
}

#[test]
fn a_fallback_is_noted_on_standard_error() {
    let out = llmshim(
        &["normalize", "--target", "chat"],
        r#"{"type": "object", "properties": {"a": {"$ref": "https://example.test/a.json"}}, "required": ["a"]}"#,
        &[],
    );
    assert_eq!(out.code, 0);
    let answer = out.json();
    assert_eq!(answer["report"]["fallback_reason"]["kind"], "external_ref");
    assert_eq!(
        answer["report"]["fallback_reason"]["pointer"],
        "/properties/a"
    );
    assert!(
        out.stderr.contains("warning") && out.stderr.contains("external_ref"),
        "{}",
        out.stderr
    );
}
