//! `cargo xtask test`: the README's test command, every test of the project in one run.
//!
//! It runs `cargo test --workspace`, then the Python package's pytest suite: it creates a virtual environment under
//! `target/python-venv` (once), installs the pinned maturin and pytest into it from the Python package index, builds and installs the
//! package with `maturin develop`, and runs `pytest llmshim-py/tests`. The Python interpreter is `$PYTHON`, or
//! `python3`. Any failing step ends the run with its status.

use std::env;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::metadata;

/// The build tool and the test runner, pinned so that every run installs the same ones.
pub(crate) const PYTHON_TOOLS: [&str; 2] = ["maturin==1.16.0", "pytest==9.2.0"];

/// Where the virtual environment lives, relative to the workspace root.
const VENV: &str = "target/python-venv";

/// Runs every test; returns the exit code of the first failing step, or 0.
pub(crate) fn run(root: &Path) -> Result<u8, String> {
    println!("test: cargo test --workspace");
    let status = metadata::cargo()
        .args(["test", "--workspace"])
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo test: {e}"))?;
    if !status.success() {
        return Ok(code(status));
    }
    python_suite(root)
}

/// Builds the Python package into its virtual environment and runs its pytest suite.
fn python_suite(root: &Path) -> Result<u8, String> {
    let venv = root.join(VENV);
    let python = venv.join("bin").join("python");
    if !python.exists() {
        let interpreter = env::var_os("PYTHON").unwrap_or_else(|| OsString::from("python3"));
        let step = format!("{} -m venv {VENV}", interpreter.to_string_lossy());
        let mut command = Command::new(&interpreter);
        command.args(["-m", "venv"]).arg(&venv);
        if let Some(failed) = step_status(&step, command, root)? {
            return Ok(failed);
        }
    }
    let mut install = Command::new(&python);
    install
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(PYTHON_TOOLS);
    let step = format!("pip install {}", PYTHON_TOOLS.join(" "));
    if let Some(failed) = step_status(&step, install, root)? {
        return Ok(failed);
    }
    let mut develop = in_venv(&venv, Command::new(venv.join("bin").join("maturin")));
    develop.args(["develop", "--quiet", "-m", "llmshim-py/Cargo.toml"]);
    if let Some(failed) = step_status("maturin develop -m llmshim-py/Cargo.toml", develop, root)? {
        return Ok(failed);
    }
    let mut pytest = in_venv(&venv, Command::new(&python));
    // No cache folder in the source tree; `-q` keeps one line per file and pytest's closing line.
    pytest.args([
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "llmshim-py/tests",
    ]);
    Ok(step_status("pytest llmshim-py/tests", pytest, root)?.unwrap_or(0))
}

/// `command` with the environment variables that activate the virtual environment `venv`.
fn in_venv(venv: &Path, mut command: Command) -> Command {
    let mut path: Vec<PathBuf> = vec![venv.join("bin")];
    if let Some(current) = env::var_os("PATH") {
        path.extend(env::split_paths(&current));
    }
    command.env("VIRTUAL_ENV", venv);
    if let Ok(joined) = env::join_paths(path) {
        command.env("PATH", joined);
    }
    command
}

/// Runs one step in `root`; `Some(exit code)` when it failed.
fn step_status(step: &str, mut command: Command, root: &Path) -> Result<Option<u8>, String> {
    println!("test: {step}");
    let status = command
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run `{step}`: {e}"))?;
    if status.success() {
        Ok(None)
    } else {
        eprintln!("test: `{step}` failed ({status})");
        Ok(Some(code(status)))
    }
}

/// A failed status as an exit code; a process killed by a signal has none and counts as 1.
fn code(status: std::process::ExitStatus) -> u8 {
    status
        .code()
        .and_then(|code| u8::try_from(code).ok())
        .filter(|code| *code != 0)
        .unwrap_or(1)
}
