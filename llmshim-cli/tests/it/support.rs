//! Running the built `llmshim` binary with arguments, standard input and environment, and reading its answers.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use llmshim::schema::Target;
use llmshim_cli::console::Console;
use llmshim_cli::run::{Io, main_on};
use serde_json::Value;

/// The three flags every run starts without, so that the caller's shell cannot change the results.
const FLAGS: [&str; 3] = [
    "LLMSHIM_NO_SCHEMA_NORMALIZATION",
    "LLMSHIM_NO_STRICT",
    "LLMSHIM_NO_SCHEMA_CACHE",
];

/// What one run of the binary produced.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    /// The single JSON line of standard output.
    pub(crate) fn json(&self) -> Value {
        let lines: Vec<&str> = self.stdout.lines().collect();
        assert_eq!(
            lines.len(),
            1,
            "expected one output line, got {:?}",
            self.stdout
        );
        serde_json::from_str(lines[0]).unwrap()
    }

    /// Standard output as one JSON document (indented over several lines).
    pub(crate) fn json_pretty(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap()
    }

    /// Every line of standard output, parsed.
    pub(crate) fn json_lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

/// The path of a bundled example under `examples/`.
pub(crate) fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("examples")
        .join(name);
    path.to_string_lossy().into_owned()
}

/// Runs `llmshim args…` with `stdin` and the extra environment `env`, the three flags otherwise unset.
pub(crate) fn llmshim(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_llmshim"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for flag in FLAGS {
        command.env_remove(flag);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let text = stdin.to_owned();
    // A writer thread keeps a large input from deadlocking against a full output pipe.
    let writer = std::thread::spawn(move || {
        // The command may exit before reading everything (a usage error); that is not a test failure.
        let _ = pipe.write_all(text.as_bytes());
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Run {
        code: output.status.code().unwrap(),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// Runs `llmshim args…` in this process with `stdin`, standard output connected to `console` (a terminal or a pipe),
/// in the process environment; fails when one of the three flags is set there, since it would change the answers.
pub(crate) fn in_process(args: &[&str], stdin: &str, console: Console) -> Run {
    for flag in FLAGS {
        assert!(
            std::env::var_os(flag).is_none(),
            "unset {flag} to run the command-line tests"
        );
    }
    let mut command = vec!["llmshim"];
    command.extend_from_slice(args);
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let mut input = stdin.as_bytes();
    let mut io = Io {
        stdin: &mut input,
        stdout: &mut stdout,
        stderr: &mut stderr,
    };
    let code = main_on(command, &mut io, console);
    Run {
        code: i32::from(code),
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8(stderr).unwrap(),
    }
}

/// Runs `llmshim args…` with empty standard input and no extra environment.
pub(crate) fn run(args: &[&str]) -> Run {
    llmshim(args, "", &[])
}

/// The report JSON `R` with the four flags only.
#[allow(
    clippy::fn_params_excessive_bools,
    reason = "the report's four flags, in its order"
)]
pub(crate) fn flags(changed: bool, used_fallback: bool, strict: bool, bypassed: bool) -> Value {
    serde_json::json!({"changed": changed, "used_fallback": used_fallback, "strict": strict, "bypassed": bypassed, "narrowed": false})
}

/// The command-line names of every built-in target, in the library's order.
pub(crate) fn targets() -> Vec<&'static str> {
    Target::BUILTIN.iter().map(|target| target.name()).collect()
}

/// The member names of `value` in order; empty when it is not an object.
pub(crate) fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .map(|map| map.keys().map(String::as_str).collect())
        .unwrap_or_default()
}
