//! Golden texts of `explain` and `check` on the bundled examples, as a terminal and as a pipe shows them
//! (`tests/cases/*.json`, blessed with `cargo xtask bless`).
//!
//! A case runs `llmshim <api> [--target <target>] [--strict] <options.args>…` in this process, with standard output
//! connected to `options.console` (`"pipe"`, the default; `"terminal"`, colour on; `"terminal-no-color"`). Its
//! `input` is `{"file": <path from the repository root>}`, passed as the FILE argument, or with a `"pointer"` the
//! value at that JSON Pointer of the file, passed on standard input. `expected` is the standard output, one string
//! per line; `report` holds the exit status and the standard error lines.

use std::path::{Path, PathBuf};

use llmshim_benches::golden::{self, Case, Outcome};
use llmshim_cli::console::Console;
use serde_json::{Value, json};

use crate::support::in_process;

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The command line, standard input and console of `case`.
fn command(case: &Case) -> Result<(Vec<String>, String, Console), String> {
    let mut args = vec![case.api.clone()];
    if let Some(target) = &case.target {
        args.extend(["--target".to_owned(), target.clone()]);
    }
    if case.strict {
        args.push("--strict".to_owned());
    }
    for (name, value) in &case.options {
        match (name.as_str(), value) {
            ("args", Value::Array(extra)) => {
                for arg in extra {
                    args.push(arg.as_str().ok_or("options.args holds strings")?.to_owned());
                }
            }
            ("console", Value::String(_)) => {}
            _ => return Err(format!("unknown option {name}: {value}")),
        }
    }
    let console = match case.options.get("console").and_then(Value::as_str) {
        None | Some("pipe") => Console::Pipe,
        Some("terminal") => Console::Terminal { color: true },
        Some("terminal-no-color") => Console::Terminal { color: false },
        Some(other) => return Err(format!("unknown console {other:?}")),
    };
    let file = case.input["file"]
        .as_str()
        .ok_or("input.file names an example")?;
    let path = root().join(file);
    let stdin = match case.input.get("pointer") {
        None => {
            args.push(path.to_string_lossy().into_owned());
            String::new()
        }
        Some(pointer) => {
            let pointer = pointer.as_str().ok_or("input.pointer is a string")?;
            let document = llmshim_benches::testdata::read_json(&path)?;
            let value = document
                .pointer(pointer)
                .ok_or_else(|| format!("{file} has nothing at {pointer:?}"))?;
            serde_json::to_string(value).map_err(|e| e.to_string())?
        }
    };
    Ok((args, stdin, console))
}

/// Runs one case: its standard output as lines, its exit status and standard error lines as the report.
fn run_case(case: &Case) -> Outcome {
    let (args, stdin, console) = match command(case) {
        Ok(parts) => parts,
        Err(message) => return Outcome::new(json!({ "case error": message })),
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = in_process(&args, &stdin, console);
    Outcome::new(json!(out.stdout.lines().collect::<Vec<_>>()))
        .with_report(json!({"status": out.code, "stderr": out.stderr.lines().collect::<Vec<_>>()}))
}

#[test]
fn explain_and_check_texts_on_the_bundled_examples() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let cases = golden::load(&dir).unwrap();
    // Both forms of both subcommands are covered.
    for (api, console) in [
        ("explain", "pipe"),
        ("explain", "terminal"),
        ("check", "pipe"),
        ("check", "terminal"),
    ] {
        assert!(
            cases.iter().any(|c| c.api == api
                && c.options
                    .get("console")
                    .and_then(Value::as_str)
                    .unwrap_or("pipe")
                    == console),
            "no {api} case on a {console}"
        );
    }
    let checked = golden::check_or_bless(&dir, run_case).unwrap_or_else(|diff| panic!("{diff}"));
    assert_eq!(checked, cases.len());
}

#[test]
fn the_readme_excerpt_of_the_main_job_is_in_its_golden_text_in_order() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("<!-- explain:start -->\n```text\n")
        .expect("the README marks its explain excerpt");
    let end = readme
        .find("```\n<!-- explain:end -->")
        .expect("the README ends its explain excerpt");
    let excerpt = &readme[start + "<!-- explain:start -->\n```text\n".len()..end];
    let cases = golden::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases")).unwrap();
    let case = cases
        .iter()
        .find(|c| c.name == "explain-google-pydantic-order")
        .expect("the README's main job is a golden case");
    // The case runs the README's command: explain for google on the example file, as a pipe.
    assert_eq!(
        (case.api.as_str(), case.target.as_deref(), &case.input),
        (
            "explain",
            Some("google"),
            &json!({"file": "examples/pydantic-order.json"})
        )
    );
    let text: Vec<&str> = case
        .expected
        .as_ref()
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let mut next = 0;
    let mut shown = 0;
    for line in excerpt.lines().filter(|l| *l != "…") {
        let at = text[next..]
            .iter()
            .position(|l| *l == line)
            .unwrap_or_else(|| {
                panic!("README line {line:?} is not in the golden text after line {next}")
            });
        next += at + 1;
        shown += 1;
    }
    assert!(shown > 10, "the excerpt shows {shown} lines");
}
