//! `cargo xtask bless`: runs the workspace's tests with `UPDATE_EXPECT=1` and lists the case files they rewrote.
//!
//! The test kit's `golden::check_or_bless` reads `UPDATE_EXPECT`: in a folder named `cases` (`<crate>/tests/cases/`)
//! it rewrites the `expected` member, and each member a case's `report` lists, of every case whose outcome differs,
//! pretty-printed with keys in their existing order. Hand-written cases (`<crate>/tests/golden/`, or any folder not
//! named `cases`) are never rewritten: a difference there still fails its test, blessing or not, and so does a case
//! the kit cannot bless (a panic, or a listed `report` with no report in the outcome). Tests that call
//! `golden::check` instead of `golden::check_or_bless` ignore `UPDATE_EXPECT` altogether.
//!
//! Afterwards this verb prints `git status --short` for the files under `*/tests/cases/`, so the maintainer sees what
//! was rewritten and reviews that diff before committing, and exits with the status of the test run.

use std::path::Path;
use std::process::Command;

use crate::metadata;

/// The environment variable the test kit reads to bless, and the value this verb gives it.
const BLESS_ENV: (&str, &str) = ("UPDATE_EXPECT", "1");

/// The arguments after `cargo` for the blessing test run.
const TEST_ARGS: [&str; 2] = ["test", "--workspace"];

/// The git arguments that list changed and new files under `<crate>/tests/cases/`.
///
/// The `glob` pathspec magic keeps `*` inside one path component, so only a member's own `tests/cases/` folder
/// matches; `--untracked-files=all` lists a new case file by name rather than its folder.
const STATUS_ARGS: [&str; 5] = [
    "status",
    "--short",
    "--untracked-files=all",
    "--",
    ":(glob)*/tests/cases/**",
];

/// Runs the blessing test run in the workspace at `root`, prints what changed under `tests/cases/` and returns the
/// test run's exit code.
pub(crate) fn run(root: &Path) -> Result<u8, String> {
    let (key, value) = BLESS_ENV;
    println!("bless: {key}={value} cargo {}", TEST_ARGS.join(" "));
    let status = test_command(root)
        .status()
        .map_err(|e| format!("cannot run cargo {}: {e}", TEST_ARGS.join(" ")))?;
    let code = if status.success() {
        0
    } else {
        eprintln!(
            "bless: the test run failed ({status}); files it blessed before failing are listed below"
        );
        // A process killed by a signal has no exit code; report it as a plain failure.
        status
            .code()
            .and_then(|code| u8::try_from(code).ok())
            .filter(|code| *code != 0)
            .unwrap_or(1)
    };
    println!("bless: git {}", STATUS_ARGS.join(" "));
    let output = status_command(root)
        .output()
        .map_err(|e| format!("cannot run git status: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "git status failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let listing = String::from_utf8_lossy(&output.stdout);
    let changed: Vec<&str> = listing.lines().filter(|l| !l.trim().is_empty()).collect();
    if changed.is_empty() {
        println!("bless: no file under */tests/cases/ differs from the last commit");
    } else {
        for line in &changed {
            println!("{line}");
        }
        println!(
            "bless: {} case files differ from the last commit; review the diff before committing",
            changed.len()
        );
    }
    Ok(code)
}

/// The blessing test run: `cargo test --workspace` with `UPDATE_EXPECT=1`, in `root`.
fn test_command(root: &Path) -> Command {
    let mut command = metadata::cargo();
    command
        .args(TEST_ARGS)
        .env(BLESS_ENV.0, BLESS_ENV.1)
        .current_dir(root);
    command
}

/// The listing of changed case files: `git status --short` limited to `*/tests/cases/`, in `root`.
fn status_command(root: &Path) -> Command {
    let mut command = Command::new("git");
    command.args(STATUS_ARGS).current_dir(root);
    command
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;
    use std::path::Path;
    use std::process::Command;

    use crate::bless::{status_command, test_command};

    fn args(command: &Command) -> Vec<&str> {
        command.get_args().filter_map(OsStr::to_str).collect()
    }

    #[test]
    fn the_test_run_is_the_whole_workspace_with_update_expect() {
        let root = Path::new("/ws");
        let command = test_command(root);
        assert_eq!(args(&command), ["test", "--workspace"]);
        let envs: Vec<(&OsStr, Option<&OsStr>)> = command.get_envs().collect();
        assert_eq!(envs, [(OsStr::new("UPDATE_EXPECT"), Some(OsStr::new("1")))]);
        assert_eq!(command.get_current_dir(), Some(root));
    }

    #[test]
    fn the_listing_is_git_status_limited_to_case_folders() {
        let root = Path::new("/ws");
        let command = status_command(root);
        assert_eq!(command.get_program(), "git");
        assert_eq!(
            args(&command),
            [
                "status",
                "--short",
                "--untracked-files=all",
                "--",
                ":(glob)*/tests/cases/**"
            ]
        );
        assert_eq!(command.get_current_dir(), Some(root));
    }
}
