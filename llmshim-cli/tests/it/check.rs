//! `llmshim check`: one report per target, every built-in target in the table's order by default, exit status 1 on a
//! fallback; a table on a terminal, JSON with `--json` or on a pipe.

use llmshim::schema::Target;
use llmshim_cli::console::Console;
use serde_json::json;

use crate::support::{example, flags, in_process, keys, llmshim, run};

#[test]
fn every_built_in_target_in_order() {
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
        [
            "chat",
            "responses",
            "anthropic",
            "google",
            "google-json",
            "cca",
            "mcp"
        ]
    );
    for result in results {
        let keys = keys(result);
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
    let input = r#"{"type": "object", "properties": {"a": {"type": ["string", "integer"]}}, "required": ["a"]}"#;
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

/// The table rows (after the header), split into their three columns.
fn rows(text: &str) -> Vec<(String, String, String)> {
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let (result_at, details_at) = (
        header.find("result").unwrap(),
        header.find("details").unwrap(),
    );
    lines
        .map(|line| {
            let cell = |from: usize, to: usize| {
                line.get(from..to.min(line.len()))
                    .unwrap_or("")
                    .trim()
                    .to_owned()
            };
            (
                cell(0, result_at),
                cell(result_at, details_at),
                cell(details_at, line.len()),
            )
        })
        .collect()
}

const PLAIN: Console = Console::Terminal { color: false };

#[test]
fn on_a_terminal_a_table_with_one_row_per_built_in_target() {
    let schema = std::fs::read_to_string(example("pydantic-order.json")).unwrap();
    let out = in_process(&["check"], &schema, PLAIN);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("target "), "{}", out.stdout);
    let table = rows(&out.stdout);
    let names: Vec<String> = Target::BUILTIN.iter().map(ToString::to_string).collect();
    assert_eq!(table.iter().map(|r| r.0.clone()).collect::<Vec<_>>(), names);
    // Each row counts the changes `explain` lists for that target.
    for (target, result, details) in &table {
        assert_eq!(result, "rewritten", "{target}");
        let tsv = run(&[
            "explain",
            "--target",
            target,
            "--format",
            "tsv",
            &example("pydantic-order.json"),
        ]);
        assert_eq!(
            details,
            &format!("{} changes", tsv.stdout.lines().count() - 1),
            "{target}"
        );
    }
    // --json, or a pipe, gives the JSON answer.
    let json = in_process(&["check", "--json"], &schema, PLAIN);
    let piped = in_process(&["check"], &schema, Console::Pipe);
    assert_eq!(json.stdout, piped.stdout);
    assert_eq!(
        json.json()["results"].as_array().unwrap().len(),
        names.len()
    );
}

#[test]
fn the_table_shows_unchanged_narrowed_demoted_and_fallback_with_reasons() {
    // Untouched on MCP; Google splits the type array into an `anyOf` and gives the array without `items` string
    // items (a narrowing); Code Assist falls back on the type array of two types (required, so nothing optional
    // around it can be removed instead).
    let input = r#"{"type": "object", "properties": {"tags": {"type": "array"}, "n": {"type": ["string", "integer"]}}, "required": ["n"]}"#;
    let out = in_process(
        &[
            "check", "--target", "mcp", "--target", "google", "--target", "cca",
        ],
        input,
        PLAIN,
    );
    assert_eq!(out.code, 1, "a fallback exits with 1: {}", out.stdout);
    assert_eq!(out.stderr, "", "the table says it all");
    let table = rows(&out.stdout);
    assert_eq!(table[0], ("mcp".into(), "unchanged".into(), String::new()));
    assert_eq!(
        table[1],
        (
            "google".into(),
            "narrowed".into(),
            "2 changes, 1 narrowing".into()
        )
    );
    assert_eq!(table[2].1, "fallback", "{table:?}");
    assert!(
        table[2]
            .2
            .starts_with("target_unsupported at /properties/n: "),
        "{table:?}"
    );
    let narrowing = r#"{"type": "object", "properties": {"tags": {"type": "array"}}}"#;
    let out = in_process(&["check", "--target", "google"], narrowing, PLAIN);
    assert_eq!(
        rows(&out.stdout)[0],
        (
            "google".into(),
            "narrowed".into(),
            "1 change, 1 narrowing".into()
        )
    );
    let demoted = r#"{"type": "object", "properties": {"a": true}}"#;
    let out = in_process(&["check", "--target", "chat", "--strict"], demoted, PLAIN);
    assert_eq!(out.code, 0);
    assert_eq!(
        rows(&out.stdout)[0],
        (
            "chat".into(),
            "demoted".into(),
            "boolean_schema at /properties/a: boolean subschemas are not accepted here; 1 change"
                .into()
        )
    );
}

#[test]
fn colour_in_the_table_follows_the_terminal_and_the_flag() {
    let input = r#"{"type": "object", "properties": {}}"#;
    let coloured = in_process(
        &["check", "--target", "mcp"],
        input,
        Console::Terminal { color: true },
    );
    assert!(
        coloured.stdout.contains("\u{1b}[32munchanged\u{1b}[0m"),
        "{}",
        coloured.stdout
    );
    let plain = in_process(&["check", "--target", "mcp"], input, PLAIN);
    assert!(!plain.stdout.contains('\u{1b}'));
    let never = in_process(
        &["check", "--target", "mcp", "--color", "never"],
        input,
        Console::Terminal { color: true },
    );
    assert_eq!(never.stdout, plain.stdout);
}
