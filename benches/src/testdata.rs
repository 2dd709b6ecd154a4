//! Locating and reading the shared third-party test data, which is never copied into the repository.
//!
//! The data folder is named by the environment variable [`ENV_TESTDATA`] (`LLMSHIM_TESTDATA`);
//! a relative value is taken relative to the workspace root.
//! Without it the folder is `<workspace root>/../shared/testdata`.
//! The workspace root is the parent of this crate's manifest folder, fixed at compile time, so the
//! answer does not depend on the current directory of a test binary.
//!
//! A test that needs the data starts with [`require`], which returns `None` (after printing one
//! line) when the data is absent, so the test can return early and pass.
//! When [`ENV_REQUIRE`] (`LLMSHIM_REQUIRE_TESTDATA`) is `1` or `true`, as in CI, absence panics
//! instead.
//! A folder that is present but lacks a file of the manifest ([`MANIFEST`], every file of the
//! snapshot) always panics, naming the missing files, so no test passes on a partial corpus.
//!
//! The listing functions ([`mcp_tool_files`], [`suite_files`], [`schemastore_entries`] and so on)
//! return empty lists when the data is absent; call [`require`] first so that absence is visible.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

/// The environment variable naming the test data folder.
pub const ENV_TESTDATA: &str = "LLMSHIM_TESTDATA";

/// The environment variable that turns absent test data into a test failure (`1` or `true`).
pub const ENV_REQUIRE: &str = "LLMSHIM_REQUIRE_TESTDATA";

/// The base URI under which the JSON-Schema-Test-Suite expects its `remotes/` folder to be served.
pub const SUITE_REMOTE_BASE: &str = "http://localhost:1234/";

/// Returns the workspace root: the parent folder of this crate's manifest folder.
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// Returns the configured test data folder, whether or not it exists.
///
/// This is the value of `LLMSHIM_TESTDATA` (relative values joined to the workspace root), or
/// `<workspace root>/../shared/testdata` when the variable is unset or empty.
pub fn root_path() -> PathBuf {
    root_path_from(std::env::var_os(ENV_TESTDATA))
}

/// Returns the test data folder when it exists, and `None` otherwise.
pub fn root() -> Option<PathBuf> {
    let path = root_path();
    path.is_dir().then_some(path)
}

/// Returns whether `LLMSHIM_REQUIRE_TESTDATA` asks for absent test data to fail the test.
///
/// The values `1` and `true` (in any ASCII case) count as set; anything else does not.
pub fn is_required() -> bool {
    flag_is_set(std::env::var_os(ENV_REQUIRE))
}

/// Returns the test data folder, or `None` after printing one skip line naming `what`.
///
/// A test that needs the data calls this first and returns early on `None`, so it passes when the
/// data is absent:
///
/// ```
/// fn corpus_test() {
///     let Some(root) = llmshim_benches::testdata::require("corpus_test") else {
///         return;
///     };
///     assert!(root.is_dir());
/// }
/// # corpus_test();
/// ```
///
/// # Panics
///
/// Panics with a message naming the path and both variables when the data is absent and
/// `LLMSHIM_REQUIRE_TESTDATA` is `1` or `true`.
///
/// A folder that exists but lacks files the tests read fails whatever the variables say: the
/// tests would otherwise pass on a part of the corpus while the README quotes counts for all of
/// it. The message names the missing files (see [`check_complete`]).
pub fn require(what: &str) -> Option<PathBuf> {
    static COMPLETE: OnceLock<Result<usize, String>> = OnceLock::new();
    let root = require_at(what, root_path(), is_required())?;
    if let Err(missing) = COMPLETE.get_or_init(|| check_complete(&root, &manifest())) {
        panic!("{what}: {missing}");
    }
    Some(root)
}

/// The manifest of the shared test data, relative to the workspace root: every file of the
/// snapshot the tests read, one relative path a line, `#` starting a comment.
pub const MANIFEST: &str = "benches/testdata.manifest";

/// Returns the relative paths the manifest lists, in file order.
///
/// # Panics
///
/// Panics when the manifest, which is part of the repository, cannot be read.
pub fn manifest() -> Vec<String> {
    let path = workspace_root().join(MANIFEST);
    let text = fs::read_to_string(&path).unwrap_or_else(|err| {
        panic!(
            "cannot read the test-data manifest {}: {err}",
            path.display()
        )
    });
    parse_manifest(&text)
}

/// The paths of a manifest's text: one a line, blank lines and `#` comments skipped.
pub fn parse_manifest(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// Every file under `root`, as relative paths with `/` separators, sorted byte-wise.
pub fn files_under(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                found.push(relative_slash(root, &path));
            }
        }
    }
    found.sort();
    found
}

/// Checks that every file `manifest` lists exists under `root` and returns how many it lists.
///
/// # Errors
///
/// Returns a message that counts the missing files per top-level folder and names the first
/// ones of each, so a partial copy of the test data says what it lacks.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("llmshim-kit-doc-manifest-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("mcp-tools")).unwrap();
/// std::fs::write(dir.join("mcp-tools/a.json"), "{}").unwrap();
/// let listed = vec!["mcp-tools/a.json".to_owned(), "mcp-tools/b.json".to_owned()];
/// let err = llmshim_benches::testdata::check_complete(&dir, &listed).unwrap_err();
/// assert!(err.contains("1 of 2") && err.contains("mcp-tools/b.json"), "{err}");
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn check_complete(root: &Path, manifest: &[String]) -> Result<usize, String> {
    let mut missing: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut count = 0usize;
    for path in manifest {
        if !root.join(path).is_file() {
            let folder = path.split_once('/').map_or(path.as_str(), |(top, _)| top);
            missing.entry(folder).or_default().push(path);
            count += 1;
        }
    }
    if count == 0 {
        return Ok(manifest.len());
    }
    let mut text = format!(
        "TEST DATA INCOMPLETE: {} lacks {count} of {} files the tests read (listed in {MANIFEST}); a partial \
         corpus would make the corpus counts wrong, so this fails. Missing:",
        root.display(),
        manifest.len()
    );
    for (folder, paths) in &missing {
        let shown: Vec<&str> = paths.iter().take(12).copied().collect();
        let more = paths.len() - shown.len();
        let _ = write!(
            text,
            "\n  {folder}: {} missing: {}",
            paths.len(),
            shown.join(", ")
        );
        if more > 0 {
            let _ = write!(text, " and {more} more");
        }
    }
    Err(text)
}

/// Reads and parses one JSON file.
///
/// # Errors
///
/// Returns a message naming the file when it cannot be read or is not valid JSON.
pub fn read_json(path: impl AsRef<Path>) -> Result<Value, String> {
    let path = path.as_ref();
    let text =
        fs::read_to_string(path).map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    serde_json::from_str(&text).map_err(|err| format!("cannot parse {}: {err}", path.display()))
}

/// Returns the MCP tool corpus files `mcp-tools/*.json`, sorted by path.
///
/// Each file is an object with `source`, a `tools` array of raw MCP tools and, in some files, a
/// `variants` array that is not part of the corpus.
pub fn mcp_tool_files() -> Vec<PathBuf> {
    root().map_or_else(Vec::new, |root| {
        list_json(&root.join("mcp-tools"), false, None)
    })
}

/// Returns the JSON-Schema-Test-Suite folder `json-schema-test-suite` when the data is present.
pub fn suite_dir() -> Option<PathBuf> {
    root().map(|root| root.join("json-schema-test-suite"))
}

/// Returns the suite files `json-schema-test-suite/tests/<draft>/*.json`, sorted by path.
///
/// `draft` is a folder name such as `"draft2020-12"` or `"draft7"`.
/// With `names`, only the files whose name (`"ref.json"`) or stem (`"ref"`) is listed are returned;
/// a listed name without a file is simply absent from the result.
pub fn suite_files(draft: &str, names: Option<&[&str]>) -> Vec<PathBuf> {
    suite_listing(draft, names, false)
}

/// Returns the suite files of `draft` including `optional/` (recursively), sorted by path.
///
/// The format tests under `optional/format/` are excluded, since format assertion is not part of
/// the product.
/// With `names`, a file is kept when its name, its stem, or its path relative to the draft folder
/// (`"optional/bignum.json"`, or without the extension) is listed.
pub fn suite_files_with_optional(draft: &str, names: Option<&[&str]>) -> Vec<PathBuf> {
    suite_listing(draft, names, true)
}

/// Returns the name of a suite file relative to `json-schema-test-suite/tests/`, with `/`
/// separators, such as `"draft7/ref.json"` or `"draft7/optional/bignum.json"`.
///
/// Joined with the group and test descriptions it gives the full case name used by expected-failure
/// lists: `draft7/ref.json/<group>/<test>` (see [`case_name`]).
/// A path outside the suite's `tests/` folder yields its file name.
pub fn suite_name(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    let tests_at = parts
        .windows(2)
        .rposition(|pair| pair[0] == "json-schema-test-suite" && pair[1] == "tests");
    match tests_at {
        Some(at) => parts[at + 2..].join("/"),
        None => parts.last().cloned().unwrap_or_default(),
    }
}

/// Returns the full name of one suite case: `<file>/<group>/<test>`.
pub fn case_name(file: &str, group: &SuiteGroup, case: &SuiteCase) -> String {
    format!("{file}/{}/{}", group.description, case.description)
}

/// Returns every document of the suite's `remotes/` folder with the URI it is served under.
///
/// The file `remotes/a/b.json` maps to `http://localhost:1234/a/b.json`.
/// The list is sorted by URI and is empty when the test data is absent.
///
/// # Panics
///
/// Panics with the file name when a remote document cannot be read or parsed, since the test data
/// is then corrupt.
pub fn suite_remotes() -> Vec<(String, Value)> {
    let Some(dir) = suite_dir().map(|suite| suite.join("remotes")) else {
        return Vec::new();
    };
    let mut remotes: Vec<(String, Value)> = list_json(&dir, true, None)
        .into_iter()
        .map(|path| {
            let relative = relative_slash(&dir, &path);
            let value = read_json(&path).unwrap_or_else(|err| panic!("corrupt test data: {err}"));
            (format!("{SUITE_REMOTE_BASE}{relative}"), value)
        })
        .collect();
    remotes.sort_by(|a, b| a.0.cmp(&b.0));
    remotes
}

/// One group of a suite file: a schema and the instances tested against it.
#[derive(Debug, Clone, PartialEq)]
pub struct SuiteGroup {
    /// The group's description, the middle part of a full case name.
    pub description: String,
    /// The schema under test.
    pub schema: Value,
    /// The instances and their expected verdicts.
    pub tests: Vec<SuiteCase>,
}

/// One test of a suite group: an instance and whether it is valid against the group's schema.
#[derive(Debug, Clone, PartialEq)]
pub struct SuiteCase {
    /// The test's description, the last part of a full case name.
    pub description: String,
    /// The instance.
    pub data: Value,
    /// The expected verdict.
    pub valid: bool,
}

/// Reads one suite file: an array of groups `{description, schema, tests}`.
///
/// Extra members such as `specification` or `comment` are ignored.
///
/// # Errors
///
/// Returns a message naming the file when it cannot be read or parsed, or when it does not have
/// the suite's shape.
pub fn read_suite(path: impl AsRef<Path>) -> Result<Vec<SuiteGroup>, String> {
    let path = path.as_ref();
    let value = read_json(path)?;
    parse_suite(&value).map_err(|err| format!("{}: {err}", path.display()))
}

/// One schema of the SchemaStore corpus with its test instances.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaStoreEntry {
    /// The key in `schemastore/index.json`, such as `"package.json"`.
    pub name: String,
    /// The schema file.
    pub schema: PathBuf,
    /// Instances that upstream says are valid (`tests/<name>/`), JSON and YAML alike.
    pub valid: Vec<PathBuf>,
    /// Instances that upstream says are invalid (`negative_tests/<name>/`), JSON and YAML alike.
    pub invalid: Vec<PathBuf>,
    /// The whole index entry, with facts such as `$schema`, `recursive` and `external_refs`.
    pub info: Value,
}

/// Returns the SchemaStore corpus listed in `schemastore/index.json`, sorted by name.
///
/// Instance paths come from the index (`valid_instances`, `invalid_instances`); an entry without
/// those lists falls back to the files in `tests/<stem>/` and `negative_tests/<stem>/`.
/// Instances may be `.json`, `.yaml` or `.yml`; the caller decides how to parse YAML.
/// The list is empty when the test data is absent.
///
/// # Panics
///
/// Panics when the index exists but cannot be read or has the wrong shape, since the test data is
/// then corrupt.
pub fn schemastore_entries() -> Vec<SchemaStoreEntry> {
    let Some(dir) = root().map(|root| root.join("schemastore")) else {
        return Vec::new();
    };
    let index_path = dir.join("index.json");
    if !index_path.is_file() {
        return Vec::new();
    }
    let index = read_json(&index_path).unwrap_or_else(|err| panic!("corrupt test data: {err}"));
    parse_schemastore(&dir, &index)
        .unwrap_or_else(|err| panic!("corrupt test data: {}: {err}", index_path.display()))
}

pub(crate) fn root_path_from(value: Option<OsString>) -> PathBuf {
    let workspace = workspace_root();
    match value {
        Some(value) if !value.is_empty() => {
            let path = PathBuf::from(value);
            if path.is_absolute() {
                path
            } else {
                workspace.join(path)
            }
        }
        _ => workspace.join("..").join("shared").join("testdata"),
    }
}

pub(crate) fn flag_is_set(value: Option<OsString>) -> bool {
    value.is_some_and(|value| {
        let value = value.to_string_lossy();
        let value = value.trim();
        value == "1" || value.eq_ignore_ascii_case("true")
    })
}

#[expect(
    clippy::print_stderr,
    reason = "the one skip line is how an absent corpus stays visible in test output"
)]
pub(crate) fn require_at(what: &str, path: PathBuf, required: bool) -> Option<PathBuf> {
    if path.is_dir() {
        return Some(path);
    }
    assert!(
        !required,
        "TEST DATA MISSING: {what} needs the shared test data at {path}, and \
         {ENV_REQUIRE} is set; point {ENV_TESTDATA} at the shared testdata folder \
         or unset {ENV_REQUIRE}",
        path = path.display(),
    );
    eprintln!(
        "skipping {what}: test data not found at {} (set {ENV_TESTDATA})",
        path.display()
    );
    None
}

/// Lists `*.json` files under `dir`, sorted, optionally recursing and skipping one subfolder.
pub(crate) fn list_json(dir: &Path, recursive: bool, exclude: Option<&Path>) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let Ok(entries) = fs::read_dir(&current) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if recursive && exclude != Some(path.as_path()) {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|ext| ext == "json") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Returns `path` relative to `base` with `/` separators.
fn relative_slash(base: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(base).unwrap_or(path);
    relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn suite_listing(draft: &str, names: Option<&[&str]>, optional: bool) -> Vec<PathBuf> {
    let Some(dir) = suite_dir().map(|suite| suite.join("tests").join(draft)) else {
        return Vec::new();
    };
    let exclude = dir.join("optional").join("format");
    let files = if optional {
        list_json(&dir, true, Some(&exclude))
    } else {
        list_json(&dir, false, None)
    };
    files
        .into_iter()
        .filter(|path| names.is_none_or(|names| name_matches(&dir, path, names)))
        .collect()
}

fn name_matches(dir: &Path, path: &Path, names: &[&str]) -> bool {
    let relative = relative_slash(dir, path);
    let relative_stem = relative.strip_suffix(".json").unwrap_or(&relative);
    let file = path.file_name().map(|name| name.to_string_lossy());
    let stem = path.file_stem().map(|stem| stem.to_string_lossy());
    names.iter().any(|&name| {
        name == relative
            || name == relative_stem
            || file.as_deref() == Some(name)
            || stem.as_deref() == Some(name)
    })
}

pub(crate) fn parse_suite(value: &Value) -> Result<Vec<SuiteGroup>, String> {
    let groups = value
        .as_array()
        .ok_or("a suite file must be an array of groups")?;
    groups
        .iter()
        .enumerate()
        .map(|(at, group)| parse_group(group).map_err(|err| format!("group {at}: {err}")))
        .collect()
}

fn parse_group(group: &Value) -> Result<SuiteGroup, String> {
    let description = string_member(group, "description")?;
    let schema = group
        .get("schema")
        .cloned()
        .ok_or("missing member `schema`")?;
    let tests = group
        .get("tests")
        .and_then(Value::as_array)
        .ok_or("member `tests` must be an array")?
        .iter()
        .enumerate()
        .map(|(at, case)| parse_case(case).map_err(|err| format!("test {at}: {err}")))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(SuiteGroup {
        description,
        schema,
        tests,
    })
}

fn parse_case(case: &Value) -> Result<SuiteCase, String> {
    Ok(SuiteCase {
        description: string_member(case, "description")?,
        data: case.get("data").cloned().ok_or("missing member `data`")?,
        valid: case
            .get("valid")
            .and_then(Value::as_bool)
            .ok_or("member `valid` must be a boolean")?,
    })
}

fn string_member(value: &Value, name: &str) -> Result<String, String> {
    value
        .get(name)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("member `{name}` must be a string"))
}

pub(crate) fn parse_schemastore(
    dir: &Path,
    index: &Value,
) -> Result<Vec<SchemaStoreEntry>, String> {
    let schemas = index
        .get("schemas")
        .and_then(Value::as_object)
        .ok_or("member `schemas` must be an object")?;
    let mut entries = schemas
        .iter()
        .map(|(name, info)| {
            let schema = info
                .get("path")
                .and_then(Value::as_str)
                .map_or_else(|| dir.join("schemas").join(name), |path| dir.join(path));
            let stem = Path::new(name)
                .file_stem()
                .map_or_else(|| name.clone(), |stem| stem.to_string_lossy().into_owned());
            Ok(SchemaStoreEntry {
                name: name.clone(),
                schema,
                valid: instance_paths(dir, info, "valid_instances", "tests", &stem)
                    .map_err(|err| format!("{name}: {err}"))?,
                invalid: instance_paths(dir, info, "invalid_instances", "negative_tests", &stem)
                    .map_err(|err| format!("{name}: {err}"))?,
                info: info.clone(),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

fn instance_paths(
    dir: &Path,
    info: &Value,
    member: &str,
    folder: &str,
    stem: &str,
) -> Result<Vec<PathBuf>, String> {
    match info.get(member) {
        Some(Value::Array(paths)) => paths
            .iter()
            .map(|path| {
                path.as_str()
                    .map(|path| dir.join(path))
                    .ok_or_else(|| format!("member `{member}` must hold strings"))
            })
            .collect(),
        Some(_) => Err(format!("member `{member}` must be an array")),
        None => {
            let Ok(entries) = fs::read_dir(dir.join(folder).join(stem)) else {
                return Ok(Vec::new());
            };
            let mut paths: Vec<PathBuf> = entries
                .flatten()
                .map(|entry| entry.path())
                .filter(|path| {
                    path.extension()
                        .is_some_and(|ext| ext == "json" || ext == "yaml" || ext == "yml")
                })
                .collect();
            paths.sort();
            Ok(paths)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use serde_json::json;

    use crate::testdata;

    #[test]
    fn root_defaults_to_the_shared_folder_beside_the_workspace() {
        let root = testdata::root_path_from(None);
        assert_eq!(
            root,
            testdata::workspace_root()
                .join("..")
                .join("shared")
                .join("testdata")
        );
        assert_eq!(testdata::root_path_from(Some("".into())), root);
    }

    #[test]
    fn workspace_root_holds_the_workspace_manifest() {
        let root = testdata::workspace_root();
        assert!(root.join("Cargo.toml").is_file());
        assert!(root.join("benches").join("Cargo.toml").is_file());
    }

    #[test]
    fn relative_roots_are_joined_to_the_workspace_root() {
        assert_eq!(
            testdata::root_path_from(Some("data/here".into())),
            testdata::workspace_root().join("data/here")
        );
        let absolute = std::env::temp_dir().join("llmshim-absolute");
        assert_eq!(
            testdata::root_path_from(Some(absolute.clone().into())),
            absolute
        );
    }

    #[test]
    fn require_flag_accepts_one_and_true_in_any_case() {
        for value in ["1", "true", "TRUE", "True", " 1 "] {
            assert!(testdata::flag_is_set(Some(value.into())), "{value}");
        }
        for value in ["", "0", "false", "yes", "2"] {
            assert!(!testdata::flag_is_set(Some(value.into())), "{value}");
        }
        assert!(!testdata::flag_is_set(None));
    }

    #[test]
    fn require_skips_absent_data_when_not_required() {
        let missing = PathBuf::from("/nonexistent/llmshim-testdata");
        assert_eq!(testdata::require_at("a test", missing, false), None);
    }

    #[test]
    fn require_panics_loudly_on_absent_data_when_required() {
        let missing = PathBuf::from("/nonexistent/llmshim-testdata");
        let panic = std::panic::catch_unwind(|| testdata::require_at("a test", missing, true))
            .expect_err("absent required data must panic");
        let message = panic
            .downcast_ref::<String>()
            .expect("the panic message is formatted");
        assert!(
            message.contains("/nonexistent/llmshim-testdata"),
            "{message}"
        );
        assert!(message.contains("LLMSHIM_REQUIRE_TESTDATA"), "{message}");
        assert!(message.contains("LLMSHIM_TESTDATA"), "{message}");
    }

    #[test]
    fn require_returns_present_folders() {
        let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(
            testdata::require_at("a test", here.clone(), true),
            Some(here)
        );
    }

    #[test]
    fn suite_files_are_parsed_and_extra_members_ignored() {
        let groups = testdata::parse_suite(&json!([{
            "description": "g",
            "specification": [{"core": "8.2"}],
            "schema": {"maxItems": 2},
            "tests": [
                {"description": "short", "data": [1], "valid": true, "comment": "c"},
                {"description": "long", "data": [1, 2, 3], "valid": false}
            ]
        }]))
        .expect("the suite parses");
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].schema, json!({"maxItems": 2}));
        assert_eq!(groups[0].tests[1].data, json!([1, 2, 3]));
        assert!(!groups[0].tests[1].valid);
        let name = testdata::case_name("draft7/maxItems.json", &groups[0], &groups[0].tests[0]);
        assert_eq!(name, "draft7/maxItems.json/g/short");
    }

    #[test]
    fn malformed_suite_files_are_errors() {
        assert!(testdata::parse_suite(&json!({})).is_err());
        let err = testdata::parse_suite(&json!([{"description": "g", "schema": {}, "tests": [
            {"description": "t", "data": 1, "valid": "yes"}
        ]}]))
        .expect_err("a non-boolean verdict is an error");
        assert!(err.contains("valid"), "{err}");
    }

    #[test]
    fn suite_names_are_relative_to_the_tests_folder() {
        let path = Path::new("/x/json-schema-test-suite/tests/draft7/optional/bignum.json");
        assert_eq!(testdata::suite_name(path), "draft7/optional/bignum.json");
        assert_eq!(testdata::suite_name(Path::new("/y/ref.json")), "ref.json");
    }

    #[test]
    fn real_suite_files_are_listed_and_parse() {
        let Some(_) = testdata::require("real_suite_files_are_listed_and_parse") else {
            return;
        };
        for draft in ["draft2020-12", "draft7"] {
            let plain = testdata::suite_files(draft, None);
            let all = testdata::suite_files_with_optional(draft, None);
            assert!(plain.len() > 30, "{draft}: {}", plain.len());
            assert!(all.len() > plain.len(), "{draft}");
            assert!(plain.windows(2).all(|pair| pair[0] < pair[1]));
            assert!(
                all.iter()
                    .all(|path| !testdata::suite_name(path).contains("/optional/format/"))
            );
            for path in &all {
                let groups = testdata::read_suite(path).expect("suite files parse");
                assert!(!groups.is_empty(), "{}", path.display());
            }
        }
        let picked = testdata::suite_files("draft7", Some(&["ref", "maxItems.json", "nope"]));
        let names: Vec<String> = picked.iter().map(|p| testdata::suite_name(p)).collect();
        assert_eq!(names, ["draft7/maxItems.json", "draft7/ref.json"]);
        let optional =
            testdata::suite_files_with_optional("draft7", Some(&["optional/bignum", "ref"]));
        let names: Vec<String> = optional.iter().map(|p| testdata::suite_name(p)).collect();
        assert_eq!(names, ["draft7/optional/bignum.json", "draft7/ref.json"]);
    }

    #[test]
    fn real_remotes_are_served_under_localhost() {
        let Some(_) = testdata::require("real_remotes_are_served_under_localhost") else {
            return;
        };
        let remotes = testdata::suite_remotes();
        assert!(remotes.len() > 20);
        let uris: Vec<&str> = remotes.iter().map(|(uri, _)| uri.as_str()).collect();
        assert!(uris.contains(&"http://localhost:1234/integer.json"));
        assert!(uris.contains(&"http://localhost:1234/nested/string.json"));
        assert!(uris.contains(&"http://localhost:1234/draft7/subSchemas.json"));
        assert!(uris.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn real_mcp_tool_files_are_sorted_objects_with_tools() {
        let Some(_) = testdata::require("real_mcp_tool_files_are_sorted_objects_with_tools") else {
            return;
        };
        let files = testdata::mcp_tool_files();
        assert!(files.len() > 10);
        assert!(files.windows(2).all(|pair| pair[0] < pair[1]));
        for file in &files {
            let value = testdata::read_json(file).expect("corpus files parse");
            assert!(value["tools"].is_array(), "{}", file.display());
        }
    }

    #[test]
    fn real_schemastore_entries_point_at_existing_files() {
        let Some(_) = testdata::require("real_schemastore_entries_point_at_existing_files") else {
            return;
        };
        let entries = testdata::schemastore_entries();
        assert!(entries.len() > 10);
        assert!(entries.windows(2).all(|pair| pair[0].name < pair[1].name));
        let package = entries
            .iter()
            .find(|entry| entry.name == "package.json")
            .expect("package.json is in the corpus");
        assert!(!package.valid.is_empty());
        assert!(!package.invalid.is_empty());
        for entry in &entries {
            assert!(entry.schema.is_file(), "{}", entry.schema.display());
            for path in entry.valid.iter().chain(&entry.invalid) {
                assert!(path.is_file(), "{}", path.display());
            }
        }
    }

    #[test]
    fn a_partial_folder_names_what_is_missing() {
        let dir = std::env::temp_dir().join(format!("llmshim-kit-partial-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("schemastore/schemas")).expect("a temporary folder");
        std::fs::write(dir.join("schemastore/schemas/a.json"), "{}").expect("a file");
        let listed = testdata::parse_manifest(
            "# comment\n\nschemastore/schemas/a.json\nschemastore/schemas/b.json\nmcp-tools/x.json\n",
        );
        assert_eq!(testdata::files_under(&dir), ["schemastore/schemas/a.json"]);
        let err = testdata::check_complete(&dir, &listed).expect_err("two files are missing");
        assert_eq!(testdata::check_complete(&dir, &listed[..1]), Ok(1));
        std::fs::remove_dir_all(&dir).expect("remove the temporary folder");
        assert!(err.starts_with("TEST DATA INCOMPLETE"), "{err}");
        assert!(err.contains("lacks 2 of 3 files"), "{err}");
        assert!(
            err.contains("mcp-tools: 1 missing: mcp-tools/x.json"),
            "{err}"
        );
        assert!(
            err.contains("schemastore: 1 missing: schemastore/schemas/b.json"),
            "{err}"
        );
    }

    #[test]
    fn real_data_matches_the_manifest() {
        // Every file of the data is listed and every listed file exists; with UPDATE_EXPECT=1 the manifest is
        // rewritten from the data instead, keeping its comment header.
        let Some(root) = testdata::root() else {
            return;
        };
        let found = testdata::files_under(&root);
        let path = testdata::workspace_root().join(testdata::MANIFEST);
        if crate::golden::Mode::from_env() == crate::golden::Mode::Bless {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let mut out = String::new();
            for line in text.lines().take_while(|line| line.starts_with('#')) {
                out.push_str(line);
                out.push('\n');
            }
            for file in &found {
                out.push_str(file);
                out.push('\n');
            }
            std::fs::write(&path, out).expect("write the manifest");
        }
        let listed = testdata::manifest();
        assert_eq!(testdata::check_complete(&root, &listed), Ok(listed.len()));
        let listed: std::collections::BTreeSet<&String> = listed.iter().collect();
        let unlisted: Vec<&String> = found.iter().filter(|f| !listed.contains(f)).collect();
        assert!(
            unlisted.is_empty(),
            "{} files of the test data are not in {}: {unlisted:?}; after updating the data, rewrite the \
             manifest with UPDATE_EXPECT=1 cargo test -p llmshim-benches manifest, and the corpus counts with it",
            unlisted.len(),
            testdata::MANIFEST
        );
    }

    #[test]
    fn schemastore_entries_without_lists_fall_back_to_folders() {
        let dir = std::env::temp_dir().join(format!("llmshim-kit-store-{}", std::process::id()));
        let tests = dir.join("tests").join("demo");
        std::fs::create_dir_all(&tests).expect("create the temporary folder");
        std::fs::write(tests.join("b.yaml"), "a: 1\n").expect("write an instance");
        std::fs::write(tests.join("a.json"), "{}").expect("write an instance");
        std::fs::write(tests.join("notes.txt"), "").expect("write a non-instance");
        let index = json!({"schemas": {"demo.json": {"path": "schemas/demo.json"}}});
        let entries = testdata::parse_schemastore(&dir, &index).expect("the index parses");
        std::fs::remove_dir_all(&dir).expect("remove the temporary folder");
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].schema, dir.join("schemas/demo.json"));
        assert_eq!(
            entries[0].valid,
            [tests.join("a.json"), tests.join("b.yaml")]
        );
        assert!(entries[0].invalid.is_empty());
    }
}
