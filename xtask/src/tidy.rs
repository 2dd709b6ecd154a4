//! The texture check (`cargo xtask tidy`): module headers, manifests, test attributes and whitespace.
//!
//! Every `.rs` file under a member's `src/`, `tests/`, `benches/` and `examples/` folders opens with a `//!` sentence.
//! No file is called `mod.rs`, and no `.rs` file marks a test as ignored or as expected to panic.
//! Only the counting allocator of two test binaries allows unsafe code (the workspace denies it everywhere else).
//! No `.rs`, `.toml` or `.md` file has trailing whitespace.
//! Every member manifest inherits the workspace lints and the workspace version.
//! The facade, the command line, the benches, the test kit and xtask list no built-in target outside the table of
//! built-in targets (see `targets`).
//! Comments cite only what the rule reference `RULES.md` defines, and no section of the behaviour contract (see
//! `citations`).
//! The README's quotes of RELIABILITY.md's recorded runs say what the file says (see `record`).
//! Build output (the root's `target*` folders and any folder holding a `CACHEDIR.TAG`), fuzzing output
//! and hidden folders other than `.cargo`, `.ci`, `.config` and `.github` are skipped.

use std::fmt;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::metadata::{self, Package};

/// The attribute that hides a test; it is written in two pieces so that this file does not trip the check.
const IGNORE_ATTRIBUTE: &str = concat!("#[", "ignore");

/// The attribute that expects a test to panic, written in two pieces for the same reason.
const SHOULD_PANIC_ATTRIBUTE: &str = concat!("#[", "should_panic");

/// The allowance of unsafe code, written in two pieces so that this file does not trip the check.
const UNSAFE_ALLOWANCE: &str = concat!("allow(unsafe", "_code");

/// The only file that may allow unsafe code: the counting allocator of two test binaries, whose `GlobalAlloc` impl
/// needs it.
const UNSAFE_ALLOWED_IN: &[&str] = &["llmshim-cache/tests/support/counting.rs"];

/// The folders of a member whose `.rs` files must open with a `//!` sentence.
const DOCUMENTED_FOLDERS: &[&str] = &["src", "tests", "benches", "examples"];

/// Hidden folders that hold checked-in files and are therefore walked.
const WALKED_HIDDEN_FOLDERS: &[&str] = &[".cargo", ".ci", ".config", ".github"];

/// Folders under `fuzz/` that hold fuzzing output rather than source.
const FUZZ_OUTPUT_FOLDERS: &[&str] = &["target", "corpus", "artifacts"];

/// How many line numbers a whitespace problem lists before it summarizes the rest.
const LISTED_LINES: usize = 5;

/// One problem tidy found, located by file and, where it helps, by line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem {
    /// The file, relative to the workspace root.
    pub(crate) path: PathBuf,
    /// The 1-based line the problem is on, if it is on one line.
    pub(crate) line: Option<usize>,
    /// What is wrong.
    pub(crate) message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Checks every file of the workspace at `root`, whose members are `packages`, and returns all problems.
pub(crate) fn check_workspace(root: &Path, packages: &[Package]) -> Result<Vec<Problem>, String> {
    let member_dirs: Vec<PathBuf> = packages
        .iter()
        .filter_map(|package| package.manifest_path.parent())
        .filter_map(|dir| dir.strip_prefix(root).ok())
        .map(Path::to_path_buf)
        .collect();
    let mut files = Vec::new();
    collect_files(root, Path::new(""), &mut files)?;
    let mut problems = Vec::new();
    for rel in &files {
        let Some(extension) = rel.extension().and_then(|e| e.to_str()) else {
            continue;
        };
        if !matches!(extension, "rs" | "toml" | "md") {
            continue;
        }
        let problem = |line, message: String| Problem {
            path: rel.clone(),
            line,
            message,
        };
        let Ok(text) = fs::read_to_string(root.join(rel)) else {
            problems.push(problem(None, "cannot be read as UTF-8 text".to_owned()));
            continue;
        };
        if extension == "rs" {
            if rel.file_name().is_some_and(|name| name == "mod.rs") {
                problems.push(problem(
                    None,
                    "is a `mod.rs` file; name the module file after the module instead".to_owned(),
                ));
            }
            if needs_header(rel, &member_dirs)
                && let Some(message) = header_problem(&text)
            {
                problems.push(problem(Some(1), message.to_owned()));
            }
            let rel_text = rel.to_string_lossy().replace('\\', "/");
            if !UNSAFE_ALLOWED_IN.contains(&rel_text.as_str())
                && let Some(index) = text.lines().position(|l| l.contains(UNSAFE_ALLOWANCE))
            {
                problems.push(problem(
                    Some(index + 1),
                    "allows unsafe code; only the counting allocator of the test binaries may"
                        .to_owned(),
                ));
            }
            for (line, attribute) in forbidden_attributes(&text) {
                problems.push(problem(
                    Some(line),
                    format!(
                        "uses `{attribute}]`; assert the current behaviour with a FIXME \
                         or list the case as an expected failure"
                    ),
                ));
            }
        }
        if let Some((first, message)) = trailing_whitespace(&text) {
            problems.push(problem(Some(first), message));
        }
    }
    problems.extend(crate::targets::check(root)?);
    problems.extend(crate::citations::check(root, &files)?);
    let read = |name: &str| {
        fs::read_to_string(root.join(name)).map_err(|e| format!("cannot read {name}: {e}"))
    };
    for message in crate::record::check_quotes(&read("README.md")?, &read(crate::record::FILE)?) {
        problems.push(Problem {
            path: PathBuf::from("README.md"),
            line: None,
            message,
        });
    }
    for package in packages {
        let rel = package
            .manifest_path
            .strip_prefix(root)
            .unwrap_or(&package.manifest_path)
            .to_path_buf();
        let text = fs::read_to_string(&package.manifest_path)
            .map_err(|e| format!("cannot read {}: {e}", rel.display()))?;
        for message in manifest_problems(&text) {
            problems.push(Problem {
                path: rel.clone(),
                line: None,
                message,
            });
        }
    }
    Ok(problems)
}

/// Runs tidy on the workspace at `root`, prints the outcome and tells whether it passed.
pub(crate) fn run(root: &Path) -> Result<bool, String> {
    let packages = metadata::load(root)?;
    let problems = check_workspace(root, &packages)?;
    if problems.is_empty() {
        println!(
            "tidy: ok, {} workspace members and their files are tidy",
            packages.len()
        );
        return Ok(true);
    }
    for problem in &problems {
        eprintln!("tidy: {problem}");
    }
    eprintln!("tidy: {} problem(s)", problems.len());
    Ok(false)
}

/// Collects, in sorted order, every file under `root.join(rel)` that is not in a skipped folder.
fn collect_files(root: &Path, rel: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let dir = root.join(rel);
    let entries = fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    let mut entries: Vec<_> = entries
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    entries.sort_by_key(fs::DirEntry::file_name);
    for entry in entries {
        let file_type = entry
            .file_type()
            .map_err(|e| format!("cannot inspect {}: {e}", entry.path().display()))?;
        let child = rel.join(entry.file_name());
        if file_type.is_dir() {
            if !skip_dir(root, &child) {
                collect_files(root, &child, files)?;
            }
        } else if file_type.is_file() {
            files.push(child);
        }
    }
    Ok(())
}

/// Tells whether the folder at `rel` (relative to `root`) holds output or private state rather than source.
fn skip_dir(root: &Path, rel: &Path) -> bool {
    let Some(name) = rel.file_name().and_then(|n| n.to_str()) else {
        return true;
    };
    let parent = rel.parent().unwrap_or(Path::new(""));
    (parent.as_os_str().is_empty() && name.starts_with("target"))
        || (parent == Path::new("fuzz") && FUZZ_OUTPUT_FOLDERS.contains(&name))
        || (name.starts_with('.') && !WALKED_HIDDEN_FOLDERS.contains(&name))
        || root.join(rel).join("CACHEDIR.TAG").is_file()
}

/// Tells whether a `.rs` file at `rel` sits in a documented folder of a member, outside any fuzzing folder.
fn needs_header(rel: &Path, member_dirs: &[PathBuf]) -> bool {
    if rel
        .components()
        .any(|c| c == Component::Normal("fuzz".as_ref()))
    {
        return false;
    }
    member_dirs.iter().any(|member| {
        rel.strip_prefix(member).is_ok_and(|inside| {
            let mut components = inside.components();
            let folder = components.next();
            components.next().is_some()
                && folder.is_some_and(|folder| {
                    DOCUMENTED_FOLDERS
                        .iter()
                        .any(|documented| folder == Component::Normal(documented.as_ref()))
                })
        })
    })
}

/// Returns what is wrong with a source file's first line, if it is not a `//!` sentence.
fn header_problem(text: &str) -> Option<&'static str> {
    let first = text.lines().next().unwrap_or("");
    match first.strip_prefix("//!") {
        None => Some("the first line must be a `//!` sentence saying what the module is for"),
        Some(rest) if rest.trim().is_empty() => {
            Some("the first `//!` line is empty; start it with the module's summary sentence")
        }
        Some(_) => None,
    }
}

/// Returns the 1-based line and the needle of every forbidden test attribute in a source file.
fn forbidden_attributes(text: &str) -> Vec<(usize, &'static str)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        for needle in [IGNORE_ATTRIBUTE, SHOULD_PANIC_ATTRIBUTE] {
            if line.contains(needle) {
                found.push((index + 1, needle));
            }
        }
    }
    found
}

/// Returns the first line with trailing whitespace and a message listing such lines, if there are any.
fn trailing_whitespace(text: &str) -> Option<(usize, String)> {
    let lines: Vec<usize> = text
        .split('\n')
        .enumerate()
        .filter(|(_, line)| {
            let line = line.strip_suffix('\r').unwrap_or(line);
            line.ends_with([' ', '\t'])
        })
        .map(|(index, _)| index + 1)
        .collect();
    let first = *lines.first()?;
    let listed: Vec<String> = lines
        .iter()
        .take(LISTED_LINES)
        .map(ToString::to_string)
        .collect();
    let more = if lines.len() > LISTED_LINES {
        format!(" and {} more", lines.len() - LISTED_LINES)
    } else {
        String::new()
    };
    Some((
        first,
        format!("trailing whitespace on line(s) {}{more}", listed.join(", ")),
    ))
}

/// Returns what is wrong with a member's `Cargo.toml`.
fn manifest_problems(text: &str) -> Vec<String> {
    let mut section = String::new();
    let mut workspace_lints = false;
    let mut workspace_version = false;
    for line in text.lines() {
        // Comments and whitespace carry no meaning for the two settings checked here.
        let code = line.split('#').next().unwrap_or("");
        let compact: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.starts_with('[') {
            section = compact;
            continue;
        }
        match (section.as_str(), compact.as_str()) {
            ("[lints]", "workspace=true") | ("", "lints.workspace=true") => workspace_lints = true,
            ("[package]", "version.workspace=true" | "version={workspace=true}") => {
                workspace_version = true;
            }
            _ => {}
        }
    }
    let mut problems = Vec::new();
    if !workspace_lints {
        problems.push("has no `[lints]` table with `workspace = true`".to_owned());
    }
    if !workspace_version {
        problems
            .push("does not inherit the workspace version (`version.workspace = true`)".to_owned());
    }
    problems
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::metadata;
    use crate::tidy::{
        IGNORE_ATTRIBUTE, SHOULD_PANIC_ATTRIBUTE, check_workspace, forbidden_attributes,
        header_problem, manifest_problems, needs_header, trailing_whitespace,
    };

    #[test]
    fn the_first_line_must_be_a_doc_sentence() {
        assert_eq!(
            header_problem("//! Parses pointers.\n\nuse std::fmt;\n"),
            None
        );
        assert!(header_problem("use std::fmt;\n//! Late.\n").is_some());
        assert!(header_problem("// Parses pointers.\n").is_some());
        assert!(header_problem("//!\n//! Parses pointers.\n").is_some());
        assert!(header_problem("").is_some());
    }

    #[test]
    fn headers_are_required_in_member_source_folders_only() {
        let members = [PathBuf::from("llmshim-core"), PathBuf::from("benches")];
        let needs = |path: &str| needs_header(Path::new(path), &members);
        assert!(needs("llmshim-core/src/lib.rs"));
        assert!(needs("llmshim-core/src/walk/pass.rs"));
        assert!(needs("llmshim-core/tests/it/main.rs"));
        assert!(needs("llmshim-core/tests/it/pointer.rs"));
        assert!(needs("llmshim-core/examples/walk.rs"));
        assert!(needs("benches/benches/resolve.rs"));
        assert!(needs("benches/src/golden.rs"));
        assert!(!needs("llmshim-core/build.rs"));
        assert!(!needs("fuzz/fuzz_targets/normalize.rs"));
        assert!(!needs("llmshim-core/fuzz/fuzz_targets/walk.rs"));
        assert!(!needs("other/src/lib.rs"));
    }

    #[test]
    fn ignored_and_panicking_tests_are_found() {
        let text = format!(
            "//! Tests.\n#[test]\n{IGNORE_ATTRIBUTE} = \"slow\"]\nfn a() {{}}\n\n#[test]\n{SHOULD_PANIC_ATTRIBUTE}]\nfn b() {{}}\n"
        );
        assert_eq!(
            forbidden_attributes(&text),
            [(3, IGNORE_ATTRIBUTE), (7, SHOULD_PANIC_ATTRIBUTE)]
        );
        assert_eq!(forbidden_attributes("#[test]\nfn ignore() {}\n"), []);
    }

    #[test]
    fn trailing_whitespace_is_found_and_summarized() {
        assert_eq!(trailing_whitespace("clean\ntext\r\n"), None);
        assert_eq!(
            trailing_whitespace("a \nb\nc\t\r\n"),
            Some((1, "trailing whitespace on line(s) 1, 3".to_owned()))
        );
        let many = "x \n".repeat(7);
        assert_eq!(
            trailing_whitespace(&many),
            Some((
                1,
                "trailing whitespace on line(s) 1, 2, 3, 4, 5 and 2 more".to_owned()
            ))
        );
    }

    #[test]
    fn manifests_inherit_lints_and_version() {
        let good =
            "[package]\nname = \"a\"\nversion.workspace = true\n\n[lints]\nworkspace = true\n";
        assert_eq!(manifest_problems(good), Vec::<String>::new());
        let inline = "lints.workspace = true\n[package]\nversion = { workspace = true }\n";
        assert_eq!(manifest_problems(inline), Vec::<String>::new());
        let bad = "[package]\nversion = \"0.1.0\"\n[lints.clippy]\nworkspace = true\n[dependencies]\nversion.workspace = true\n";
        assert_eq!(manifest_problems(bad).len(), 2);
        let commented = "[package]\n# version.workspace = true\n[lints]\n# workspace = true\n";
        assert_eq!(manifest_problems(commented).len(), 2);
    }

    /// Runs tidy over the real workspace, which is how `cargo test --workspace` enforces it.
    #[test]
    fn the_workspace_is_tidy() -> Result<(), String> {
        let root = metadata::workspace_root()?;
        let packages = metadata::load(&root)?;
        let problems = check_workspace(&root, &packages)?;
        let lines: Vec<String> = problems.iter().map(|p| format!("  {p}")).collect();
        let report = lines.join("\n");
        assert!(
            problems.is_empty(),
            "cargo xtask tidy found {} problem(s):\n{report}",
            problems.len()
        );
        Ok(())
    }
}
