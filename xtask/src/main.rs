//! Maintainer verbs for the llmshim workspace, run as `cargo xtask <verb>`.

// xtask is a command-line tool: printing to stdout and stderr is how it reports.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod batch;
mod bench;
mod bless;
mod ci;
mod citations;
mod fuzz;
mod host;
mod instructions;
mod layers;
mod metadata;
mod props;
mod ranks;
mod record;
mod release;
mod reliability;
mod rules;
mod speed_targets;
mod suite;
mod targets;
mod test;
mod tidy;

use std::env;
use std::process::ExitCode;

/// The usage message, printed for `help` and for an unknown or missing verb.
const USAGE: &str = "\
usage: cargo xtask <verb>

verbs:
  batch    time the release `llmshim batch` over the MCP corpus for every target (--runs N, 5 by
           default) and write the batch section of RELIABILITY.md with its README quote
  bench    run the criterion benches and write the README's results table (with instruction
           counts of the corpus rows under callgrind when valgrind is installed)
           (criterion arguments such as --save-baseline NAME or --baseline NAME follow)
  bless    run the tests with UPDATE_EXPECT=1, rewriting the blessable cases in */tests/cases/
           (never the hand-written tests/golden/), then list the case files that changed
  ci       run every gate in order: fmt check, clippy, tests, layers, tidy, release
  fuzz     run every fuzz target of fuzz/ (cargo-fuzz and nightly needed) for --seconds N each
           (300 by default; target names pick some) and write the fuzz section of RELIABILITY.md with its README quote
  layers   check crate dependencies against the rank table in ARCHITECTURE.md
  release  check the declared rust-version against this toolchain and the licence files, then
           package every publishable crate (verified in rank order) and build the docs with -D warnings
  props    run the property tests with --cases N (10,000 by default) on a fresh seed (or --seed S)
           and write the props section of RELIABILITY.md with its README quote
  reliability  run each adversarial input in its own process and write its section of RELIABILITY.md
  rules    regenerate RULES.md, the rule reference, from llmshim/src/rules/
  suite    run the conformance and corpus tests with test data required and print their
           pass and expected-failure counts per draft and per target
  test     run every test: cargo test --workspace, then the Python package's pytest suite
           (builds it with maturin in target/python-venv; pinned maturin and pytest from PyPI)
  tidy     check module headers, manifests, test attributes, trailing whitespace, the target table
           and that every citation in a comment resolves in RULES.md
  help     print this message";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    // The verbs that take arguments.
    let with_arguments: Option<VerbWithArguments> = match args.first().map(String::as_str) {
        Some("batch") => Some(batch::run),
        Some("bench") => Some(bench::run),
        Some("fuzz") => Some(fuzz::run),
        Some("props") => Some(props::run),
        _ => None,
    };
    if let Some(verb) = with_arguments {
        let outcome = metadata::workspace_root().and_then(|root| verb(&root, &args[1..]));
        return match outcome {
            Ok(code) => ExitCode::from(code),
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::from(1)
            }
        };
    }
    let [verb] = args.as_slice() else {
        if args.is_empty() {
            eprintln!("error: no verb given\n\n{USAGE}");
        } else {
            eprintln!(
                "error: expected one verb, got {}\n\n{USAGE}",
                args.join(" ")
            );
        }
        return ExitCode::from(2);
    };
    let outcome = match verb.as_str() {
        "bless" => metadata::workspace_root().and_then(|root| bless::run(&root)),
        "ci" => metadata::workspace_root().and_then(|root| ci::run(&root)),
        "layers" => metadata::workspace_root()
            .and_then(|root| layers::run(&root))
            .map(exit_code),
        "release" => metadata::workspace_root().and_then(|root| release::run(&root)),
        "reliability" => metadata::workspace_root().and_then(|root| reliability::run(&root)),
        "rules" => metadata::workspace_root().and_then(|root| rules::run(&root)),
        "suite" => metadata::workspace_root().and_then(|root| suite::run(&root)),
        "test" => metadata::workspace_root().and_then(|root| test::run(&root)),
        "tidy" => metadata::workspace_root()
            .and_then(|root| tidy::run(&root))
            .map(exit_code),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(0)
        }
        other => {
            eprintln!("error: unknown verb `{other}`\n\n{USAGE}");
            Ok(2)
        }
    };
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}

/// A verb that takes arguments: the workspace root and the arguments after the verb, giving an exit code.
type VerbWithArguments = fn(&std::path::Path, &[String]) -> Result<u8, String>;

/// Turns a check's verdict into a process exit code.
fn exit_code(passed: bool) -> u8 {
    u8::from(!passed)
}
