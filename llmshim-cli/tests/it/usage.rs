//! Usage errors, unreadable and invalid input: exit status 2 with a message on standard error and nothing on
//! standard output; help and version: exit status 0.

use crate::support::{example, llmshim, run};

fn assert_error(args: &[&str], stdin: &str, needle: &str) {
    let out = llmshim(args, stdin, &[]);
    assert_eq!(out.code, 2, "{args:?}: {out:?}");
    assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
    assert!(out.stderr.contains(needle), "{args:?}: {}", out.stderr);
}

#[test]
fn usage_errors_exit_with_two() {
    assert_error(&[], "", "Usage");
    assert_error(&["frobnicate"], "", "unrecognized subcommand");
    assert_error(&["normalize"], "{}", "--target");
    assert_error(
        &["normalize", "--target", "gemini"],
        "{}",
        "unknown target \"gemini\"",
    );
    assert_error(
        &["normalize", "--target", "chat", "--nullable", "sometimes"],
        "{}",
        "unknown nullable policy",
    );
    assert_error(
        &["normalize", "--target", "chat", "--rewrite-one-of", "yes"],
        "{}",
        "--rewrite-one-of",
    );
    assert_error(
        &["normalize", "--target", "chat", "--max-depth", "-1"],
        "{}",
        "'-1'",
    );
    assert_error(
        &["normalize", "--target", "chat", "--colour"],
        "{}",
        "--colour",
    );
    assert_error(&["check", "--target", "gemini"], "{}", "unknown target");
    assert_error(&["mcp-tool", "--target", "chat"], "{}", "--target");
    assert_error(&["validate"], "{}", "--schema");
    assert_error(
        &["validate", "--schema", "-"],
        "{}",
        "standard input can be read only once",
    );
    assert_error(&["batch", "a.jsonl", "b.jsonl"], "", "unexpected argument");
}

#[test]
fn invalid_or_unreadable_input_exits_with_two() {
    for command in ["normalize", "tools", "output", "explain"] {
        assert_error(
            &[command, "--target", "chat"],
            "{\"type\": ",
            "<stdin> is not valid JSON",
        );
        assert_error(
            &[command, "--target", "chat"],
            "",
            "<stdin> is not valid JSON",
        );
        assert_error(
            &[command, "--target", "chat", "/nonexistent/schema.json"],
            "",
            "cannot read /nonexistent/schema.json",
        );
    }
    assert_error(&["mcp-tool"], "{} {}", "is not valid JSON");
    assert_error(&["check"], "nope", "is not valid JSON");
    assert_error(
        &["batch", "/nonexistent/lines.jsonl"],
        "",
        "cannot read /nonexistent/lines.jsonl",
    );
    assert_error(
        &["validate", "--schema", "/nonexistent/schema.json"],
        "{}",
        "cannot read",
    );
    assert_error(
        &["validate", "--schema", &example("pydantic-order.json")],
        "[",
        "is not valid JSON",
    );
}

#[test]
fn help_and_version_exit_with_zero() {
    let help = run(&["--help"]);
    assert_eq!(help.code, 0);
    for command in [
        "normalize",
        "tools",
        "output",
        "mcp-tool",
        "explain",
        "check",
        "validate",
        "batch",
    ] {
        assert!(
            help.stdout.contains(command),
            "{command} missing from {}",
            help.stdout
        );
        let sub = run(&[command, "--help"]);
        assert_eq!(sub.code, 0, "{command}");
        assert!(
            sub.stdout.contains("Usage: llmshim"),
            "{command}: {}",
            sub.stdout
        );
    }
    let normalize = run(&["normalize", "--help"]).stdout;
    for flag in [
        "--target",
        "--strict",
        "--nullable",
        "--rewrite-one-of",
        "--strip-lookarounds",
        "--bypass",
        "--max-depth",
        "--max-nodes",
        "--max-literal-bytes",
        "--diagnostics",
        "--no-cache",
        "--pretty",
    ] {
        assert!(normalize.contains(flag), "{flag} missing from {normalize}");
    }
    let version = run(&["--version"]);
    assert_eq!(version.code, 0);
    assert!(version.stdout.starts_with("llmshim "), "{}", version.stdout);
}
