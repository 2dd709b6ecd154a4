//! Expected-fallback lists: which corpus cases may fall back, each with a reason that is checked, not only read.
//!
//! A corpus test normalizes many schemas and may accept that some of them fall back (or are demoted), but only the
//! ones a list names. The list is a JSON file:
//!
//! ```json
//! {
//!   "about": "what the list is for and how to write an entry",
//!   "groups": [
//!     {
//!       "kind": "ref_cycle",
//!       "why": "the schema is recursive; recursive references fall back on every target",
//!       "cases": [
//!         {"case": "schemastore/x.json @ chat", "pointer": "/properties/a/items", "message": "reference cycle"}
//!       ]
//!     }
//!   ]
//! }
//! ```
//!
//! Each entry is one case (the test's own name for a schema and target) and its own reason: the JSON Pointer the
//! report gives, compared exactly, and the report's message, or a prefix of it, compared as a prefix.
//! The group gives the kind, which the report must give too, and a sentence saying why cases of this kind are
//! accepted. The comparison fails on a fallback the list does not name, on a listed case that did not fall back
//! (remove it: the list only shrinks), on a listed case that did not run, on a kind, pointer or message that differs,
//! and on an entry without a pointer or message or named twice.
//!
//! With `UPDATE_EXPECT=1` ([`Mode::Bless`]) the file is rewritten instead where that cannot hide a regression: an
//! entry whose case now falls back with the listed kind at another pointer or with another message gets the new
//! pointer and message, and an entry whose case no longer falls back is removed. A new fallback, or a listed case
//! that falls back with another kind, is never written: it still fails.
//!
//! ```
//! use llmshim_benches::fallbacks::{Expected, Observed};
//! use serde_json::json;
//!
//! let list = json!({"about": "example", "groups": [{
//!     "kind": "ref_cycle",
//!     "why": "recursive schemas fall back",
//!     "cases": [{"case": "tree @ chat", "pointer": "/properties/next", "message": "reference cycle at"}]
//! }]});
//! let expected = Expected::from_value(&list).expect("a well-formed list");
//! let ran = ["leaf @ chat".to_owned(), "tree @ chat".to_owned()];
//! let seen = [Observed::new("tree @ chat", "ref_cycle", "/properties/next", "reference cycle at #")];
//! let summary = expected.compare("corpus", &ran, &seen).expect("the run matches the list");
//! assert_eq!((summary.ran, summary.passed, summary.expected_failures), (2, 1, 1));
//!
//! let moved = [Observed::new("tree @ chat", "ref_cycle", "/properties/other", "reference cycle at #")];
//! let err = expected.compare("corpus", &ran, &moved).expect_err("the pointer is checked");
//! assert!(err.contains("pointer"), "{err}");
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use serde_json::{Map, Value, json};

use crate::golden::Mode;
use crate::xfail::Summary;

/// One listed case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The case name, as the test builds it (`<schema id> @ <target>`, ...).
    pub case: String,
    /// The kind the report must give (from the entry's group).
    pub kind: String,
    /// The JSON Pointer the report must give, exactly.
    pub pointer: String,
    /// The message the report must start with.
    pub message: String,
    /// Why cases of this kind are accepted (from the entry's group).
    pub why: String,
}

/// One case that did fall back (or was demoted), as the test observed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    /// The case name.
    pub case: String,
    /// The reason's kind.
    pub kind: String,
    /// The reason's pointer.
    pub pointer: String,
    /// The reason's message.
    pub message: String,
}

impl Observed {
    /// An observation from its four parts.
    pub fn new(
        case: impl Into<String>,
        kind: impl Into<String>,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Observed {
            case: case.into(),
            kind: kind.into(),
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

/// A parsed expected-fallback list.
#[derive(Debug, Clone)]
pub struct Expected {
    about: String,
    groups: Vec<Group>,
}

#[derive(Debug, Clone)]
struct Group {
    kind: String,
    why: String,
    entries: Vec<Entry>,
}

impl Expected {
    /// Reads and parses the list at `path`.
    ///
    /// # Errors
    ///
    /// Returns a message naming the file when it cannot be read, is not JSON or does not have the list's shape.
    pub fn load(path: &Path) -> Result<Expected, String> {
        let value = crate::testdata::read_json(path)?;
        Expected::from_value(&value).map_err(|err| format!("{}: {err}", path.display()))
    }

    /// Parses a list from its JSON value.
    ///
    /// # Errors
    ///
    /// Returns a message when a member is missing or has the wrong type, when a text that must say something is
    /// empty, or when a case is listed twice.
    pub fn from_value(value: &Value) -> Result<Expected, String> {
        let text = |v: &Value, key: &str, at: &str| -> Result<String, String> {
            let s = v
                .get(key)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("{at}: `{key}` must be a string"))?;
            Ok(s.to_owned())
        };
        let about = text(value, "about", "the list")?;
        let groups = value
            .get("groups")
            .and_then(Value::as_array)
            .ok_or("the list: `groups` must be an array")?;
        let mut parsed = Vec::new();
        let mut seen = BTreeSet::new();
        for (g, group) in groups.iter().enumerate() {
            let at = format!("group {g}");
            let kind = text(group, "kind", &at)?;
            let why = text(group, "why", &at)?;
            if kind.trim().is_empty() || why.trim().is_empty() {
                return Err(format!("{at}: `kind` and `why` must say something"));
            }
            let cases = group
                .get("cases")
                .and_then(Value::as_array)
                .ok_or_else(|| format!("{at}: `cases` must be an array"))?;
            let mut entries = Vec::new();
            for (c, case) in cases.iter().enumerate() {
                let at = format!("group {g} ({kind}), case {c}");
                let entry = Entry {
                    case: text(case, "case", &at)?,
                    kind: kind.clone(),
                    pointer: text(case, "pointer", &at)?,
                    message: text(case, "message", &at)?,
                    why: why.clone(),
                };
                if entry.message.trim().is_empty() {
                    return Err(format!(
                        "{at} ({}): `message` must hold the report's message or a prefix of it",
                        entry.case
                    ));
                }
                if !seen.insert(entry.case.clone()) {
                    return Err(format!("{at}: {} is listed twice", entry.case));
                }
                entries.push(entry);
            }
            parsed.push(Group { kind, why, entries });
        }
        Ok(Expected {
            about,
            groups: parsed,
        })
    }

    /// Every entry, group by group, in file order.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.groups.iter().flat_map(|g| g.entries.iter())
    }

    /// Compares a run with the list.
    ///
    /// `ran` names every case that ran; `observed` holds the cases that fell back, each once.
    ///
    /// # Errors
    ///
    /// Returns a readable report of every disagreement (see the module documentation).
    pub fn compare(
        &self,
        name: &str,
        ran: &[String],
        observed: &[Observed],
    ) -> Result<Summary, String> {
        let problems = self.problems(ran, observed);
        if problems.is_empty() {
            Ok(Summary {
                suite: name.to_owned(),
                ran: ran.len(),
                passed: ran.len().saturating_sub(observed.len()),
                expected_failures: observed.len(),
            })
        } else {
            Err(format!(
                "expected-fallback list of {name} does not match the run ({} problems):\n{}",
                problems.len(),
                problems.join("\n")
            ))
        }
    }

    fn problems(&self, ran: &[String], observed: &[Observed]) -> Vec<String> {
        let mut problems = Vec::new();
        let ran_set: BTreeSet<&str> = ran.iter().map(String::as_str).collect();
        if ran_set.len() != ran.len() {
            problems
                .push("  a case name ran more than once (case names must be unique)".to_owned());
        }
        let mut seen: BTreeMap<&str, &Observed> = BTreeMap::new();
        for o in observed {
            if seen.insert(o.case.as_str(), o).is_some() {
                problems.push(format!(
                    "  observed twice (case names must be unique): {}",
                    o.case
                ));
            }
        }
        let listed: BTreeMap<&str, &Entry> = self.entries().map(|e| (e.case.as_str(), e)).collect();
        for o in observed {
            match listed.get(o.case.as_str()) {
                None => problems.push(format!(
                    "  new fallback (fix it, or list it under a group of kind {:?} with a reason): {{\"case\": {}, \
                     \"pointer\": {}, \"message\": {}}}",
                    o.kind,
                    json!(o.case),
                    json!(o.pointer),
                    json!(o.message)
                )),
                Some(entry) => {
                    if entry.kind != o.kind {
                        problems.push(format!(
                            "  {}: listed as {}, falls back with {} at {:?}: {}",
                            o.case, entry.kind, o.kind, o.pointer, o.message
                        ));
                    } else if entry.pointer != o.pointer {
                        problems.push(format!(
                            "  {}: listed at pointer {:?}, falls back at {:?}: {}",
                            o.case, entry.pointer, o.pointer, o.message
                        ));
                    } else if !o.message.starts_with(&entry.message) {
                        problems.push(format!(
                            "  {}: listed with message {:?}, the report says {:?}",
                            o.case, entry.message, o.message
                        ));
                    }
                }
            }
        }
        for entry in self.entries() {
            if seen.contains_key(entry.case.as_str()) {
                continue;
            }
            if ran_set.contains(entry.case.as_str()) {
                problems.push(format!(
                    "  unexpected pass, it no longer falls back (remove it from the list): {}",
                    entry.case
                ));
            } else {
                problems.push(format!(
                    "  stale entry, no such case ran (remove it from the list): {}",
                    entry.case
                ));
            }
        }
        problems
    }

    /// Compares a run with the list in `mode`, rewriting the file at `path` when blessing.
    ///
    /// In [`Mode::Bless`] the entries that can be updated without hiding a regression are rewritten (see the module
    /// documentation) and the file is written back when it changed; the comparison then runs on the updated list.
    ///
    /// # Errors
    ///
    /// Returns the report of [`Expected::compare`] for whatever disagreement remains, or a message when the file
    /// cannot be written.
    pub fn check_or_bless(
        &self,
        path: &Path,
        mode: Mode,
        name: &str,
        ran: &[String],
        observed: &[Observed],
    ) -> Result<Summary, String> {
        if mode == Mode::Check {
            return self.compare(name, ran, observed);
        }
        let blessed = self.blessed(observed);
        let text = blessed.to_pretty();
        let current = fs::read_to_string(path).unwrap_or_default();
        if current != text {
            fs::write(path, &text)
                .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
        }
        blessed.compare(name, ran, observed)
    }

    /// The list with every entry updated from `observed` where that is safe.
    fn blessed(&self, observed: &[Observed]) -> Expected {
        let seen: BTreeMap<&str, &Observed> =
            observed.iter().map(|o| (o.case.as_str(), o)).collect();
        let groups = self
            .groups
            .iter()
            .map(|group| {
                let entries = group
                    .entries
                    .iter()
                    .filter_map(|entry| match seen.get(entry.case.as_str()) {
                        None => None,
                        Some(o) if o.kind == entry.kind => Some(Entry {
                            pointer: o.pointer.clone(),
                            message: if o.message.starts_with(&entry.message)
                                && o.pointer == entry.pointer
                            {
                                entry.message.clone()
                            } else {
                                o.message.clone()
                            },
                            ..entry.clone()
                        }),
                        Some(_) => Some(entry.clone()),
                    })
                    .collect();
                Group {
                    entries,
                    ..group.clone()
                }
            })
            .filter(|group| !group.entries.is_empty())
            .collect();
        Expected {
            about: self.about.clone(),
            groups,
        }
    }

    /// The list as JSON, in the file's layout.
    pub fn to_value(&self) -> Value {
        let groups: Vec<Value> = self
            .groups
            .iter()
            .map(|group| {
                let cases: Vec<Value> = group
                    .entries
                    .iter()
                    .map(|e| json!({"case": e.case, "pointer": e.pointer, "message": e.message}))
                    .collect();
                let mut g = Map::new();
                g.insert("kind".to_owned(), json!(group.kind));
                g.insert("why".to_owned(), json!(group.why));
                g.insert("cases".to_owned(), Value::Array(cases));
                Value::Object(g)
            })
            .collect();
        json!({"about": self.about, "groups": groups})
    }

    /// The file's text: the JSON of [`Expected::to_value`], each entry on a line of its own.
    pub fn to_pretty(&self) -> String {
        let mut out = String::from("{\n");
        let _ = write!(out, "  \"about\": {},\n  \"groups\": [", json!(self.about));
        for (g, group) in self.groups.iter().enumerate() {
            out.push_str(if g == 0 { "\n" } else { ",\n" });
            let _ = write!(
                out,
                "    {{\n      \"kind\": {},\n      \"why\": {},\n      \"cases\": [",
                json!(group.kind),
                json!(group.why)
            );
            for (c, e) in group.entries.iter().enumerate() {
                out.push_str(if c == 0 { "\n" } else { ",\n" });
                let entry = json!({"case": e.case, "pointer": e.pointer, "message": e.message});
                let _ = write!(out, "        {entry}");
            }
            out.push_str("\n      ]\n    }");
        }
        out.push_str("\n  ]\n}\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Expected, Observed};
    use crate::golden::Mode;

    fn list() -> Expected {
        Expected::from_value(&json!({"about": "a test list", "groups": [
            {"kind": "ref_cycle", "why": "recursion falls back", "cases": [
                {"case": "a @ chat", "pointer": "/properties/x", "message": "reference cycle"},
                {"case": "b @ chat", "pointer": "", "message": "reference cycle"}
            ]},
            {"kind": "target_unsupported", "why": "the target cannot say it", "cases": [
                {"case": "c @ other", "pointer": "/anyOf", "message": "anyOf: branches have"}
            ]}
        ]}))
        .expect("the list parses")
    }

    fn ran() -> Vec<String> {
        ["a @ chat", "b @ chat", "c @ other", "d @ chat"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect()
    }

    fn observed() -> Vec<Observed> {
        vec![
            Observed::new(
                "a @ chat",
                "ref_cycle",
                "/properties/x",
                "reference cycle at #/$defs/A",
            ),
            Observed::new("b @ chat", "ref_cycle", "", "reference cycle at #"),
            Observed::new(
                "c @ other",
                "target_unsupported",
                "/anyOf",
                "anyOf: branches have different types",
            ),
        ]
    }

    #[test]
    fn a_matching_run_gives_counts() {
        let summary = list().compare("s", &ran(), &observed()).expect("matches");
        assert_eq!(
            (summary.ran, summary.passed, summary.expected_failures),
            (4, 1, 3)
        );
    }

    #[test]
    fn every_disagreement_is_reported() {
        let mut seen = observed();
        seen[0].pointer = "/properties/y".to_owned();
        seen[1].message = "something else".to_owned();
        seen[2].kind = "regex".to_owned();
        seen.push(Observed::new("d @ chat", "compile", "", "too big"));
        let err = list()
            .compare("s", &ran(), &seen)
            .expect_err("four problems");
        assert!(err.contains("4 problems"), "{err}");
        assert!(err.contains("listed at pointer \"/properties/x\""), "{err}");
        assert!(
            err.contains("listed with message \"reference cycle\""),
            "{err}"
        );
        assert!(
            err.contains("listed as target_unsupported, falls back with regex"),
            "{err}"
        );
        assert!(err.contains("new fallback"), "{err}");
        assert!(err.contains("\"case\": \"d @ chat\""), "{err}");
    }

    #[test]
    fn passes_and_stale_entries_fail() {
        let seen = observed()[..2].to_vec();
        let err = list().compare("s", &ran(), &seen).expect_err("c passed");
        assert!(err.contains("unexpected pass"), "{err}");
        let err = list()
            .compare("s", &ran()[..2], &observed()[..2])
            .expect_err("c did not run");
        assert!(err.contains("stale entry"), "{err}");
    }

    #[test]
    fn malformed_lists_are_refused() {
        let twice = json!({"about": "", "groups": [{"kind": "k", "why": "w", "cases": [
            {"case": "a", "pointer": "", "message": "m"}, {"case": "a", "pointer": "", "message": "m"}
        ]}]});
        assert!(
            Expected::from_value(&twice)
                .expect_err("a duplicate")
                .contains("twice")
        );
        let silent = json!({"about": "", "groups": [{"kind": "k", "why": "w", "cases": [
            {"case": "a", "pointer": ""}
        ]}]});
        assert!(
            Expected::from_value(&silent)
                .expect_err("no message")
                .contains("message")
        );
        let empty = json!({"about": "", "groups": [{"kind": "k", "why": "w", "cases": [
            {"case": "a", "pointer": "", "message": " "}
        ]}]});
        assert!(
            Expected::from_value(&empty)
                .expect_err("an empty message")
                .contains("prefix")
        );
        let no_why = json!({"about": "", "groups": [{"kind": "k", "why": "", "cases": []}]});
        assert!(Expected::from_value(&no_why).is_err());
    }

    #[test]
    fn blessing_updates_pointers_and_removes_passes_but_never_adds() {
        let dir =
            std::env::temp_dir().join(format!("llmshim-kit-fallbacks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join("list.json");
        let mut seen = observed();
        seen[0].pointer = "/properties/y".to_owned();
        seen.remove(2);
        seen.push(Observed::new("d @ chat", "compile", "", "too big"));
        let err = list()
            .check_or_bless(&path, Mode::Bless, "s", &ran(), &seen)
            .expect_err("the new fallback still fails");
        assert!(
            err.contains("1 problems") && err.contains("new fallback"),
            "{err}"
        );
        let written = Expected::load(&path).expect("the blessed list parses");
        std::fs::remove_dir_all(&dir).expect("remove the temporary folder");
        let cases: Vec<(&str, &str, &str)> = written
            .entries()
            .map(|e| (e.case.as_str(), e.pointer.as_str(), e.message.as_str()))
            .collect();
        assert_eq!(
            cases,
            [
                ("a @ chat", "/properties/y", "reference cycle at #/$defs/A"),
                ("b @ chat", "", "reference cycle")
            ]
        );
        assert_eq!(
            written.to_value()["groups"].as_array().map(Vec::len),
            Some(1)
        );
    }

    #[test]
    fn the_pretty_text_parses_back_to_the_same_list() {
        let text = list().to_pretty();
        let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(value, list().to_value());
        assert!(text.contains("\n        {\"case\":\"a @ chat\""), "{text}");
    }
}
