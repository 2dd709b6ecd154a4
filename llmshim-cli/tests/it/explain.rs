//! `llmshim explain`: the resulting schema and one sentence per change in document order, `--diff`, colour, and the
//! tab-separated form (`--format tsv`). The whole texts on the bundled examples are golden cases (`golden.rs`).

use llmshim::rules;
use serde_json::Value;

use crate::support::{example, llmshim, run};

/// The change lines of an `explain` text: the lines after the first blank line.
fn change_lines(text: &str) -> Vec<&str> {
    text.split_once("\n\n")
        .map(|(_, rest)| rest.lines().collect())
        .unwrap_or_default()
}

#[test]
fn explain_prints_the_resulting_schema_then_a_sentence_per_change_in_document_order() {
    let file = example("pydantic-order.json");
    let out = run(&["explain", "--target", "google", &file]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (schema, _) = out.stdout.split_once("\n\n").unwrap();
    let normalized = run(&["normalize", "--target", "google", "--pretty", &file]);
    assert_eq!(
        serde_json::from_str::<Value>(schema).unwrap(),
        normalized.json_pretty()["output"],
        "the schema part is the normalized schema"
    );
    let lines = change_lines(&out.stdout);
    let tsv = run(&["explain", "--target", "google", "--format", "tsv", &file]);
    let performed: Vec<Vec<&str>> = tsv
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(lines.len(), performed.len(), "one line per change");
    // Every change appears once with its pointer, its rule id and the rule's reason.
    for change in &performed {
        let (rule, pointer) = (change[1], change[2]);
        let reason = rules::reason(rule).unwrap();
        assert!(
            lines.iter().any(|l| l.starts_with(&format!("{pointer}: "))
                && l.ends_with(&format!(". Why: {reason} ({rule})"))),
            "{pointer} {rule}: {lines:#?}"
        );
    }
    // Document order: the inlined `$ref` of the line items before the bound lifted inside it, though the walk
    // records the bound first; `/$defs` first, although it is the last key of the input's root but one.
    let at = |p: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(&format!("{p}: ")))
            .unwrap()
    };
    let bound = "/properties/items/items/properties/quantity/exclusiveMinimum";
    assert!(at("/properties/items/items/$ref") < at(bound));
    assert!(
        performed
            .iter()
            .position(|c| c[2] == "/properties/items/items/$ref")
            > performed.iter().position(|c| c[2] == bound)
    );
    assert_eq!(at("/$defs"), 0);
    assert!(at("/properties/items/items/$ref") < at("/properties/ship_to/$ref"));
    assert!(at("/properties/ship_to/$ref") < at("/properties/priority/$ref"));
    // Where a lifted value went: the description it was appended to.
    assert!(lines[at(bound)].starts_with(
        "/properties/items/items/properties/quantity/exclusiveMinimum: moved `exclusiveMinimum` into the node's \
         description, which now reads \"(default: 1) (exclusiveMinimum: 0)\". Why: "
    ));
    assert!(
        lines[at("/properties/ship_to/$ref")]
            .contains("replaced the reference \"#/$defs/Address\"")
    );
    // Gemini's schema has `pattern`: the current keyword profile keeps it, so no line names it; the conservative
    // profile lifts it.
    assert!(!lines.iter().any(|l| l.contains("/postal_code/pattern")));
    let conservative = run(&[
        "explain",
        "--target",
        "google",
        "--keywords",
        "conservative",
        &file,
    ]);
    assert!(
        change_lines(&conservative.stdout).iter().any(|l| l.starts_with(
            "/properties/ship_to/properties/postal_code/pattern: moved `pattern` into the node's description, \
             which now reads \"(pattern: ^[0-9]{5}$)\". Why: "
        )),
        "{}",
        conservative.stdout
    );
    assert!(!out.stdout.contains('\u{1b}'), "no colour on a pipe");
}

#[test]
fn colour_follows_the_color_flag() {
    let file = example("pydantic-order.json");
    let always = run(&["explain", "--target", "google", "--color", "always", &file]);
    assert!(
        always
            .stdout
            .contains("\u{1b}[1;36m/properties/ship_to/$ref\u{1b}[0m: "),
        "{}",
        always.stdout
    );
    assert!(
        always
            .stdout
            .contains("\u{1b}[34m\"properties\"\u{1b}[0m: {")
    );
    let never = run(&["explain", "--target", "google", "--color", "never", &file]);
    assert!(!never.stdout.contains('\u{1b}'));
    let strip = always.stdout.replace("\u{1b}[0m", "");
    let strip = ["1;36", "34", "32", "33", "2"]
        .iter()
        .fold(strip, |text, code| {
            text.replace(&format!("\u{1b}[{code}m"), "")
        });
    assert_eq!(strip, never.stdout, "colour adds escapes and nothing else");
}

#[test]
fn diff_shows_the_input_becoming_the_output() {
    let out = run(&[
        "explain",
        "--target",
        "google",
        "--diff",
        &example("pydantic-order.json"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (diff, _) = out.stdout.split_once("\n\n").unwrap();
    let lines: Vec<&str> = diff.lines().collect();
    assert_eq!(&lines[..2], ["--- input", "+++ output"]);
    assert!(lines[2].starts_with("@@ -1,"), "{}", lines[2]);
    let trimmed = |sign: char, text: &str| {
        lines
            .iter()
            .any(|l| l.strip_prefix(sign).is_some_and(|rest| rest.trim() == text))
    };
    assert!(trimmed('-', "\"$ref\": \"#/$defs/Address\","), "{diff}");
    assert!(
        trimmed(
            '+',
            "\"description\": \"(default: 1) (exclusiveMinimum: 0)\""
        ),
        "{diff}"
    );
    // Applying the diff's removed and added lines to the input gives the output, line for line.
    let input = run(&[
        "normalize",
        "--target",
        "mcp",
        "--bypass",
        "--pretty",
        &example("pydantic-order.json"),
    ]);
    let output = run(&[
        "normalize",
        "--target",
        "google",
        "--pretty",
        &example("pydantic-order.json"),
    ]);
    let before = pretty(&input.json_pretty()["output"]);
    let after = pretty(&output.json_pretty()["output"]);
    assert_eq!(apply(&before, &lines[2..]), after);
}

/// `value` indented by two spaces.
fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap()
}

/// Applies the hunks of a unified diff to `text`.
fn apply(text: &str, hunks: &[&str]) -> String {
    let old: Vec<&str> = text.lines().collect();
    let mut new: Vec<String> = Vec::new();
    let mut next = 0usize;
    for line in hunks {
        if let Some(header) = line.strip_prefix("@@ -") {
            let start: usize = header.split([',', ' ']).next().unwrap().parse().unwrap();
            // A hunk starts at its first old line (1-based).
            while next + 1 < start {
                new.push(old[next].to_owned());
                next += 1;
            }
        } else if let Some(kept) = line.strip_prefix(' ') {
            assert_eq!(old[next], kept);
            new.push(kept.to_owned());
            next += 1;
        } else if let Some(removed) = line.strip_prefix('-') {
            assert_eq!(old[next], removed);
            next += 1;
        } else if let Some(added) = line.strip_prefix('+') {
            new.push(added.to_owned());
        }
    }
    new.extend(old[next..].iter().map(|l| (*l).to_owned()));
    new.join("\n")
}

#[test]
fn a_fallback_ends_with_where_and_why() {
    let input =
        r##"{"type": "object", "properties": {"a": {"$ref": "#/missing"}}, "required": ["a"]}"##;
    let out = llmshim(&["explain", "--target", "google"], input, &[]);
    assert_eq!(out.code, 0);
    assert!(
        out.stdout
            .starts_with("{\n  \"type\": \"object\",\n  \"properties\": {}\n}\n\n"),
        "{}",
        out.stdout
    );
    let lines = change_lines(&out.stdout);
    assert_eq!(
        lines.len(),
        1,
        "changes are empty after a fallback: {lines:?}"
    );
    assert!(
        lines[0].starts_with(
            "/properties/a: the schema cannot be made acceptable here (unresolved_ref: "
        ),
        "{}",
        lines[0]
    );
    assert!(lines[0].ends_with(
        "), so the whole schema was replaced by the fallback above, an object without properties."
    ));
}

#[test]
fn a_demotion_says_strict_was_given_up() {
    // A boolean subschema cannot be strict, so Chat demotes the schema to non-strict and says why.
    let input = r#"{"type": "object", "properties": {"a": true}}"#;
    let out = llmshim(&["explain", "--target", "chat", "--strict"], input, &[]);
    assert_eq!(out.code, 0);
    let lines = change_lines(&out.stdout);
    assert!(
        lines.contains(&format!(
            "(root): gave up strict mode: the schema was normalized again without it. Why: {} (strict.demoted)",
            rules::reason("strict.demoted").unwrap()
        ).as_str()),
        "{lines:?}"
    );
    assert_eq!(
        lines.last(),
        Some(
            &"/properties/a: strict mode was given up here (boolean_schema: boolean subschemas are not accepted here), so the schema above is the target's non-strict form."
        )
    );
}

#[test]
fn nothing_to_change_and_a_bypass_say_so() {
    let input = r#"{"type": "object", "properties": {"a": {"type": "string"}}}"#;
    let out = llmshim(&["explain", "--target", "mcp"], input, &[]);
    assert_eq!(
        change_lines(&out.stdout),
        ["(root): nothing to change: the target takes this schema as it is."]
    );
    let out = llmshim(
        &["explain", "--target", "chat"],
        r##"{"$ref": "#/x"}"##,
        &[("LLMSHIM_NO_SCHEMA_NORMALIZATION", "1")],
    );
    assert_eq!(
        out.stdout,
        "{\n  \"$ref\": \"#/x\"\n}\n\n(root): normalization was bypassed (--bypass or LLMSHIM_NO_SCHEMA_NORMALIZATION), so \
         the schema is sent as it is.\n"
    );
}

#[test]
fn tsv_prints_the_flags_every_change_and_no_reason_on_success() {
    let out = run(&[
        "explain",
        "--target",
        "chat",
        "--strict",
        "--format",
        "tsv",
        &example("pydantic-order.json"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "changed=true used_fallback=false strict=true bypassed=false"
    );
    assert!(lines.len() > 5);
    for line in &lines[1..] {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert!(
            [
                "dropped",
                "lifted",
                "rewritten",
                "relaxed",
                "added",
                "upgraded",
                "narrowed"
            ]
            .contains(&fields[0]),
            "{line}"
        );
        assert!(fields[1].contains('.'), "{line}");
    }
    assert!(lines.contains(&"dropped\tresolve.drop-definitions\t/$defs"));
    assert_eq!(lines.last(), Some(&"rewritten\tstrict.close-object\t"));
}

#[test]
fn tsv_ends_with_the_reason() {
    let input =
        r##"{"type": "object", "properties": {"a": {"$ref": "#/missing"}}, "required": ["a"]}"##;
    let out = llmshim(
        &["explain", "--target", "google", "--format", "tsv"],
        input,
        &[],
    );
    assert_eq!(out.code, 0);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "changed=true used_fallback=true strict=false bypassed=false"
    );
    assert_eq!(
        lines.len(),
        2,
        "changes are empty after a fallback: {lines:?}"
    );
    assert!(
        lines[1].starts_with("reason\tunresolved_ref\t/properties/a\t"),
        "{}",
        lines[1]
    );
}

#[test]
fn tsv_of_a_demotion_lists_changes_and_the_reason() {
    let input = r#"{"type": "object", "properties": {"a": true}}"#;
    let out = llmshim(
        &["explain", "--target", "chat", "--strict", "--format", "tsv"],
        input,
        &[],
    );
    assert_eq!(out.code, 0);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[0].contains("strict=false"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("relaxed\tstrict.demoted\t")),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().starts_with("reason\t"), "{lines:?}");
}

#[test]
fn tsv_of_a_bypass_is_one_line() {
    let out = llmshim(
        &["explain", "--target", "chat", "--format", "tsv"],
        r##"{"$ref": "#/x"}"##,
        &[("LLMSHIM_NO_SCHEMA_NORMALIZATION", "1")],
    );
    assert_eq!(
        out.stdout,
        "changed=false used_fallback=false strict=false bypassed=true\n"
    );
}

/// Whether `outer` is a proper ancestor path of `inner`, token by token.
fn encloses(outer: &str, inner: &str) -> bool {
    inner.len() > outer.len() && inner.starts_with(outer) && inner.as_bytes()[outer.len()] == b'/'
}

#[test]
fn every_change_of_the_mcp_corpus_gets_one_sentence_in_document_order() {
    use llmshim::schema::{Normalizer, Options, Target};
    use llmshim_benches::testdata::{mcp_tool_files, read_json, require};
    use llmshim_cli::console::Paint;
    use llmshim_cli::explain::{Form, show_pointer, write_text};

    let Some(_) = require("llmshim-cli explain over the MCP corpus") else {
        return;
    };
    let normalizer = Normalizer::default();
    let (mut explained, mut sentences) = (0usize, 0usize);
    for path in mcp_tool_files() {
        let file = read_json(&path).unwrap();
        for tool in file["tools"].as_array().into_iter().flatten() {
            let Some(input) = tool.get("inputSchema") else {
                continue;
            };
            for target in Target::BUILTIN {
                for strict in [false, true] {
                    let options = Options::for_target(target)
                        .with_strict(strict)
                        .with_diagnostics(true);
                    let mut output = input.clone();
                    let report = normalizer.normalize_with(&options, &mut output);
                    let mut text = Vec::new();
                    write_text(
                        &mut text,
                        input,
                        &output,
                        &report,
                        Form::Schema,
                        Paint::new(false),
                    )
                    .unwrap();
                    let text = String::from_utf8(text).unwrap();
                    let (schema, rest) = text.split_once("\n\n").unwrap();
                    assert_eq!(serde_json::from_str::<Value>(schema).unwrap(), output);
                    let lines: Vec<&str> = rest.lines().collect();
                    let case = format!("{} {target} strict={strict}", tool["name"]);
                    // One line per change, then one closing line when there is a reason or nothing changed.
                    let closing =
                        usize::from(report.fallback_reason.is_some() || report.changes.is_empty());
                    assert_eq!(
                        lines.len(),
                        report.changes.len() + closing,
                        "{case}: {lines:#?}"
                    );
                    // Each change has its line: its pointer first, its rule's reason and id last.
                    let mut unmatched: Vec<&str> = lines[..report.changes.len()].to_vec();
                    for change in &report.changes {
                        let tail = format!(
                            "Why: {} ({})",
                            rules::reason(&change.rule).unwrap(),
                            change.rule
                        );
                        let head = format!("{}: ", show_pointer(&change.pointer));
                        let at = unmatched
                            .iter()
                            .position(|l| l.starts_with(&head) && l.ends_with(&tail))
                            .unwrap_or_else(|| {
                                panic!("{case}: no line for {change:?} in {lines:#?}")
                            });
                        unmatched.remove(at);
                    }
                    // A node's own changes come before the changes inside it.
                    let shown: Vec<&str> = lines[..report.changes.len()]
                        .iter()
                        .map(|l| {
                            let pointer = l.split(": ").next().unwrap();
                            if pointer == "(root)" { "" } else { pointer }
                        })
                        .collect();
                    for (i, outer) in shown.iter().enumerate() {
                        for inner in &shown[..i] {
                            assert!(
                                !encloses(outer, inner),
                                "{case}: {inner} before {outer}: {shown:#?}"
                            );
                        }
                    }
                    explained += 1;
                    sentences += report.changes.len();
                }
            }
        }
    }
    assert!(explained > 0 && sentences > 0);
    eprintln!(
        "explain over the MCP corpus: {explained} explanations, {sentences} change sentences"
    );
}
