//! The release gate (`cargo xtask release`): the declared toolchain, the licence files, packaging and documentation.
//!
//! Every publishable member must package in rank order (cargo verifies each against the ones packaged before it), its
//! documentation must build without a warning, and the `rust-version` the manifests declare must be the toolchain
//! this gate runs with, so that the field states a version the project actually builds and tests with.

use std::path::Path;
use std::process::Command;

use crate::metadata::{self, Package};

/// Extra environment variables of one cargo command.
type Env = &'static [(&'static str, &'static str)];

/// The licence files every publishable member carries (links to the ones at the repository root).
const LICENCE_FILES: &[&str] = &["LICENSE-MIT", "LICENSE-APACHE"];

/// Runs every release check in the workspace at `root` and returns the exit code of the first failure, or 0.
pub(crate) fn run(root: &Path) -> Result<u8, String> {
    let packages = metadata::load(root)?;
    let rustc = rustc_version(root)?;
    let problems = problems(root, &packages, &rustc);
    if !problems.is_empty() {
        for problem in &problems {
            eprintln!("release: {problem}");
        }
        return Ok(1);
    }
    println!(
        "release: every member declares rust-version {rustc}, the toolchain of this run; licence files present"
    );

    // Every crate keeps version 0.1.0 between releases, and cargo caches what it builds from its temporary registry by
    // name, version and registry path; a target folder of this run's own gives that registry a new path, so the
    // verification never reuses a copy packaged from older sources. The folder is removed afterwards.
    let scratch = root
        .join("target")
        .join(format!("release-gate-{}", std::process::id()));
    let extracted_before = local_registry_copies();
    let mut package = vec![
        "package".to_owned(),
        "--workspace".to_owned(),
        "--allow-dirty".to_owned(),
        "--target-dir".to_owned(),
        scratch.to_string_lossy().into_owned(),
    ];
    for unpublished in packages.iter().filter(|p| !p.publish) {
        package.push("--exclude".to_owned());
        package.push(unpublished.name.clone());
    }
    let steps: [(Vec<String>, Env); 2] = [
        (package, &[]),
        (
            ["doc", "--workspace", "--no-deps"]
                .map(str::to_owned)
                .to_vec(),
            &[("RUSTDOCFLAGS", "-D warnings")],
        ),
    ];
    for (args, env) in steps {
        println!("release: cargo {}", args.join(" "));
        let status = metadata::cargo()
            .args(&args)
            .envs(env.iter().copied())
            .current_dir(root)
            .status()
            .map_err(|e| format!("cannot run cargo {}: {e}", args.join(" ")))?;
        if !status.success() {
            eprintln!("release: `cargo {}` failed ({status})", args.join(" "));
            let _ = std::fs::remove_dir_all(&scratch);
            return Ok(1);
        }
    }
    std::fs::remove_dir_all(&scratch)
        .map_err(|e| format!("cannot remove {}: {e}", scratch.display()))?;
    // Cargo also unpacked this run's temporary registry under its home; those copies serve no later run.
    for copy in local_registry_copies().difference(&extracted_before) {
        let _ = std::fs::remove_dir_all(copy);
    }
    println!(
        "release: every publishable crate packages and the documentation builds without warnings"
    );
    Ok(0)
}

/// The folders under `$CARGO_HOME/registry/src` where cargo unpacks local registries (their names start with `-`).
fn local_registry_copies() -> std::collections::BTreeSet<std::path::PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cargo")));
    let Some(src) = home.map(|h| h.join("registry").join("src")) else {
        return std::collections::BTreeSet::new();
    };
    std::fs::read_dir(src)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('-'))
        })
        .collect()
}

/// Returns the `major.minor` of the `rustc` that cargo uses in `root`.
fn rustc_version(root: &Path) -> Result<String, String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let output = Command::new(rustc)
        .arg("--version")
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run rustc --version: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    major_minor(&text).ok_or_else(|| format!("cannot read a version from `{}`", text.trim()))
}

/// Reads `1.95` out of `rustc 1.95.0 (59807616e 2026-04-14)`.
fn major_minor(version_line: &str) -> Option<String> {
    let version = version_line.split_whitespace().nth(1)?;
    let mut parts = version.split(['.', '-']);
    let major = parts.next()?;
    let minor = parts.next()?;
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (numeric(major) && numeric(minor)).then(|| format!("{major}.{minor}"))
}

/// Lists what keeps the workspace from a release: a `rust-version` other than the toolchain's, or a publishable
/// member without its licence files.
fn problems(root: &Path, packages: &[Package], rustc: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for package in packages {
        let declared = package
            .rust_version
            .as_deref()
            .map(|v| major_minor(&format!("rustc {v}")));
        if declared.flatten().as_deref() != Some(rustc) {
            problems.push(format!(
                "{} declares rust-version {} but this run builds with rustc {rustc}; \
                 declare the toolchain CI builds and tests with",
                package.name,
                package.rust_version.as_deref().unwrap_or("(none)")
            ));
        }
        if !package.publish {
            continue;
        }
        let dir = package.manifest_path.parent().unwrap_or(root);
        for file in LICENCE_FILES {
            if !dir.join(file).is_file() {
                problems.push(format!(
                    "{} is publishable but has no {file} in its folder (link it to the one at the root)",
                    package.name
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use crate::metadata;
    use crate::release::{major_minor, problems};

    #[test]
    fn versions_are_read_as_major_and_minor() {
        assert_eq!(
            major_minor("rustc 1.95.0 (59807616e 2026-04-14)").as_deref(),
            Some("1.95")
        );
        assert_eq!(
            major_minor("rustc 1.97.0-nightly (e50aa6fba 2026-05-19)").as_deref(),
            Some("1.97")
        );
        assert_eq!(major_minor("rustc 1.88").as_deref(), Some("1.88"));
        assert_eq!(major_minor("rustc"), None);
        assert_eq!(major_minor("rustc x.y.z"), None);
    }

    #[test]
    fn the_workspace_declares_one_toolchain_and_ships_its_licences() -> Result<(), String> {
        let root = metadata::workspace_root()?;
        let packages = metadata::load(&root)?;
        let declared = packages
            .first()
            .and_then(|p| p.rust_version.clone())
            .ok_or("the first member declares no rust-version")?;
        let version =
            major_minor(&format!("rustc {declared}")).ok_or("an unreadable rust-version")?;
        assert_eq!(problems(&root, &packages, &version), Vec::<String>::new());
        // A different toolchain is reported once per member.
        assert_eq!(problems(&root, &packages, "0.1").len(), packages.len());
        // The libraries and the command line are published; the test kit, xtask, the example and the Python
        // bindings (published to PyPI as a wheel) are not.
        let mut unpublished: Vec<&str> = packages
            .iter()
            .filter(|p| !p.publish)
            .map(|p| p.name.as_str())
            .collect();
        unpublished.sort_unstable();
        assert_eq!(
            unpublished,
            [
                "acme-llmshim-target",
                "llmshim-benches",
                "llmshim-py",
                "xtask"
            ]
        );
        Ok(())
    }
}
