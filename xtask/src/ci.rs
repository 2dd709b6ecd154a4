//! The full gate (`cargo xtask ci`): formatting, lints, tests, layers, tidy and the release checks, in that order.

use std::path::Path;

use crate::metadata;
use crate::{layers, release, tidy};

/// One cargo command that CI runs.
struct Step {
    /// The arguments after `cargo`.
    args: &'static [&'static str],
    /// Extra environment variables for the command.
    env: &'static [(&'static str, &'static str)],
}

/// The cargo commands, in the order CI runs them.
const STEPS: &[Step] = &[
    Step {
        args: &["fmt", "--all", "--", "--check"],
        env: &[],
    },
    Step {
        args: &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
        env: &[],
    },
    Step {
        args: &["test", "--workspace"],
        env: &[],
    },
];

/// Runs every step in the workspace at `root` and returns the exit code of the first failure, or 0.
pub(crate) fn run(root: &Path) -> Result<u8, String> {
    for step in STEPS {
        let line = step
            .env
            .iter()
            .map(|(key, value)| format!("{key}='{value}' "))
            .chain([format!("cargo {}", step.args.join(" "))])
            .collect::<String>();
        println!("ci: {line}");
        let status = metadata::cargo()
            .args(step.args)
            .envs(step.env.iter().copied())
            .current_dir(root)
            .status()
            .map_err(|e| format!("cannot run cargo {}: {e}", step.args.join(" ")))?;
        if !status.success() {
            eprintln!("ci: `{line}` failed ({status})");
            // A process killed by a signal has no exit code; report it as a plain failure.
            return Ok(status
                .code()
                .and_then(|code| u8::try_from(code).ok())
                .filter(|code| *code != 0)
                .unwrap_or(1));
        }
    }
    println!("ci: cargo xtask layers");
    if !layers::run(root)? {
        return Ok(1);
    }
    println!("ci: cargo xtask tidy");
    if !tidy::run(root)? {
        return Ok(1);
    }
    println!("ci: cargo xtask release");
    let code = release::run(root)?;
    if code != 0 {
        return Ok(code);
    }
    println!("ci: every gate passed");
    Ok(0)
}
