//! `cargo xtask rules`: regenerates `RULES.md`, the rule reference, from the data in `llmshim/src/rules/`.
//!
//! The facade renders the reference (`llmshim::rules::markdown`), and its test `rules::the_reference_file_is_current`
//! fails while `RULES.md` differs; with `UPDATE_EXPECT=1` that test writes the file instead. This verb runs that one
//! test so, then prints `git status --short RULES.md`, and `cargo xtask tidy` reads the file to resolve citations.

use std::path::Path;

use crate::metadata;

/// The arguments after `cargo` for the run that writes the file.
const TEST_ARGS: [&str; 8] = [
    "test",
    "-p",
    "llmshim-schema",
    "--test",
    "it",
    "rules::the_reference_file_is_current",
    "--",
    "--exact",
];

/// Writes `RULES.md` in the workspace at `root` and returns the test run's exit code.
pub(crate) fn run(root: &Path) -> Result<u8, String> {
    println!("rules: UPDATE_EXPECT=1 cargo {}", TEST_ARGS.join(" "));
    let status = metadata::cargo()
        .current_dir(root)
        .env("UPDATE_EXPECT", "1")
        .args(TEST_ARGS)
        .status()
        .map_err(|e| format!("cannot run cargo test: {e}"))?;
    if !status.success() {
        eprintln!("rules: the test run failed ({status})");
        return Ok(1);
    }
    let output = std::process::Command::new("git")
        .current_dir(root)
        .args(["status", "--short", "--", crate::citations::REFERENCE])
        .output()
        .map_err(|e| format!("cannot run git status: {e}"))?;
    print!("{}", String::from_utf8_lossy(&output.stdout));
    Ok(0)
}
