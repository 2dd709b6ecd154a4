//! Expected-failure lists that may only shrink: comparing a suite run with its `XFAIL` list.
//!
//! A conformance test runs every case of one suite file, names each case in full
//! (`draft7/ref.json/<group>/<test>`), and compares the failures with a list of known failures,
//! each with a reason.
//! The comparison fails on a new failure, on a listed case that passed, on a listed case that did
//! not run, on an entry without a reason and on a duplicated entry, so the list stays honest and
//! only shrinks.
//!
//! ```
//! use llmshim_benches::xfail::{self, XFail};
//!
//! const XFAIL: XFail = &[("draft7/ref.json/remote ref/remote ref valid", "remotes not wired yet")];
//!
//! let mut run = xfail::Run::new();
//! run.record("draft7/ref.json/root ref/match", true);
//! run.record("draft7/ref.json/remote ref/remote ref valid", false);
//! let summary = run.check("draft7/ref.json", XFAIL).expect("the list matches the run");
//! assert_eq!((summary.ran, summary.passed, summary.expected_failures), (2, 1, 1));
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// An expected-failure list: `(full case name, reason)` pairs.
pub type XFail = &'static [(&'static str, &'static str)];

/// The counts of one suite run that matched its expected-failure list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The suite's name, such as `draft7/ref.json`.
    pub suite: String,
    /// How many cases ran.
    pub ran: usize,
    /// How many cases passed.
    pub passed: usize,
    /// How many cases failed as listed.
    pub expected_failures: usize,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ran, {} passed, {} expected failures",
            self.suite, self.ran, self.passed, self.expected_failures
        )
    }
}

/// Compares the failures of a run with its expected-failure list, given only the number of passes.
///
/// Without the names of the passing cases, a listed case that did not fail is reported as
/// "passed or did not run"; prefer [`compare_ran`] when the names of all cases are at hand.
///
/// # Errors
///
/// Returns a readable multi-line report when a failure is not listed, when a listed case did not
/// fail, when an entry has an empty reason, or when an entry or a failure is duplicated.
pub fn compare(
    suite: &str,
    failures: &[String],
    passes_run: usize,
    xfail: XFail,
) -> Result<Summary, String> {
    compare_inner(suite, None, failures, passes_run + failures.len(), xfail)
}

/// Compares a run with its expected-failure list, given the names of all cases that ran.
///
/// Names in `failures` count as run even when `ran` omits them.
///
/// # Errors
///
/// Returns a readable multi-line report on a new failure, an unexpected pass (a listed case that
/// passed), a stale entry (a listed case that did not run), an entry with an empty reason, a
/// duplicated entry, or a case name that ran twice.
pub fn compare_ran(
    suite: &str,
    ran: &[String],
    failures: &[String],
    xfail: XFail,
) -> Result<Summary, String> {
    let mut all: Vec<&str> = ran.iter().map(String::as_str).collect();
    let known: BTreeSet<&str> = all.iter().copied().collect();
    all.extend(
        failures
            .iter()
            .map(String::as_str)
            .filter(|name| !known.contains(name)),
    );
    let count = all.len();
    compare_inner(suite, Some(&all), failures, count, xfail)
}

/// A collector of case results for one suite file.
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// The names of all cases recorded, in order.
    pub ran: Vec<String>,
    /// The names of the cases that failed, in order.
    pub failures: Vec<String>,
}

impl Run {
    /// Returns an empty collector.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one case by its full name and whether it passed.
    pub fn record(&mut self, name: impl Into<String>, passed: bool) {
        let name = name.into();
        if !passed {
            self.failures.push(name.clone());
        }
        self.ran.push(name);
    }

    /// Compares the recorded run with `xfail`, exactly as [`compare_ran`] does.
    ///
    /// # Errors
    ///
    /// Returns the report of [`compare_ran`] when the run and the list disagree.
    pub fn check(&self, suite: &str, xfail: XFail) -> Result<Summary, String> {
        compare_ran(suite, &self.ran, &self.failures, xfail)
    }
}

fn compare_inner(
    suite: &str,
    ran: Option<&[&str]>,
    failures: &[String],
    ran_count: usize,
    xfail: XFail,
) -> Result<Summary, String> {
    let mut problems: Vec<String> = Vec::new();

    let mut listed: BTreeMap<&str, usize> = BTreeMap::new();
    for &(name, reason) in xfail {
        *listed.entry(name).or_default() += 1;
        if reason.trim().is_empty() {
            problems.push(format!("  empty reason (say why it fails): {name}"));
        }
    }
    for (name, count) in &listed {
        if *count > 1 {
            problems.push(format!(
                "  duplicate entry ({count} times; keep one): {name}"
            ));
        }
    }

    if let Some(ran) = ran {
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for name in ran {
            *seen.entry(name).or_default() += 1;
        }
        for (name, count) in seen.iter().filter(|(_, count)| **count > 1) {
            problems.push(format!(
                "  case ran {count} times (full names must be unique): {name}"
            ));
        }
    }

    let mut failed: BTreeSet<&str> = BTreeSet::new();
    for name in failures {
        if !failed.insert(name) {
            problems.push(format!(
                "  failure reported twice (full names must be unique): {name}"
            ));
        }
    }
    for name in &failed {
        if !listed.contains_key(name) {
            problems.push(format!(
                "  new failure (fix it, or list it with a reason): {name}"
            ));
        }
    }

    let ran_set: Option<BTreeSet<&str>> = ran.map(|ran| ran.iter().copied().collect());
    for name in listed.keys() {
        if failed.contains(name) {
            continue;
        }
        match &ran_set {
            Some(ran) if ran.contains(name) => problems.push(format!(
                "  unexpected pass (remove it from the list): {name}"
            )),
            Some(_) => problems.push(format!(
                "  stale entry, no such case ran (remove it from the list): {name}"
            )),
            None => problems.push(format!(
                "  listed case did not fail: it passed or did not run (remove it from the list): \
                 {name}"
            )),
        }
    }

    if !problems.is_empty() {
        return Err(format!(
            "expected-failure list of {suite} does not match the run ({} problems):\n{}",
            problems.len(),
            problems.join("\n")
        ));
    }
    let expected_failures = failed.len();
    Ok(Summary {
        suite: suite.to_owned(),
        ran: ran_count,
        passed: ran_count.saturating_sub(expected_failures),
        expected_failures,
    })
}

#[cfg(test)]
mod tests {
    use crate::xfail::{self, XFail};

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| (*name).to_owned()).collect()
    }

    const LIST: XFail = &[("s/g/b", "known gap")];

    #[test]
    fn a_matching_run_gives_counts() {
        let summary =
            xfail::compare_ran("s", &names(&["s/g/a", "s/g/b"]), &names(&["s/g/b"]), LIST)
                .expect("the run matches");
        assert_eq!(summary.ran, 2);
        assert_eq!(summary.passed, 1);
        assert_eq!(summary.expected_failures, 1);
        assert_eq!(
            summary.to_string(),
            "s: 2 ran, 1 passed, 1 expected failures"
        );
        let summary =
            xfail::compare("s", &names(&["s/g/b"]), 3, LIST).expect("the counted run matches");
        assert_eq!((summary.ran, summary.passed), (4, 3));
    }

    #[test]
    fn a_new_failure_fails() {
        let err = xfail::compare_ran(
            "s",
            &names(&["s/g/a", "s/g/b"]),
            &names(&["s/g/a", "s/g/b"]),
            LIST,
        )
        .expect_err("an unlisted failure must fail");
        assert!(err.contains("new failure"), "{err}");
        assert!(err.contains("s/g/a"), "{err}");
        let err = xfail::compare("s", &names(&["s/g/a", "s/g/b"]), 0, LIST)
            .expect_err("an unlisted failure must fail");
        assert!(err.contains("new failure"), "{err}");
    }

    #[test]
    fn an_unexpected_pass_fails() {
        let err = xfail::compare_ran("s", &names(&["s/g/a", "s/g/b"]), &[], LIST)
            .expect_err("a listed case that passed must fail");
        assert!(err.contains("unexpected pass"), "{err}");
        assert!(err.contains("remove it from the list"), "{err}");
        assert!(err.contains("s/g/b"), "{err}");
        let err =
            xfail::compare("s", &[], 2, LIST).expect_err("a listed case that passed must fail");
        assert!(err.contains("remove it from the list"), "{err}");
    }

    #[test]
    fn a_stale_entry_fails() {
        let err = xfail::compare_ran("s", &names(&["s/g/a"]), &[], LIST)
            .expect_err("an entry naming no case must fail");
        assert!(err.contains("stale entry"), "{err}");
        assert!(err.contains("s/g/b"), "{err}");
    }

    #[test]
    fn an_empty_reason_fails() {
        const EMPTY: XFail = &[("s/g/a", " ")];
        let err = xfail::compare_ran("s", &names(&["s/g/a"]), &names(&["s/g/a"]), EMPTY)
            .expect_err("an entry without a reason must fail");
        assert!(err.contains("empty reason"), "{err}");
    }

    #[test]
    fn a_duplicate_entry_fails() {
        const TWICE: XFail = &[("s/g/a", "one"), ("s/g/a", "two")];
        let err = xfail::compare_ran("s", &names(&["s/g/a"]), &names(&["s/g/a"]), TWICE)
            .expect_err("a duplicated entry must fail");
        assert!(err.contains("duplicate entry"), "{err}");
    }

    #[test]
    fn duplicate_case_names_fail() {
        let err = xfail::compare_ran("s", &names(&["s/g/a", "s/g/a"]), &[], &[])
            .expect_err("a name that ran twice must fail");
        assert!(err.contains("ran 2 times"), "{err}");
    }

    #[test]
    fn the_collector_records_in_order() {
        let mut run = xfail::Run::new();
        run.record("s/g/a", true);
        run.record("s/g/b", false);
        assert_eq!(run.ran, ["s/g/a", "s/g/b"]);
        assert_eq!(run.failures, ["s/g/b"]);
        assert!(run.check("s", LIST).is_ok());
        run.record("s/g/c", false);
        let err = run.check("s", LIST).expect_err("a new failure must fail");
        assert!(
            err.starts_with("expected-failure list of s does not match"),
            "{err}"
        );
    }
}
