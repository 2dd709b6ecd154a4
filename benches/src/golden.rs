//! Data-driven golden cases: loading case files, comparing outcomes byte for byte, and blessing.
//!
//! A crate keeps two folders of case files.
//! `tests/golden/*.json` holds hand-written cases that no bless mode ever rewrites, and
//! `tests/cases/*.json` holds blessable cases whose `expected` and `report` may be rewritten by
//! `UPDATE_EXPECT=1`.
//!
//! A case file is a JSON array of cases, or one case object:
//!
//! ```json
//! {
//!   "name": "google-nullable",
//!   "api": "normalize",
//!   "target": "google",
//!   "strict": false,
//!   "options": {},
//!   "env": {},
//!   "input": {"type": ["string", "null"]},
//!   "expected": {"type": "string", "nullable": true},
//!   "report": {"used_fallback": false}
//! }
//! ```
//!
//! Only `name` and `input` are required; `api` defaults to `"normalize"`, `strict` to `false`,
//! `options` and `env` to `{}`, and `target`, `expected`, `report` and `comment` are optional.
//! Other members are errors, so a misspelt `expect` cannot pass silently.
//! Names are unique within a folder.
//!
//! The output is compared with `expected` by its compact serialization, so key order matters.
//! A case's `report` is a subset: each member it lists must equal the outcome's member.
//!
//! ```
//! use llmshim_benches::golden::{self, Outcome};
//!
//! let dir = std::env::temp_dir().join(format!("llmshim-golden-doc-{}", std::process::id()));
//! let cases = dir.join("cases");
//! std::fs::create_dir_all(&cases).expect("create the folder");
//! std::fs::write(
//!     cases.join("echo.json"),
//!     r#"[{"name": "echo", "api": "echo", "input": {"b": 1, "a": 2}, "expected": {"b": 1, "a": 2}}]"#,
//! )
//! .expect("write the case file");
//!
//! let checked = golden::check(&cases, |case| Outcome::new(case.input.clone()));
//! assert_eq!(checked, Ok(1));
//! # std::fs::remove_dir_all(&dir).expect("remove the folder");
//! ```

use std::collections::BTreeMap;
use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// The environment variable that asks [`check_or_bless`] to rewrite blessable cases.
pub const ENV_BLESS: &str = "UPDATE_EXPECT";

/// One golden case read from a case file.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The case's name, unique within its folder.
    pub name: String,
    /// The operation under test; `"normalize"` when the file omits it.
    pub api: String,
    /// The target name, when the case names one.
    pub target: Option<String>,
    /// Whether strict mode is requested; `false` when the file omits it.
    pub strict: bool,
    /// Further options, interpreted by the calling crate; empty when the file omits them.
    pub options: Map<String, Value>,
    /// Environment variables the case runs under (usually strings); empty when the file omits them.
    pub env: Map<String, Value>,
    /// The input value.
    pub input: Value,
    /// The expected output; `None` until the case is blessed, which fails a check.
    pub expected: Option<Value>,
    /// The report members the outcome must match, when the case lists any.
    pub report: Option<Map<String, Value>>,
    /// The file the case was read from.
    pub file: PathBuf,
}

/// What running one case produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The output, compared with the case's `expected`.
    pub output: Value,
    /// The report, whose members are compared with the members the case lists.
    pub report: Option<Value>,
}

impl Outcome {
    /// Returns an outcome with an output and no report.
    pub fn new(output: Value) -> Self {
        Self {
            output,
            report: None,
        }
    }

    /// Returns the outcome with `report` attached.
    #[must_use]
    pub fn with_report(mut self, report: Value) -> Self {
        self.report = Some(report);
        self
    }
}

/// Whether differences fail the check or rewrite blessable case files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Any difference is an error.
    Check,
    /// Differences in a folder named `cases` are written back; elsewhere they are an error.
    Bless,
}

impl Mode {
    /// Returns [`Mode::Bless`] when `UPDATE_EXPECT` is set to a value other than empty, `0` or
    /// `false`, and [`Mode::Check`] otherwise.
    pub fn from_env() -> Self {
        let bless = std::env::var_os(ENV_BLESS).is_some_and(|value| {
            let value = value.to_string_lossy();
            let value = value.trim();
            !(value.is_empty() || value == "0" || value.eq_ignore_ascii_case("false"))
        });
        if bless { Self::Bless } else { Self::Check }
    }
}

/// Loads every case of the `*.json` files in `dir`, files in sorted order.
///
/// # Errors
///
/// Returns a message when the folder is missing, a file cannot be read or parsed, a case has the
/// wrong shape or an unknown member, or two cases share a name.
pub fn load(dir: &Path) -> Result<Vec<Case>, String> {
    Ok(load_files(dir)?
        .into_iter()
        .flat_map(|file| file.cases)
        .collect())
}

/// Runs every case in `dir` and compares the outcomes with the expectations.
///
/// Returns the number of cases checked.
/// A panic inside `run` is caught and reported as that case's mismatch.
///
/// # Errors
///
/// Returns the loading error of [`load`], or a readable report of all mismatches over all cases
/// (case name, file, expected and actual compact JSON).
pub fn check(dir: &Path, run: impl Fn(&Case) -> Outcome) -> Result<usize, String> {
    check_with(dir, Mode::Check, run)
}

/// Runs every case in `dir` like [`check`], blessing when `UPDATE_EXPECT=1` is set.
///
/// # Errors
///
/// Returns the errors of [`check_with`] for the mode read from the environment.
pub fn check_or_bless(dir: &Path, run: impl Fn(&Case) -> Outcome) -> Result<usize, String> {
    check_with(dir, Mode::from_env(), run)
}

/// Runs every case in `dir` in the given mode.
///
/// In [`Mode::Bless`], when the folder's final component is `cases`, each differing case gets
/// its `expected` replaced by the output and each member its `report` lists replaced by the
/// outcome's member (or removed when the outcome lacks it); the file is rewritten pretty-printed
/// with two-space indentation, keys in their existing order and a trailing newline.
/// Hand-written folders (`golden`, or any other name) are never rewritten.
///
/// Returns the number of cases checked.
///
/// # Errors
///
/// Returns the loading error of [`load`]; in [`Mode::Check`], a report of all mismatches; in
/// [`Mode::Bless`] on a folder not named `cases`, a refusal plus the report when anything
/// differs; and when blessing, cases it could not bless (a panic, or a listed report with no
/// report in the outcome) or a file it could not write.
pub fn check_with(dir: &Path, mode: Mode, run: impl Fn(&Case) -> Outcome) -> Result<usize, String> {
    let mut files = load_files(dir)?;
    let total: usize = files.iter().map(|file| file.cases.len()).sum();
    let blessable = dir.file_name().is_some_and(|name| name == "cases");

    let mut mismatches: Vec<String> = Vec::new();
    let mut unblessable: Vec<String> = Vec::new();
    let mut blessed = 0usize;
    for file in &mut files {
        let mut updates: Vec<(usize, Outcome)> = Vec::new();
        for (at, case) in file.cases.iter().enumerate() {
            let outcome = match panic::catch_unwind(AssertUnwindSafe(|| run(case))) {
                Ok(outcome) => outcome,
                Err(payload) => {
                    let text = format!(
                        "case `{}` ({}):\n  the run panicked: {}",
                        case.name,
                        case.file.display(),
                        panic_message(payload.as_ref())
                    );
                    mismatches.push(text.clone());
                    unblessable.push(text);
                    continue;
                }
            };
            let lines = differences(case, &outcome);
            if lines.is_empty() {
                continue;
            }
            let text = format!(
                "case `{}` ({}):\n{}",
                case.name,
                case.file.display(),
                lines.join("\n")
            );
            if case.report.is_some() && !matches!(outcome.report, Some(Value::Object(_))) {
                unblessable.push(format!(
                    "{text}\n  (the case lists `report` but the outcome has no report object)"
                ));
            } else {
                updates.push((at, outcome));
            }
            mismatches.push(text);
        }
        if mode == Mode::Bless && blessable && !updates.is_empty() {
            blessed += updates.len();
            file.bless(&updates)?;
        }
    }

    if mismatches.is_empty() {
        return Ok(total);
    }
    let diff = mismatches.join("\n\n");
    match mode {
        Mode::Check => {
            let hint = if blessable {
                "run with UPDATE_EXPECT=1 to bless them, then review the diff"
            } else {
                "hand-written cases are never blessed; edit the expectations by hand"
            };
            Err(format!(
                "{} of {total} golden cases in {} differ ({hint}):\n\n{diff}",
                mismatches.len(),
                dir.display()
            ))
        }
        Mode::Bless if !blessable => Err(format!(
            "refusing to bless {}: hand-written golden cases are never rewritten, and only a \
             folder named `cases` is blessable; edit the expectations by hand or move the cases \
             to tests/cases ({} of {total} cases differ):\n\n{diff}",
            dir.display(),
            mismatches.len()
        )),
        Mode::Bless => {
            report_blessed(blessed, dir);
            if unblessable.is_empty() {
                Ok(total)
            } else {
                Err(format!(
                    "blessed {blessed} cases in {}, but {} could not be blessed:\n\n{}",
                    dir.display(),
                    unblessable.len(),
                    unblessable.join("\n\n")
                ))
            }
        }
    }
}

/// One case file: its raw document (kept for blessing) and its parsed cases.
#[derive(Debug)]
struct CaseFile {
    path: PathBuf,
    /// The document as read: an array of case objects, or one case object.
    document: Value,
    cases: Vec<Case>,
}

impl CaseFile {
    /// Writes the outcomes of the cases at the given indexes into the document and saves it.
    fn bless(&mut self, updates: &[(usize, Outcome)]) -> Result<(), String> {
        for (at, outcome) in updates {
            let object = match &mut self.document {
                Value::Array(cases) => cases.get_mut(*at).and_then(Value::as_object_mut),
                Value::Object(object) if *at == 0 => Some(object),
                _ => None,
            }
            .ok_or_else(|| format!("{}: case {at} vanished while blessing", self.path.display()))?;
            bless_case(object, outcome);
        }
        let mut text = serde_json::to_string_pretty(&self.document)
            .map_err(|err| format!("cannot serialize {}: {err}", self.path.display()))?;
        text.push('\n');
        fs::write(&self.path, text)
            .map_err(|err| format!("cannot write {}: {err}", self.path.display()))
    }
}

const KNOWN_MEMBERS: [&str; 10] = [
    "name", "api", "target", "strict", "options", "env", "input", "expected", "report", "comment",
];

fn load_files(dir: &Path) -> Result<Vec<CaseFile>, String> {
    if !dir.is_dir() {
        return Err(format!(
            "golden case folder {} does not exist",
            dir.display()
        ));
    }
    let mut files = Vec::new();
    let mut names: BTreeMap<String, PathBuf> = BTreeMap::new();
    for path in crate::testdata::list_json(dir, false, None) {
        let document = crate::testdata::read_json(&path)?;
        let cases = parse_document(&document, &path)?;
        for case in &cases {
            if let Some(first) = names.insert(case.name.clone(), path.clone()) {
                return Err(format!(
                    "duplicate golden case name `{}` in {} (first in {})",
                    case.name,
                    path.display(),
                    first.display()
                ));
            }
        }
        files.push(CaseFile {
            path,
            document,
            cases,
        });
    }
    Ok(files)
}

fn parse_document(document: &Value, path: &Path) -> Result<Vec<Case>, String> {
    let objects: Vec<&Value> = match document {
        Value::Array(cases) => cases.iter().collect(),
        Value::Object(_) => vec![document],
        _ => {
            return Err(format!(
                "{}: a case file must be an array of cases or one case object",
                path.display()
            ));
        }
    };
    objects
        .into_iter()
        .enumerate()
        .map(|(at, value)| {
            parse_case(value, path).map_err(|err| format!("{} case {at}: {err}", path.display()))
        })
        .collect()
}

fn parse_case(value: &Value, path: &Path) -> Result<Case, String> {
    let object = value.as_object().ok_or("a case must be an object")?;
    if let Some(unknown) = object
        .keys()
        .find(|key| !KNOWN_MEMBERS.contains(&key.as_str()))
    {
        return Err(format!(
            "unknown member `{unknown}` (known: {})",
            KNOWN_MEMBERS.join(", ")
        ));
    }
    let name = match object.get("name") {
        Some(Value::String(name)) if !name.is_empty() => name.clone(),
        _ => return Err("member `name` must be a non-empty string".to_owned()),
    };
    let in_case = |err: String| format!("`{name}`: {err}");
    let api = match object.get("api") {
        None => "normalize".to_owned(),
        Some(Value::String(api)) => api.clone(),
        Some(_) => return Err(in_case("member `api` must be a string".to_owned())),
    };
    let target = match object.get("target") {
        None | Some(Value::Null) => None,
        Some(Value::String(target)) => Some(target.clone()),
        Some(_) => return Err(in_case("member `target` must be a string".to_owned())),
    };
    let strict = match object.get("strict") {
        None => false,
        Some(Value::Bool(strict)) => *strict,
        Some(_) => return Err(in_case("member `strict` must be a boolean".to_owned())),
    };
    let options = optional_object(object, "options").map_err(in_case)?;
    let env = optional_object(object, "env").map_err(in_case)?;
    let report = match object.get("report") {
        None => None,
        Some(Value::Object(report)) => Some(report.clone()),
        Some(_) => return Err(in_case("member `report` must be an object".to_owned())),
    };
    let input = object
        .get("input")
        .cloned()
        .ok_or_else(|| in_case("missing member `input`".to_owned()))?;
    Ok(Case {
        name: name.clone(),
        api,
        target,
        strict,
        options,
        env,
        input,
        expected: object.get("expected").cloned(),
        report,
        file: path.to_path_buf(),
    })
}

fn optional_object(object: &Map<String, Value>, name: &str) -> Result<Map<String, Value>, String> {
    match object.get(name) {
        None => Ok(Map::new()),
        Some(Value::Object(map)) => Ok(map.clone()),
        Some(_) => Err(format!("member `{name}` must be an object")),
    }
}

/// Returns the lines describing how an outcome differs from a case, empty when it matches.
fn differences(case: &Case, outcome: &Outcome) -> Vec<String> {
    let mut lines = Vec::new();
    let actual = compact(&outcome.output);
    match &case.expected {
        None => lines.push(format!("  missing `expected`\n    actual:   {actual}")),
        Some(expected) => {
            let expected = compact(expected);
            if expected != actual {
                lines.push(format!(
                    "  output differs at byte {}\n    expected: {expected}\n    actual:   {actual}",
                    first_difference(&expected, &actual)
                ));
            }
        }
    }
    if let Some(listed) = &case.report {
        match &outcome.report {
            Some(Value::Object(report)) => {
                for (key, expected) in listed {
                    let expected = compact(expected);
                    match report.get(key) {
                        None => lines.push(format!(
                            "  report member `{key}` is missing\n    expected: {expected}"
                        )),
                        Some(actual) => {
                            let actual = compact(actual);
                            if expected != actual {
                                lines.push(format!(
                                    "  report member `{key}` differs\n    expected: {expected}\n    \
                                     actual:   {actual}"
                                ));
                            }
                        }
                    }
                }
            }
            Some(other) => lines.push(format!(
                "  the outcome's report is not an object: {}",
                compact(other)
            )),
            None => lines.push("  the case lists `report` but the outcome has none".to_owned()),
        }
    }
    lines
}

/// Writes one outcome into a case object, keeping the order of its members.
fn bless_case(object: &mut Map<String, Value>, outcome: &Outcome) {
    if let Some(expected) = object.get_mut("expected") {
        *expected = outcome.output.clone();
    } else {
        // A new `expected` goes right after `input`, where a reader looks for it.
        let mut rebuilt = Map::new();
        for (key, value) in std::mem::take(object) {
            let after_input = key == "input";
            rebuilt.insert(key, value);
            if after_input {
                rebuilt.insert("expected".to_owned(), outcome.output.clone());
            }
        }
        if !rebuilt.contains_key("expected") {
            rebuilt.insert("expected".to_owned(), outcome.output.clone());
        }
        *object = rebuilt;
    }
    if let (Some(Value::Object(listed)), Some(Value::Object(actual))) =
        (object.get_mut("report"), &outcome.report)
    {
        let keys: Vec<String> = listed.keys().cloned().collect();
        for key in keys {
            match actual.get(&key) {
                Some(value) => {
                    listed.insert(key, value.clone());
                }
                None => {
                    listed.shift_remove(&key);
                }
            }
        }
    }
}

fn compact(value: &Value) -> String {
    // Serializing a `Value` cannot fail: its map keys are always strings.
    serde_json::to_string(value).unwrap_or_default()
}

fn first_difference(expected: &str, actual: &str) -> usize {
    expected
        .bytes()
        .zip(actual.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.len().min(actual.len()))
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a non-text panic payload".to_owned()
    }
}

#[expect(
    clippy::print_stderr,
    reason = "a blessing run says what it rewrote, so the diff is reviewed"
)]
fn report_blessed(blessed: usize, dir: &Path) {
    eprintln!("blessed {blessed} golden cases in {}", dir.display());
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};

    use serde_json::{Value, json};

    use crate::golden::{self, Case, Mode, Outcome};

    /// A temporary folder removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(leaf: &str) -> Self {
            static COUNTER: AtomicUsize = AtomicUsize::new(0);
            let base = std::env::temp_dir().join(format!(
                "llmshim-kit-golden-{}-{}",
                std::process::id(),
                COUNTER.fetch_add(1, Ordering::Relaxed)
            ));
            fs::create_dir_all(base.join(leaf)).expect("create the scratch folder");
            Self(base)
        }

        fn dir(&self, leaf: &str) -> PathBuf {
            self.0.join(leaf)
        }

        fn write(&self, leaf: &str, file: &str, text: &str) -> PathBuf {
            let path = self.0.join(leaf).join(file);
            fs::write(&path, text).expect("write a case file");
            path
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    /// Echoes the input and reports whether it was an object.
    fn echo(case: &Case) -> Outcome {
        Outcome::new(case.input.clone()).with_report(json!({
            "used_fallback": !case.input.is_object(),
            "changed": false
        }))
    }

    /// Wraps the input, so every expectation of an echo case differs.
    fn wrap(case: &Case) -> Outcome {
        Outcome::new(json!({"wrapped": case.input})).with_report(json!({"used_fallback": true}))
    }

    #[test]
    fn cases_load_with_defaults_from_arrays_and_single_objects() {
        let scratch = Scratch::new("cases");
        scratch.write(
            "cases",
            "a.json",
            r#"[{"name": "one", "input": 1}, {"name": "two", "api": "tools", "target": "t2",
                "strict": true, "options": {"x": 1}, "env": {"E": "1"}, "input": 2,
                "expected": 2, "report": {"changed": false}, "comment": "c"}]"#,
        );
        scratch.write("cases", "b.json", r#"{"name": "three", "input": 3}"#);
        scratch.write("cases", "notes.txt", "not a case file");
        let cases = golden::load(&scratch.dir("cases")).expect("the cases load");
        let names: Vec<&str> = cases.iter().map(|case| case.name.as_str()).collect();
        assert_eq!(names, ["one", "two", "three"]);
        assert_eq!(cases[0].api, "normalize");
        assert_eq!(cases[0].target, None);
        assert!(!cases[0].strict);
        assert!(cases[0].options.is_empty() && cases[0].env.is_empty());
        assert_eq!(cases[0].expected, None);
        assert_eq!(cases[1].api, "tools");
        assert_eq!(cases[1].target.as_deref(), Some("t2"));
        assert!(cases[1].strict);
        assert_eq!(cases[1].env["E"], "1");
        assert_eq!(cases[1].report.as_ref().map(serde_json::Map::len), Some(1));
        assert!(cases[2].file.ends_with("b.json"));
    }

    #[test]
    fn duplicate_names_unknown_members_and_missing_folders_are_errors() {
        let scratch = Scratch::new("cases");
        scratch.write("cases", "a.json", r#"[{"name": "x", "input": 1}]"#);
        scratch.write("cases", "b.json", r#"[{"name": "x", "input": 2}]"#);
        let err = golden::load(&scratch.dir("cases")).expect_err("duplicate names fail");
        assert!(err.contains("duplicate golden case name `x`"), "{err}");

        let scratch = Scratch::new("cases");
        scratch.write(
            "cases",
            "a.json",
            r#"[{"name": "x", "input": 1, "expect": 1}]"#,
        );
        let err = golden::load(&scratch.dir("cases")).expect_err("unknown members fail");
        assert!(err.contains("unknown member `expect`"), "{err}");

        let err = golden::load(&scratch.dir("nope")).expect_err("a missing folder fails");
        assert!(err.contains("does not exist"), "{err}");
    }

    #[test]
    fn matching_cases_pass_and_report_is_a_subset() {
        let scratch = Scratch::new("golden");
        scratch.write(
            "golden",
            "a.json",
            r#"[{"name": "obj", "input": {"b": 1, "a": [true]}, "expected": {"b": 1, "a": [true]},
                 "report": {"used_fallback": false}},
                {"name": "num", "input": 5, "expected": 5}]"#,
        );
        assert_eq!(golden::check(&scratch.dir("golden"), echo), Ok(2));
        assert_eq!(
            golden::check_with(&scratch.dir("golden"), Mode::Bless, echo),
            Ok(2)
        );
    }

    #[test]
    fn all_mismatches_are_collected_with_names_files_and_json() {
        let scratch = Scratch::new("cases");
        scratch.write(
            "cases",
            "a.json",
            r#"[{"name": "order", "input": {"a": 1, "b": 2}, "expected": {"b": 2, "a": 1}},
                {"name": "fine", "input": 1, "expected": 1}]"#,
        );
        scratch.write(
            "cases",
            "b.json",
            r#"[{"name": "unblessed", "input": [1]},
                {"name": "report", "input": "s", "expected": "s", "report": {"used_fallback": false}}]"#,
        );
        let err = golden::check(&scratch.dir("cases"), echo).expect_err("mismatches fail");
        assert!(err.starts_with("3 of 4 golden cases"), "{err}");
        assert!(err.contains("case `order`"), "{err}");
        assert!(err.contains("a.json"), "{err}");
        assert!(err.contains(r#"expected: {"b":2,"a":1}"#), "{err}");
        assert!(err.contains(r#"actual:   {"a":1,"b":2}"#), "{err}");
        assert!(err.contains("case `unblessed`"), "{err}");
        assert!(err.contains("missing `expected`"), "{err}");
        assert!(
            err.contains("report member `used_fallback` differs"),
            "{err}"
        );
        assert!(!err.contains("case `fine`"), "{err}");
        assert!(err.contains("UPDATE_EXPECT=1"), "{err}");
    }

    #[test]
    fn a_panicking_run_is_a_mismatch() {
        let scratch = Scratch::new("cases");
        scratch.write(
            "cases",
            "a.json",
            r#"[{"name": "boom", "input": 1, "expected": 1}]"#,
        );
        let err = golden::check(&scratch.dir("cases"), |_| panic!("kaboom"))
            .expect_err("a panic fails the case");
        assert!(err.contains("the run panicked: kaboom"), "{err}");
    }

    #[test]
    fn blessing_rewrites_cases_in_place_keeping_key_order() {
        let scratch = Scratch::new("cases");
        let path = scratch.write(
            "cases",
            "a.json",
            r#"[{"name": "one", "input": 1, "comment": "c", "report": {"used_fallback": false, "gone": 1}},
                {"name": "two", "input": 2, "expected": 2}]"#,
        );
        let single = scratch.write(
            "cases",
            "b.json",
            r#"{"name": "three", "target": "t3", "input": 3, "expected": 0}"#,
        );
        assert_eq!(
            golden::check_with(&scratch.dir("cases"), Mode::Bless, wrap),
            Ok(3)
        );
        let text = fs::read_to_string(&path).expect("read the blessed file");
        assert!(text.ends_with("}\n]\n"), "{text}");
        assert!(text.contains("\n  {\n    \"name\": \"one\",\n"), "{text}");
        let value: Value = serde_json::from_str(&text).expect("the blessed file parses");
        let keys: Vec<&str> = value[0]
            .as_object()
            .expect("a case object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["name", "input", "expected", "comment", "report"]);
        assert_eq!(value[0]["expected"], json!({"wrapped": 1}));
        assert_eq!(value[0]["report"], json!({"used_fallback": true}));
        assert_eq!(value[1]["expected"], json!({"wrapped": 2}));
        let value = golden::check(&scratch.dir("cases"), wrap);
        assert_eq!(value, Ok(3));
        let single = fs::read_to_string(&single).expect("read the blessed file");
        assert!(single.starts_with("{\n  \"name\": \"three\""), "{single}");
    }

    #[test]
    fn blessing_refuses_to_rewrite_hand_written_golden_cases() {
        let scratch = Scratch::new("golden");
        let text = r#"[{"name": "one", "input": 1, "expected": 1}]"#;
        let path = scratch.write("golden", "a.json", text);
        let err = golden::check_with(&scratch.dir("golden"), Mode::Bless, wrap)
            .expect_err("a golden folder is never blessed");
        assert!(err.starts_with("refusing to bless"), "{err}");
        assert!(err.contains("never rewritten"), "{err}");
        assert!(err.contains("case `one`"), "{err}");
        assert_eq!(fs::read_to_string(&path).expect("read the case file"), text);
    }

    #[test]
    fn blessing_reports_cases_it_cannot_bless() {
        let scratch = Scratch::new("cases");
        scratch.write(
            "cases",
            "a.json",
            r#"[{"name": "one", "input": 1, "expected": 0, "report": {"changed": true}}]"#,
        );
        let err = golden::check_with(&scratch.dir("cases"), Mode::Bless, |case| {
            Outcome::new(case.input.clone())
        })
        .expect_err("a listed report without an outcome report cannot be blessed");
        assert!(err.contains("could not be blessed"), "{err}");
    }

    #[test]
    fn outcomes_compare_by_serialized_text() {
        assert!(golden::first_difference("abc", "abd") == 2);
        assert!(golden::first_difference("ab", "abc") == 2);
        let dir: &Path = Path::new("/nonexistent/cases");
        assert!(golden::check(dir, echo).is_err());
    }
}
