//! `cargo xtask props`: runs the property tests with many cases on a fresh seed and records the run in RELIABILITY.md.
//!
//! The property tests of the facade (`invariants::every_target_keeps_every_invariant`,
//! `loss::nothing_on_the_lift_list_vanishes_from_generated_schemas` and
//! `soundness::an_instance_a_narrowed_output_accepts_is_accepted_by_the_original`) run 64 cases on a fixed seed in every
//! `cargo test`; this verb runs them with `PROPTEST_CASES` (10,000 unless `--cases N` says otherwise) and
//! `PROPTEST_RNG_SEED` (a fresh seed unless `--seed S`), reads the `props: ` line each prints on stderr, and writes
//! the cases, seed, wall time and findings with the commit into RELIABILITY.md. A finding (a failing case, which
//! proptest also saves to `llmshim/proptest-regressions/invariants.txt`) is recorded with proptest's minimal input,
//! and the verb exits 1.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Stdio;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::{metadata, record, reliability};

/// The property tests, by full name, with what one case of each checks.
const PROPERTIES: [(&str, &str); 3] = [
    (
        "invariants::every_target_keeps_every_invariant",
        "normalized for every built-in target, strict off and on: no panic, memo equals no memo, the output passes its \
         checks, holds no reference and only input literals, and a second pass changes nothing",
    ),
    (
        "loss::nothing_on_the_lift_list_vanishes_from_generated_schemas",
        "normalized for every built-in target, strict off and on: the loss invariant holds",
    ),
    (
        "soundness::an_instance_a_narrowed_output_accepts_is_accepted_by_the_original",
        "normalized for every built-in target, strict off and on: every instance built from a narrowed output that \
         the output accepts is accepted by the original, read as the first wave's merges read it",
    ),
];

/// The cases per property unless `--cases` says otherwise.
const DEFAULT_CASES: u64 = 10_000;

/// What one property's `props: ` line said.
#[derive(Debug, PartialEq)]
struct Outcome {
    name: String,
    cases: Option<u64>,
    seconds: Option<f64>,
    finding: Option<String>,
}

/// Runs the properties and writes the `props` section; exits 1 on a finding or a run that printed no line.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<u8, String> {
    let (cases, seed) = parse_args(args)?;
    let machine = reliability::machine_and_load();
    let test_args = test_args();
    println!(
        "props: PROPTEST_CASES={cases} PROPTEST_RNG_SEED={seed} cargo {}",
        test_args.join(" ")
    );
    let started = Instant::now();
    let output = metadata::cargo()
        .args(&test_args)
        .current_dir(root)
        .env("PROPTEST_CASES", cases.to_string())
        .env("PROPTEST_RNG_SEED", seed.to_string())
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run cargo test: {e}"))?;
    let total = started.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Cargo's and the tests' own messages, shown after the run since they were read for the `props:` lines.
    eprint!("{stderr}");
    let mut outcomes = Vec::new();
    for (name, _) in PROPERTIES {
        let short = name.rsplit("::").next().unwrap_or(name);
        let outcome = parse_line(&stderr, short).unwrap_or(Outcome {
            name: short.to_owned(),
            cases: None,
            seconds: None,
            finding: Some(format!(
                "the test printed no `props:` line (cargo test exited with {}); see its output",
                output.status
            )),
        });
        println!(
            "props: {short}: {}",
            outcome
                .finding
                .as_deref()
                .map_or_else(|| "no finding".to_owned(), |f| format!("FINDING {f}"))
        );
        outcomes.push(outcome);
    }
    let commit = record::commit(root);
    let date = reliability::today();
    let summary = summary(&outcomes, cases, seed, &commit, &date);
    let body = render(
        &outcomes, cases, seed, total, &commit, &machine, &date, &summary,
    );
    record::publish(root, "props", &body, &summary)?;
    println!(
        "props: wrote the props section of {} and its quote in README.md",
        record::FILE
    );
    let clean = outcomes.iter().all(|o| o.finding.is_none()) && output.status.success();
    Ok(u8::from(!clean))
}

/// `--cases N` and `--seed S`; the seed is fresh when not given.
fn parse_args(args: &[String]) -> Result<(u64, u64), String> {
    let mut cases = DEFAULT_CASES;
    let mut seed = None;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest
            .next()
            .ok_or_else(|| format!("{flag} needs a value"))?
            .parse::<u64>()
            .map_err(|e| format!("{flag}: {e}"))?;
        match flag.as_str() {
            "--cases" => cases = value,
            "--seed" => seed = Some(value),
            other => {
                return Err(format!(
                    "unknown argument {other} (props takes --cases N and --seed S)"
                ));
            }
        }
    }
    Ok((cases, seed.unwrap_or_else(fresh_seed)))
}

/// A seed from the clock's nanoseconds and the process id.
fn fresh_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    #[expect(
        clippy::cast_possible_truncation,
        reason = "any 64 bits of the clock make a seed"
    )]
    let low = nanos as u64;
    low ^ u64::from(std::process::id()).rotate_left(32)
}

/// The arguments after `cargo`: the facade's test binary, the two properties by exact name, both at once.
fn test_args() -> Vec<String> {
    let mut args: Vec<String> = ["test", "-p", "llmshim-schema", "--test", "it", "--"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    args.extend(PROPERTIES.iter().map(|(name, _)| (*name).to_owned()));
    args.extend(["--exact", "--nocapture", "--test-threads=2"].map(str::to_owned));
    args
}

/// The outcome in the `props: <name>: …` line of `stderr`, if there is one.
fn parse_line(stderr: &str, name: &str) -> Option<Outcome> {
    let prefix = format!("props: {name}: ");
    let line = stderr.lines().find(|l| l.starts_with(&prefix))?;
    let rest = &line[prefix.len()..];
    let seconds = rest
        .rsplit(", ")
        .find_map(|part| part.strip_suffix(" s").and_then(|n| n.parse::<f64>().ok()))
        .or_else(|| {
            rest.split("after ")
                .nth(1)
                .and_then(|t| t.split(" s").next())
                .and_then(|n| n.parse().ok())
        });
    if let Some(cases) = cases_passed(rest) {
        return Some(Outcome {
            name: name.to_owned(),
            cases: Some(cases),
            seconds,
            finding: None,
        });
    }
    // A failure: proptest's message follows the seed; keep its first lines (the minimal input comes last).
    let message = stderr
        .split(&prefix)
        .nth(1)
        .unwrap_or(rest)
        .lines()
        .take(12)
        .collect::<Vec<_>>()
        .join(" ");
    Some(Outcome {
        name: name.to_owned(),
        cases: None,
        seconds,
        finding: Some(message),
    })
}

/// Reads `<N> cases passed, …` at the start of a `props:` line's text.
fn cases_passed(text: &str) -> Option<u64> {
    let (count, rest) = text.split_once(' ')?;
    if rest.starts_with("cases passed") {
        count.parse().ok()
    } else {
        None
    }
}

/// The sentence the README quotes.
fn summary(outcomes: &[Outcome], cases: u64, seed: u64, commit: &str, date: &str) -> String {
    let held = outcomes.iter().filter(|o| o.finding.is_none()).count();
    format!(
        "{held} of {} property tests held on {} generated schemas each, every target strict and not (seed {seed}, \
         commit {commit}, {date}){}",
        outcomes.len(),
        group_digits(cases),
        if held == outcomes.len() {
            ""
        } else {
            "; the others have a finding"
        }
    )
}

/// The `props` section.
#[expect(
    clippy::too_many_arguments,
    reason = "one section, each argument a fact of the run"
)]
fn render(
    outcomes: &[Outcome],
    cases: u64,
    seed: u64,
    total: f64,
    commit: &str,
    machine: &str,
    date: &str,
    summary: &str,
) -> String {
    let mut out = String::new();
    let findings = outcomes.iter().filter(|o| o.finding.is_some()).count();
    let _ = writeln!(out, "## Property tests\n");
    let _ = writeln!(
        out,
        "Generated schemas (nested objects, references and cycles, combinators in both spellings, type arrays, \
         patterns, keyword-like literals and every keyword of the contract's lift list) through the facade's property \
         tests; each property runs the cases saved in `llmshim/proptest-regressions/invariants.txt` first, then \
         {} new ones. `cargo test` runs the same properties with 64 cases on a fixed seed.",
        group_digits(cases)
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "- Command: `cargo xtask props` (`PROPTEST_CASES={cases} PROPTEST_RNG_SEED=<seed> cargo {}`; `--cases N` and \
         `--seed S` change the two).",
        test_args().join(" ")
    );
    let _ = writeln!(out, "- Commit: {commit}.");
    let _ = writeln!(out, "- {machine}");
    let _ = writeln!(
        out,
        "- Date: {date}; seed {seed}; {} in all, build included.",
        fmt_seconds(total)
    );
    let _ = writeln!(
        out,
        "- Result: {} of {} properties held on every case; {findings} with a finding.",
        outcomes.len() - findings,
        outcomes.len()
    );
    let _ = writeln!(out, "{}", record::in_short(summary));
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "| property | what each case checks | cases | wall time | findings |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---|");
    for outcome in outcomes {
        let what = PROPERTIES
            .iter()
            .find(|(name, _)| name.ends_with(&outcome.name))
            .map_or("", |(_, what)| what);
        let _ = writeln!(
            out,
            "| `{}` | {what} | {} | {} | {} |",
            outcome.name,
            outcome.cases.map_or_else(|| "—".to_owned(), group_digits),
            outcome.seconds.map_or_else(|| "—".to_owned(), fmt_seconds),
            outcome
                .finding
                .as_deref()
                .map_or_else(|| "none".to_owned(), |f| f.replace('|', "\\|"))
        );
    }
    out
}

/// `12345` as `12,345`.
pub(crate) fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Seconds with one decimal, or minutes and seconds from two minutes on.
pub(crate) fn fmt_seconds(s: f64) -> String {
    if s >= 120.0 {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a run shorter than centuries"
        )]
        let whole = s.round() as u64;
        format!("{} min {} s", whole / 60, whole % 60)
    } else {
        format!("{s:.1} s")
    }
}

#[cfg(test)]
mod tests {
    use crate::props::{Outcome, group_digits, parse_args, parse_line, render, summary};

    #[test]
    fn a_passing_and_a_failing_line_are_read() {
        let stderr = "noise\nprops: every_target_keeps_every_invariant: 10000 cases passed, seed 7, 161.3 s\n\
                      props: nothing_on_the_lift_list_vanishes_from_generated_schemas: FAILED after 3.5 s, seed 7: \
                      Test failed: chat: [\"x\"]\nminimal failing input: {}\n";
        assert_eq!(
            parse_line(stderr, "every_target_keeps_every_invariant"),
            Some(Outcome {
                name: "every_target_keeps_every_invariant".to_owned(),
                cases: Some(10_000),
                seconds: Some(161.3),
                finding: None
            })
        );
        let failed = parse_line(
            stderr,
            "nothing_on_the_lift_list_vanishes_from_generated_schemas",
        )
        .expect("a line");
        assert_eq!((failed.cases, failed.seconds), (None, Some(3.5)));
        let finding = failed.finding.expect("a finding");
        assert!(
            finding.contains("Test failed: chat") && finding.contains("minimal failing input"),
            "{finding}"
        );
        assert!(parse_line(stderr, "absent").is_none());
    }

    #[test]
    fn arguments_and_the_table() {
        assert_eq!(
            parse_args(&["--cases".into(), "50".into(), "--seed".into(), "9".into()]),
            Ok((50, 9))
        );
        assert!(parse_args(&["--cases".into()]).is_err());
        assert!(parse_args(&["--fast".into(), "1".into()]).is_err());
        assert_eq!(group_digits(10_000), "10,000");
        assert_eq!(group_digits(999), "999");
        let text = render(
            &[Outcome {
                name: "every_target_keeps_every_invariant".to_owned(),
                cases: Some(10_000),
                seconds: Some(161.3),
                finding: None,
            }],
            10_000,
            7,
            200.0,
            "`abc`",
            "Machine: m.",
            "2026-12-01",
            "the summary",
        );
        assert!(text.contains("- Commit: `abc`."), "{text}");
        assert!(text.contains("\n- In short: the summary\n"), "{text}");
        assert!(text.contains("| 10,000 | 2 min 41 s | none |"), "{text}");
        assert!(text.contains("seed 7; 3 min 20 s in all"), "{text}");
        assert!(text.lines().all(|l| l.trim_end() == l));
        let ok = Outcome {
            name: "a".to_owned(),
            cases: Some(5),
            seconds: None,
            finding: None,
        };
        let bad = Outcome {
            name: "b".to_owned(),
            cases: None,
            seconds: None,
            finding: Some("x".to_owned()),
        };
        assert_eq!(
            summary(&[ok], 10_000, 7, "`abc`", "2026-12-01"),
            "1 of 1 property tests held on 10,000 generated schemas each, every target strict and not (seed 7, \
             commit `abc`, 2026-12-01)"
        );
        assert!(summary(&[bad], 10, 7, "`abc`", "d").ends_with("; the others have a finding"));
    }
}
