//! The workspace as `cargo metadata` describes it: where its root is and which packages it holds.

use std::env;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The kind of a dependency edge, as a manifest declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum DepKind {
    /// A `[dependencies]` entry.
    Normal,
    /// A `[build-dependencies]` entry.
    Build,
    /// A `[dev-dependencies]` entry.
    Dev,
}

impl fmt::Display for DepKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Normal => "normal",
            Self::Build => "build",
            Self::Dev => "dev",
        })
    }
}

/// One dependency of a package, named by the package it refers to (not by any rename).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Dependency {
    /// The package name of the dependency.
    pub(crate) name: String,
    /// Whether it is a normal, build or dev dependency.
    pub(crate) kind: DepKind,
}

/// One workspace member and its declared dependencies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Package {
    /// The package name.
    pub(crate) name: String,
    /// The absolute path of the package's `Cargo.toml`.
    pub(crate) manifest_path: PathBuf,
    /// Every dependency the manifest declares, in manifest order.
    pub(crate) dependencies: Vec<Dependency>,
    /// Whether the package may be published to crates.io (`publish` absent, or a list naming it).
    pub(crate) publish: bool,
    /// The declared minimum Rust version, when there is one.
    pub(crate) rust_version: Option<String>,
}

/// Returns the workspace root, which is the parent of the xtask package's folder.
pub(crate) fn workspace_root() -> Result<PathBuf, String> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .ok_or_else(|| "the xtask folder has no parent folder".to_owned())
}

/// Returns a command that runs the cargo named by `$CARGO`, or `cargo` when it is unset.
pub(crate) fn cargo() -> Command {
    Command::new(env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo")))
}

/// Runs `cargo metadata --format-version 1 --no-deps` in `root` and returns the workspace members.
pub(crate) fn load(root: &Path) -> Result<Vec<Package>, String> {
    let output = cargo()
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let text = String::from_utf8(output.stdout)
        .map_err(|e| format!("cargo metadata printed invalid UTF-8: {e}"))?;
    parse(&text)
}

/// Parses the JSON printed by `cargo metadata --format-version 1 --no-deps`.
pub(crate) fn parse(json: &str) -> Result<Vec<Package>, String> {
    let value: Value =
        serde_json::from_str(json).map_err(|e| format!("cargo metadata is not JSON: {e}"))?;
    let packages = value
        .get("packages")
        .and_then(Value::as_array)
        .ok_or("cargo metadata has no `packages` array")?;
    packages.iter().map(parse_package).collect()
}

/// Reads one entry of the `packages` array.
fn parse_package(package: &Value) -> Result<Package, String> {
    let name = string_field(package, "name", "package")?;
    let manifest_path = PathBuf::from(string_field(package, "manifest_path", &name)?);
    let dependencies = package
        .get("dependencies")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("package {name} has no `dependencies` array"))?
        .iter()
        .map(|dep| parse_dependency(dep, &name))
        .collect::<Result<_, _>>()?;
    // Cargo prints `null` for "any registry" and a list of registry names otherwise; `publish = false` is `[]`.
    let publish = match package.get("publish") {
        None | Some(Value::Null) => true,
        Some(Value::Array(registries)) => {
            registries.iter().any(|r| r.as_str() == Some("crates-io"))
        }
        Some(other) => {
            return Err(format!(
                "package {name} has an unknown `publish` value {other}"
            ));
        }
    };
    let rust_version = package
        .get("rust_version")
        .and_then(Value::as_str)
        .map(str::to_owned);
    Ok(Package {
        name,
        manifest_path,
        dependencies,
        publish,
        rust_version,
    })
}

/// Reads one entry of a package's `dependencies` array.
fn parse_dependency(dep: &Value, package: &str) -> Result<Dependency, String> {
    let name = string_field(dep, "name", package)?;
    let kind = match dep.get("kind") {
        None | Some(Value::Null) => DepKind::Normal,
        Some(Value::String(kind)) if kind == "build" => DepKind::Build,
        Some(Value::String(kind)) if kind == "dev" => DepKind::Dev,
        Some(other) => {
            return Err(format!(
                "package {package} has dependency {name} of unknown kind {other}"
            ));
        }
    };
    Ok(Dependency { name, kind })
}

/// Reads a string field of a JSON object, naming `owner` in the error.
fn string_field(value: &Value, field: &str, owner: &str) -> Result<String, String> {
    value
        .get(field)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("{owner} in cargo metadata has no string field `{field}`"))
}

#[cfg(test)]
mod tests {
    use crate::metadata::{DepKind, Dependency, parse};

    #[test]
    fn parses_packages_and_dependency_kinds() -> Result<(), String> {
        let json = r#"{
            "packages": [{
                "name": "demo",
                "manifest_path": "/ws/demo/Cargo.toml",
                "publish": [],
                "rust_version": "1.95",
                "dependencies": [
                    {"name": "serde_json", "kind": null, "rename": null},
                    {"name": "cc", "kind": "build"},
                    {"name": "proptest", "kind": "dev"},
                    {"name": "llmshim-core", "rename": "core2"}
                ]
            }],
            "workspace_root": "/ws"
        }"#;
        let packages = parse(json)?;
        assert_eq!(packages.len(), 1);
        let demo = &packages[0];
        assert_eq!(demo.name, "demo");
        assert_eq!(demo.manifest_path.to_str(), Some("/ws/demo/Cargo.toml"));
        assert!(!demo.publish);
        assert_eq!(demo.rust_version.as_deref(), Some("1.95"));
        let dep = |name: &str, kind| Dependency {
            name: name.to_owned(),
            kind,
        };
        assert_eq!(
            demo.dependencies,
            [
                dep("serde_json", DepKind::Normal),
                dep("cc", DepKind::Build),
                dep("proptest", DepKind::Dev),
                dep("llmshim-core", DepKind::Normal),
            ]
        );
        Ok(())
    }

    #[test]
    fn rejects_metadata_without_packages() {
        assert!(parse("{}").is_err());
        assert!(parse("not json").is_err());
        assert!(parse(r#"{"packages": [{"name": "x"}]}"#).is_err());
    }
}
