//! `cargo xtask fuzz`: runs every fuzz target of `fuzz/` for a fixed time and records the runs in RELIABILITY.md.
//!
//! The fuzz crate sits outside the workspace and needs cargo-fuzz (`cargo install cargo-fuzz`) and a nightly
//! toolchain; this verb checks both, seeds `fuzz/corpus/` from the shared test data (`python3 fuzz/seed.py`),
//! builds the targets once, then runs each for `--seconds N` (300 by default; further arguments name the targets to
//! run) with libFuzzer's final statistics on, and writes per target the fuzzing time, executions, corpus size, peak
//! memory and findings (an exit with an error, or a new file in `fuzz/artifacts/<target>/`) with the commit into
//! RELIABILITY.md. It exits 1 when a target has a finding. CI does not run it.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::props::{fmt_seconds, group_digits};
use crate::{host, record, reliability};

/// The fuzz targets, in `fuzz/Cargo.toml` order.
const TARGETS: [&str; 4] = ["resolve", "normalize", "validate", "batch_line"];

/// The seconds each target runs unless `--seconds` says otherwise.
const DEFAULT_SECONDS: u64 = 300;

/// The libFuzzer options after the time limit; an input slower than 10 s or larger than 4 GiB is a finding.
const LIBFUZZER: [&str; 3] = ["-timeout=10", "-rss_limit_mb=4096", "-print_final_stats=1"];

/// One target's run.
#[derive(Debug, Default, PartialEq)]
struct Run {
    target: String,
    /// libFuzzer's own time for the runs (`Done N runs in S second(s)`).
    seconds: Option<u64>,
    executions: Option<u64>,
    per_second: Option<u64>,
    corpus: Option<u64>,
    peak_mb: Option<u64>,
    /// Wall time of the whole command, corpus loading included.
    wall: f64,
    /// What was found: the exit status and any new artifact, or nothing.
    findings: Vec<String>,
}

/// Checks the tools, seeds, builds and runs the targets, then writes the `fuzz` section.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<u8, String> {
    let (seconds, targets) = parse_args(args)?;
    let machine = reliability::machine_and_load();
    let fuzz = root.join("fuzz");
    let cargo_fuzz = tool_version(&fuzz, &["+nightly", "fuzz", "--version"]).ok_or(
        "cargo-fuzz or the nightly toolchain is missing: run `cargo install cargo-fuzz` and \
         `rustup toolchain install nightly`",
    )?;
    let nightly = tool_version(&fuzz, &["+nightly", "--version"]).unwrap_or_default();
    println!("fuzz: {cargo_fuzz}; {nightly}");
    println!("fuzz: python3 fuzz/seed.py");
    let seeded = Command::new("python3")
        .arg("fuzz/seed.py")
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run python3 fuzz/seed.py: {e}"))?;
    if !seeded.success() {
        return Err(format!("fuzz/seed.py failed ({seeded})"));
    }
    println!("fuzz: cargo +nightly fuzz build");
    let built = Command::new("cargo")
        .args(["+nightly", "fuzz", "build"])
        .current_dir(&fuzz)
        .status()
        .map_err(|e| format!("cannot run cargo fuzz build: {e}"))?;
    if !built.success() {
        return Err(format!("cargo fuzz build failed ({built})"));
    }
    let mut runs = Vec::new();
    for target in &targets {
        let run = run_target(&fuzz, target, seconds)?;
        println!(
            "fuzz: {target}: {} executions in {} s, {}",
            run.executions.map_or_else(|| "?".to_owned(), group_digits),
            run.seconds
                .map_or_else(|| "?".to_owned(), |s| s.to_string()),
            if run.findings.is_empty() {
                "no finding".to_owned()
            } else {
                format!("FINDING: {}", run.findings.join("; "))
            }
        );
        runs.push(run);
    }
    let commit = record::commit(root);
    let date = reliability::today();
    let summary = summary(&runs, seconds, &commit, &date);
    let body = render(
        &runs,
        seconds,
        &commit,
        &format!("{cargo_fuzz}; {nightly}"),
        &machine,
        &date,
        &summary,
    );
    record::publish(root, "fuzz", &body, &summary)?;
    println!(
        "fuzz: wrote the fuzz section of {} and its quote in README.md",
        record::FILE
    );
    Ok(u8::from(runs.iter().any(|r| !r.findings.is_empty())))
}

/// `--seconds N` and target names.
fn parse_args(args: &[String]) -> Result<(u64, Vec<String>), String> {
    let mut seconds = DEFAULT_SECONDS;
    let mut targets = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--seconds" {
            seconds = rest
                .next()
                .ok_or("--seconds needs a value")?
                .parse()
                .map_err(|e| format!("--seconds: {e}"))?;
        } else if TARGETS.contains(&arg.as_str()) {
            targets.push(arg.clone());
        } else {
            return Err(format!(
                "unknown argument {arg} (fuzz takes --seconds N and target names: {})",
                TARGETS.join(", ")
            ));
        }
    }
    if targets.is_empty() {
        targets = TARGETS.iter().map(|t| (*t).to_owned()).collect();
    }
    Ok((seconds, targets))
}

/// The first line a tool prints for `args`, or `None` when it cannot run.
fn tool_version(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("cargo")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    out.status.success().then(|| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_owned()
    })
}

/// The files in `fuzz/artifacts/<target>/`.
fn artifacts(fuzz: &Path, target: &str) -> BTreeSet<String> {
    fs::read_dir(fuzz.join("artifacts").join(target))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Runs one target for `seconds` and reads libFuzzer's statistics from its output.
fn run_target(fuzz: &Path, target: &str, seconds: u64) -> Result<Run, String> {
    let before = artifacts(fuzz, target);
    fs::create_dir_all(fuzz.join("corpus").join(target))
        .map_err(|e| format!("cannot create the corpus folder of {target}: {e}"))?;
    let time = format!("-max_total_time={seconds}");
    let mut args = vec!["+nightly", "fuzz", "run", target];
    let corpus = format!("corpus/{target}");
    args.push(&corpus);
    args.push("--");
    args.push(&time);
    args.extend(LIBFUZZER);
    println!("fuzz: cargo {}", args.join(" "));
    let started = Instant::now();
    let output = Command::new("cargo")
        .args(&args)
        .current_dir(fuzz)
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run cargo fuzz run {target}: {e}"))?;
    let wall = started.elapsed().as_secs_f64();
    let text = String::from_utf8_lossy(&output.stderr);
    let mut run = parse_stats(target, &text);
    run.wall = wall;
    if !output.status.success() {
        let last = text
            .lines()
            .rev()
            .find(|l| l.contains("ERROR") || l.contains("panicked"))
            .unwrap_or("")
            .trim();
        run.findings.push(format!("exit {}: {last}", output.status));
    }
    let after = artifacts(fuzz, target);
    for new in after.difference(&before) {
        run.findings.push(format!("fuzz/artifacts/{target}/{new}"));
    }
    Ok(run)
}

/// The statistics libFuzzer prints at the end of a run.
fn parse_stats(target: &str, text: &str) -> Run {
    let stat = |name: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    let done = text.lines().rev().find_map(|l| {
        let rest = l.trim().strip_prefix("Done ")?;
        let (runs, rest) = rest.split_once(" runs in ")?;
        let seconds = rest.split_whitespace().next()?;
        Some((runs.parse::<u64>().ok()?, seconds.parse::<u64>().ok()?))
    });
    let corpus = text.lines().rev().find_map(|l| {
        let at = l.find(" corp: ")?;
        l[at + 7..].split('/').next()?.trim().parse::<u64>().ok()
    });
    Run {
        target: target.to_owned(),
        seconds: done.map(|d| d.1),
        executions: stat("stat::number_of_executed_units:").or(done.map(|d| d.0)),
        per_second: stat("stat::average_exec_per_sec:"),
        corpus,
        peak_mb: stat("stat::peak_rss_mb:"),
        wall: 0.0,
        findings: Vec::new(),
    }
}

/// The sentence the README quotes.
fn summary(runs: &[Run], seconds: u64, commit: &str, date: &str) -> String {
    let clean = runs.iter().filter(|r| r.findings.is_empty()).count();
    let executions: u64 = runs.iter().filter_map(|r| r.executions).sum();
    let names: Vec<&str> = runs.iter().map(|r| r.target.as_str()).collect();
    format!(
        "{clean} of {} fuzz targets ({}) ran {seconds} s each without a finding, {} executions in all (commit {commit}, \
         {date})",
        runs.len(),
        names.join(", "),
        group_digits(executions)
    )
}

/// The `fuzz` section.
fn render(
    runs: &[Run],
    seconds: u64,
    commit: &str,
    tools: &str,
    machine: &str,
    date: &str,
    summary: &str,
) -> String {
    let mut out = String::new();
    let found = runs.iter().filter(|r| !r.findings.is_empty()).count();
    let _ = writeln!(out, "## Fuzzing\n");
    let _ = writeln!(
        out,
        "The libFuzzer targets of `fuzz/` (`fuzz/README.md` says what each feeds and asserts), seeded from the \
         shared test data by `fuzz/seed.py`. A finding is a crash, a failed assertion, an input slower than 10 s or \
         one needing more than 4 GiB; libFuzzer writes it to `fuzz/artifacts/<target>/`."
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "- Command: `cargo xtask fuzz` (`--seconds N`, {DEFAULT_SECONDS} by default, and target names change the \
         run); per target it runs `cargo +nightly fuzz run <target> corpus/<target> -- -max_total_time=<N> {}` in \
         `fuzz/`.",
        LIBFUZZER.join(" ")
    );
    let _ = writeln!(out, "- Commit: {commit}.");
    let _ = writeln!(out, "- Tools: {tools}.");
    let _ = writeln!(out, "- {machine}");
    let _ = writeln!(
        out,
        "- Date: {date}; {seconds} s per target, {} cores.",
        host::cores()
    );
    let _ = writeln!(
        out,
        "- Result: {} of {} targets ran without a finding.",
        runs.len() - found,
        runs.len()
    );
    let _ = writeln!(out, "{}", record::in_short(summary));
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "| target | fuzzing time | executions | executions per second | corpus | peak memory | wall time | findings |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---|");
    let num = |v: Option<u64>| v.map_or_else(|| "—".to_owned(), group_digits);
    for run in runs {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} | {} | {} |",
            run.target,
            run.seconds
                .map_or_else(|| "—".to_owned(), |s| format!("{s} s")),
            num(run.executions),
            num(run.per_second),
            num(run.corpus),
            run.peak_mb
                .map_or_else(|| "—".to_owned(), |m| format!("{m} MB")),
            fmt_seconds(run.wall),
            if run.findings.is_empty() {
                "none".to_owned()
            } else {
                run.findings.join("; ").replace('|', "\\|")
            }
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::fuzz::{Run, parse_args, parse_stats, render, summary};

    #[test]
    fn libfuzzer_statistics_are_read() {
        let text = "#2\tINITED cov: 10 ft: 11 corp: 5/120b exec/s: 0\n\
                    #99999\tDONE   cov: 2417 ft: 9001 corp: 1834/2101Kb lim: 4096 exec/s: 333 rss: 512Mb\n\
                    Done 99999 runs in 301 second(s)\n\
                    stat::number_of_executed_units: 99999\n\
                    stat::average_exec_per_sec:     332\n\
                    stat::new_units_added:          37\n\
                    stat::slowest_unit_time_sec:    0\n\
                    stat::peak_rss_mb:              512\n";
        let run = parse_stats("normalize", text);
        assert_eq!(
            (
                run.seconds,
                run.executions,
                run.per_second,
                run.corpus,
                run.peak_mb
            ),
            (Some(301), Some(99_999), Some(332), Some(1834), Some(512))
        );
        assert!(run.findings.is_empty());
    }

    #[test]
    fn arguments_and_the_table() {
        let (seconds, targets) =
            parse_args(&["--seconds".into(), "5".into(), "validate".into()]).expect("valid");
        assert_eq!((seconds, targets), (5, vec!["validate".to_owned()]));
        assert_eq!(parse_args(&[]).expect("valid").1.len(), 4);
        assert!(parse_args(&["nope".into()]).is_err());
        let run = Run {
            target: "resolve".to_owned(),
            seconds: Some(300),
            executions: Some(1_234_567),
            per_second: Some(4115),
            corpus: Some(900),
            peak_mb: Some(80),
            wall: 310.2,
            findings: vec!["fuzz/artifacts/resolve/crash-1".to_owned()],
        };
        assert_eq!(
            summary(std::slice::from_ref(&run), 300, "`abc`", "2026-12-01"),
            "0 of 1 fuzz targets (resolve) ran 300 s each without a finding, 1,234,567 executions in all (commit \
             `abc`, 2026-12-01)"
        );
        let text = render(
            &[run],
            300,
            "`abc`",
            "cargo-fuzz 0.13.2",
            "Machine: m.",
            "2026-12-01",
            "the summary",
        );
        assert!(text.contains("\n- In short: the summary\n"), "{text}");
        assert!(
            text.contains("- Result: 0 of 1 targets ran without a finding."),
            "{text}"
        );
        assert!(
            text.contains("| `resolve` | 300 s | 1,234,567 | 4,115 | 900 | 80 MB | 5 min 10 s | fuzz/artifacts/resolve/crash-1 |"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.trim_end() == l));
    }
}
