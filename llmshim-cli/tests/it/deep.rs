//! Documents nested 100,000 levels deep through every subcommand and `batch`, on a thread with a 2 MiB stack: a deep
//! schema falls back with `budget_depth`, a deep value outside any schema passes through unchanged, nothing crashes.

use std::thread;

use llmshim_cli::console::Console;
use llmshim_cli::run::{Io, main_on};
use serde_json::{Value, json};

use crate::support::llmshim;

const LEVELS: usize = 100_000;

/// A schema nested `LEVELS` levels through `items`, as text.
fn deep_schema() -> String {
    format!(
        "{}{{\"type\":\"string\"}}{}",
        "{\"type\":\"array\",\"items\":".repeat(LEVELS),
        "}".repeat(LEVELS)
    )
}

/// An array nested `LEVELS` levels, as text.
fn deep_array() -> String {
    format!("{}{}", "[".repeat(LEVELS), "]".repeat(LEVELS))
}

/// A chat request whose `messages` member is nested `LEVELS` levels and whose one tool is shallow.
fn deep_messages_request() -> String {
    format!(
        "{{\"messages\":{},\"tools\":[{{\"type\":\"function\",\"function\":{{\"name\":\"f\",\"parameters\":{{\"type\":\"object\",\"properties\":{{\"a\":{{\"type\":\"string\"}}}}}}}}}}]}}",
        deep_array()
    )
}

/// Runs `args` with `stdin` in this process on a thread with a 2 MiB stack; returns status, stdout and stderr.
fn run_small(args: &[&str], stdin: String) -> (u8, String, String) {
    run_small_on(args, stdin, Console::Pipe)
}

/// [`run_small`] with standard output connected to `console`.
fn run_small_on(args: &[&str], stdin: String, console: Console) -> (u8, String, String) {
    let mut command = vec!["llmshim".to_owned()];
    command.extend(args.iter().map(|&a| a.to_owned()));
    thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
            let mut input = stdin.as_bytes();
            let mut io = Io {
                stdin: &mut input,
                stdout: &mut stdout,
                stderr: &mut stderr,
            };

            let code = main_on(command, &mut io, console);
            (
                code,
                String::from_utf8(stdout).unwrap(),
                String::from_utf8(stderr).unwrap(),
            )
        })
        .unwrap()
        .join()
        .unwrap()
}

/// The answer's report, read from the answer text's tail (the answer may be too deep for `serde_json`).
fn fallback_kind(answer: &str) -> Option<String> {
    let start = answer.find("\"report\":")?;
    let report: Value = serde_json::Deserializer::from_str(&answer[start + 9..])
        .into_iter::<Value>()
        .next()?
        .ok()?;
    report["fallback_reason"]["kind"]
        .as_str()
        .map(str::to_owned)
}

#[test]
fn a_deep_schema_falls_back_with_budget_depth_in_every_schema_subcommand() {
    // Every target through `normalize`; `output` and `tools` share its entry checks, so two targets each suffice.
    for target in llmshim::schema::Target::BUILTIN.map(|t| t.to_string()) {
        let target = target.as_str();
        let commands: &[&str] = if matches!(target, "chat" | "google") {
            &["normalize", "output", "tools"]
        } else {
            &["normalize"]
        };
        for &command in commands.iter().filter(|&&c| c != "tools") {
            let (code, out, err) = run_small(&[command, "--target", target], deep_schema());
            assert_eq!(code, 0, "{command} {target}: {err}");
            let answer: Value = serde_json::from_str(out.trim_end()).unwrap();
            assert_eq!(
                answer["output"],
                json!({"type": "object", "properties": {}})
            );
            assert_eq!(answer["report"]["fallback_reason"]["kind"], "budget_depth");
            assert!(err.contains("budget_depth"), "{err}");
        }
        let request = format!(
            "{{\"tools\":[{{\"type\":\"function\",\"function\":{{\"name\":\"f\",\"parameters\":{}}}}}]}}",
            deep_schema()
        );
        if !commands.contains(&"tools") {
            continue;
        }
        let (code, out, err) = run_small(&["tools", "--target", target], request);
        assert_eq!(code, 0, "tools {target}: {err}");
        let answer: Value = serde_json::from_str(out.trim_end()).unwrap();
        assert_eq!(answer["report"]["fallback_reason"]["kind"], "budget_depth");
        assert_eq!(
            answer["report"]["fallback_reason"]["pointer"],
            "/tools/0/function/parameters"
        );
    }
    let tool = format!("{{\"name\":\"deep\",\"inputSchema\":{}}}", deep_schema());
    let (code, out, _) = run_small(&["mcp-tool"], tool);
    assert_eq!(code, 0);
    assert_eq!(fallback_kind(&out).as_deref(), Some("budget_depth"));

    let (code, out, _) = run_small(
        &["explain", "--target", "google", "--format", "tsv"],
        deep_schema(),
    );
    assert_eq!(code, 0);
    assert!(out.contains("reason\tbudget_depth\t"), "{out}");
    let (code, out, _) = run_small(&["explain", "--target", "google"], deep_schema());
    assert_eq!(code, 0);
    assert!(
        out.starts_with("{\n  \"type\": \"object\",\n  \"properties\": {}\n}\n"),
        "{out}"
    );
    assert!(
        out.contains(": the schema cannot be made acceptable here (budget_depth: "),
        "{out}"
    );
    // The input indents into gigabytes, so the diff says so in one line instead.
    let (code, out, _) = run_small(&["explain", "--target", "google", "--diff"], deep_schema());
    assert_eq!(code, 0);
    assert!(
        out.starts_with("(no diff: the indented input or output passes 64 MiB)\n"),
        "{out}"
    );

    let (code, out, err) = run_small(&["check"], deep_schema());
    assert_eq!(code, 1, "every target falls back: {err}");
    let answer: Value = serde_json::from_str(out.trim_end()).unwrap();
    let kinds: Vec<&Value> = answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["report"]["fallback_reason"]["kind"])
        .collect();
    assert_eq!(
        kinds,
        vec![&json!("budget_depth"); llmshim::schema::Target::BUILTIN.len()]
    );

    let terminal = Console::Terminal { color: false };
    let (code, out, _) = run_small_on(&["check"], deep_schema(), terminal);
    assert_eq!(code, 1);
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), llmshim::schema::Target::BUILTIN.len(), "{out}");
    assert!(
        rows.iter()
            .all(|row| row.contains(" fallback  budget_depth at ")),
        "{out}"
    );
}

#[test]
fn a_deep_value_outside_any_schema_passes_through_unchanged() {
    let request = deep_messages_request();
    for target in ["chat", "anthropic", "google", "cca"] {
        let (code, out, err) = run_small(&["tools", "--target", target], request.clone());
        assert_eq!(code, 0, "{err}");
        // The deep member comes back byte for byte, in its place (inside the envelope's `request` for Code Assist).
        let envelope = if target == "cca" { "{\"request\":" } else { "" };
        assert!(
            out.starts_with(&format!(
                "{{\"output\":{envelope}{{\"messages\":{}",
                deep_array()
            )),
            "{target}"
        );
        assert_eq!(fallback_kind(&out), None);
    }
    // A `default` literal deeper than any budget is inside a schema: that falls back.
    let schema = format!("{{\"type\":\"array\",\"default\":{}}}", deep_array());
    let (code, out, _) = run_small(&["normalize", "--target", "chat"], schema);
    assert_eq!(code, 0);
    assert_eq!(fallback_kind(&out).as_deref(), Some("budget_depth"));
    // Pretty output of a deep pass-through is written without recursion too: one line per bracket but the innermost
    // `[]`, plus the seven lines around the request and the report's five flags.
    let (code, out, _) = run_small(
        &["tools", "--target", "chat", "--pretty"],
        format!(
            "{{\"messages\":{}{}}}",
            "[".repeat(2_000),
            "]".repeat(2_000)
        ),
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 2 * 2_000 - 1 + 6 + 5);
    assert!(out.contains(&format!("\n{}[]\n", " ".repeat(2 * (2_000 + 1)))));
}

#[test]
fn validate_refuses_a_deep_schema_and_judges_a_deep_instance() {
    let dir = std::env::temp_dir().join(format!("llmshim-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let deep = dir.join("deep.json");
    std::fs::write(&deep, deep_schema()).unwrap();
    let (code, _, err) = run_small(
        &["validate", "--schema", deep.to_str().unwrap()],
        "1".to_owned(),
    );
    assert_eq!(
        code, 2,
        "a schema past the validation limits does not compile"
    );
    assert!(err.contains("does not compile"), "{err}");
    let schema = dir.join("schema.json");
    std::fs::write(&schema, r##"{"items": {"$ref": "#"}}"##).unwrap();
    let (code, out, _) = run_small(
        &["validate", "--schema", schema.to_str().unwrap()],
        deep_array(),
    );
    assert_eq!(code, 1);
    let answer: Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(answer["valid"], false);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn batch_answers_deep_lines_in_order() {
    let schema = deep_schema();
    let lines = [
        format!("{{\"api\":\"normalize\",\"target\":\"chat\",\"input\":{schema}}}"),
        format!("{{\"api\":\"output\",\"target\":\"google\",\"input\":{schema}}}"),
        format!("{{\"api\":\"mcp_tool\",\"input\":{{\"name\":\"x\",\"inputSchema\":{schema}}}}}"),
        format!(
            "{{\"api\":\"tools\",\"target\":\"anthropic\",\"input\":{}}}",
            deep_messages_request()
        ),
        // A line error with deep members: the whole line is freed and answered with an error.
        format!("{{\"api\":\"nope\",\"ignored\":{schema},\"input\":{schema}}}"),
        format!("{{\"api\":\"normalize\",\"target\":\"chat\",\"input\":{schema}"),
    ];
    let (code, out, err) = run_small(&["batch"], lines.join("\n"));
    assert_eq!(code, 2, "two lines are errors: {err}");
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), 6);
    assert_eq!(fallback_kind(answers[0]).as_deref(), Some("budget_depth"));
    assert_eq!(fallback_kind(answers[1]).as_deref(), Some("budget_depth"));
    assert_eq!(fallback_kind(answers[2]).as_deref(), Some("budget_depth"));
    assert!(answers[3].starts_with(&format!("{{\"output\":{{\"messages\":{}", deep_array())));
    assert_eq!(fallback_kind(answers[3]), None);
    assert!(
        answers[4].starts_with("{\"error\":\"unknown api"),
        "{}",
        answers[4]
    );
    assert!(
        answers[5]
            .starts_with("{\"error\":\"the line is not valid JSON: eof while parsing an object"),
        "{}",
        answers[5]
    );
}

#[test]
fn the_binary_reads_a_deep_document_from_standard_input() {
    let run = llmshim(&["normalize", "--target", "google"], &deep_schema(), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.json()["report"]["fallback_reason"]["kind"],
        "budget_depth"
    );
    let run = llmshim(
        &["tools", "--target", "google"],
        &deep_messages_request(),
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with(&format!("{{\"output\":{{\"messages\":{}", deep_array()))
    );
}
