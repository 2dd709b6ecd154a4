//! `cargo xtask batch`: times the release `llmshim batch` over the MCP corpus for every target and records its
//! throughput and peak memory in RELIABILITY.md.
//!
//! The input is the batch workload (`llmshim_benches::workload::batch_lines`, printed by the example `batch_lines`
//! and counted by the command line's corpus test). The verb builds the `llmshim` binary in release mode, writes the
//! input to `target/batch-lines.jsonl`, then runs `llmshim batch` over it `--runs N` times (5 by default), each in a
//! fresh process reading the file on stdin and writing its answers to a file. Each run gives lines per second (all
//! lines over the process's wall time, start-up included) and the peak resident memory (`VmHWM` of the process, read
//! every millisecond while it runs). A run whose answers are not one JSON object per line, or hold an `error`, is a
//! finding, and the verb exits 1.

use std::fmt::Write as _;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::props::group_digits;
use crate::{metadata, record, reliability};

/// The runs unless `--runs` says otherwise.
const DEFAULT_RUNS: usize = 5;

/// How often a running batch is read for its peak memory.
const POLL: Duration = Duration::from_millis(1);

/// The cargo arguments that build the binary; they are also quoted in RELIABILITY.md.
const BUILD_ARGS: [&str; 7] = [
    "build",
    "--release",
    "-p",
    "llmshim-cli",
    "--bin",
    "llmshim",
    "--message-format=json-render-diagnostics",
];

/// The cargo arguments that print the input.
const LINES_ARGS: [&str; 6] = [
    "run",
    "--quiet",
    "-p",
    "llmshim-benches",
    "--example",
    "batch_lines",
];

/// One run of `llmshim batch`.
#[derive(Debug, Clone, PartialEq)]
struct Run {
    seconds: f64,
    peak_kib: Option<u64>,
    /// What was wrong with the answers, if anything.
    finding: Option<String>,
}

/// Builds, writes the input, runs the batch `--runs` times and writes the `batch` section and its README quote.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<u8, String> {
    let runs = parse_args(args)?;
    let machine = reliability::machine_and_load();
    let exe = build(root)?;
    let input = write_input(root)?;
    let text =
        fs::read_to_string(&input).map_err(|e| format!("cannot read {}: {e}", input.display()))?;
    let lines = text.lines().count();
    let output = root.join("target").join("batch-answers.jsonl");
    let mut measured = Vec::with_capacity(runs);
    for n in 1..=runs {
        let run = run_once(&exe, &input, &output, lines)?;
        println!(
            "batch: run {n}: {lines} lines in {:.3} s, {:.0} lines/s, peak {}{}",
            run.seconds,
            rate(lines, run.seconds),
            run.peak_kib.map_or_else(|| "?".to_owned(), fmt_mib),
            run.finding
                .as_deref()
                .map_or_else(String::new, |f| format!(", FINDING: {f}"))
        );
        measured.push(run);
    }
    let commit = record::commit(root);
    let date = reliability::today();
    let summary = summary(lines, &measured, &commit, &date);
    let body = render(lines, &measured, &commit, &machine, &date, &summary);
    record::publish(root, "batch", &body, &summary)?;
    println!(
        "batch: wrote the batch section of {} and its quote in README.md",
        record::FILE
    );
    Ok(u8::from(measured.iter().any(|r| r.finding.is_some())))
}

/// `--runs N`.
fn parse_args(args: &[String]) -> Result<usize, String> {
    match args {
        [] => Ok(DEFAULT_RUNS),
        [flag, value] if flag == "--runs" => match value.parse::<usize>() {
            Ok(0) => Err("--runs must be at least 1".to_owned()),
            Ok(n) => Ok(n),
            Err(e) => Err(format!("--runs: {e}")),
        },
        _ => Err(format!(
            "unknown arguments {} (batch takes --runs N)",
            args.join(" ")
        )),
    }
}

/// Builds the binary in release mode and returns its path, as cargo reports it.
fn build(root: &Path) -> Result<PathBuf, String> {
    println!("batch: cargo {}", BUILD_ARGS.join(" "));
    let output = metadata::cargo()
        .args(BUILD_ARGS)
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo build: {e}"))?;
    if !output.status.success() {
        return Err(format!("building llmshim failed ({})", output.status));
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "llmshim")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "cargo reported no executable for llmshim".to_owned())
}

/// Writes the batch workload to `target/batch-lines.jsonl` and returns its path.
fn write_input(root: &Path) -> Result<PathBuf, String> {
    println!(
        "batch: cargo {} > target/batch-lines.jsonl",
        LINES_ARGS.join(" ")
    );
    let path = root.join("target").join("batch-lines.jsonl");
    let file = File::create(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    let status = metadata::cargo()
        .args(LINES_ARGS)
        .current_dir(root)
        .stdout(file)
        .stderr(Stdio::inherit())
        .status()
        .map_err(|e| format!("cannot run the batch_lines example: {e}"))?;
    if status.success() {
        Ok(path)
    } else {
        Err(format!("the batch_lines example failed ({status})"))
    }
}

/// Runs `llmshim batch` once over `input`, reading its peak memory while it runs, and checks its answers.
fn run_once(exe: &Path, input: &Path, output: &Path, lines: usize) -> Result<Run, String> {
    let stdin = File::open(input).map_err(|e| format!("cannot open {}: {e}", input.display()))?;
    let stdout =
        File::create(output).map_err(|e| format!("cannot create {}: {e}", output.display()))?;
    let started = Instant::now();
    let mut child = Command::new(exe)
        .arg("batch")
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {} batch: {e}", exe.display()))?;
    let status_path = PathBuf::from(format!("/proc/{}/status", child.id()));
    let mut peak_kib = None;
    let status = loop {
        // The high-water mark only grows, so the last reading before the exit is the closest to the peak.
        if let Some(kib) = fs::read_to_string(&status_path)
            .ok()
            .as_deref()
            .and_then(vm_hwm)
        {
            peak_kib = Some(kib);
        }
        if let Some(status) = child
            .try_wait()
            .map_err(|e| format!("cannot wait for llmshim batch: {e}"))?
        {
            break status;
        }
        thread::sleep(POLL);
    };
    let seconds = started.elapsed().as_secs_f64();
    let answers =
        fs::read_to_string(output).map_err(|e| format!("cannot read {}: {e}", output.display()))?;
    let finding = if status.success() {
        check_answers(&answers, lines)
    } else {
        Some(format!("llmshim batch exited with {status}"))
    };
    Ok(Run {
        seconds,
        peak_kib,
        finding,
    })
}

/// The `VmHWM` of a `/proc/<pid>/status` text, in KiB.
fn vm_hwm(status: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// What is wrong with the answers to `lines` input lines: not one JSON object per line, or an `error` answer.
fn check_answers(answers: &str, lines: usize) -> Option<String> {
    let count = answers.lines().count();
    if count != lines {
        return Some(format!("{count} answers to {lines} lines"));
    }
    let mut errors = 0usize;
    for (n, answer) in answers.lines().enumerate() {
        match serde_json::from_str::<Value>(answer) {
            Ok(Value::Object(map)) if map.contains_key("error") => errors += 1,
            Ok(Value::Object(_)) => {}
            _ => return Some(format!("answer {} is not a JSON object", n + 1)),
        }
    }
    (errors > 0).then(|| format!("{errors} error answers"))
}

/// Lines per second.
fn rate(lines: usize, seconds: f64) -> f64 {
    #[expect(clippy::cast_precision_loss, reason = "line counts far below 2^52")]
    let lines = lines as f64;
    if seconds > 0.0 { lines / seconds } else { 0.0 }
}

/// KiB as MiB with one decimal.
fn fmt_mib(kib: u64) -> String {
    #[expect(clippy::cast_precision_loss, reason = "memory sizes far below 2^52")]
    let mib = kib as f64 / 1024.0;
    format!("{mib:.1} MiB")
}

/// The median of the runs' rates and the largest peak.
fn headline(lines: usize, runs: &[Run]) -> (f64, Option<u64>) {
    let mut rates: Vec<f64> = runs.iter().map(|r| rate(lines, r.seconds)).collect();
    rates.sort_by(f64::total_cmp);
    let median = rates.get(rates.len() / 2).copied().unwrap_or(0.0);
    (median, runs.iter().filter_map(|r| r.peak_kib).max())
}

/// The sentence the README quotes.
fn summary(lines: usize, runs: &[Run], commit: &str, date: &str) -> String {
    let (median, peak) = headline(lines, runs);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a rate, rounded"
    )]
    let median = median.round() as u64;
    let clean = runs.iter().filter(|r| r.finding.is_none()).count();
    format!(
        "`llmshim batch` (release build) over the MCP corpus for every target, {} lines: {} lines per second \
         (median of {} runs, start-up included), {} peak memory; {clean} of {} runs answered every line without an \
         error (commit {commit}, {date})",
        group_digits(lines as u64),
        group_digits(median),
        runs.len(),
        peak.map_or_else(|| "unknown".to_owned(), fmt_mib),
        runs.len()
    )
}

/// The `batch` section.
fn render(
    lines: usize,
    runs: &[Run],
    commit: &str,
    machine: &str,
    date: &str,
    summary: &str,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## Command-line batch throughput and memory\n");
    let _ = writeln!(
        out,
        "`llmshim batch` over the batch workload: per MCP tool file of the shared test data and per built-in target, \
         one `tools` line with all the file's tools and one `normalize` line \
         per tool schema with strict off and one with strict on, then one `mcp_tool` line per tool \
         (`llmshim_benches::workload::batch_lines`). Each run is a fresh process reading the file on stdin and \
         writing its answers to a file; its one memo warms up within the run. Lines per second are all lines over the \
         process's wall time, start-up included; peak memory is the process's `VmHWM`, read every millisecond while \
         it runs. A run is clean when it answers every line with a JSON object and none is an `error`."
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "- Command: `cargo xtask batch` (`--runs N`, {DEFAULT_RUNS} by default); it runs `cargo {}`, writes the \
         input with `cargo {}`, then `llmshim batch < target/batch-lines.jsonl` once per run.",
        BUILD_ARGS[..6].join(" "),
        LINES_ARGS.join(" ")
    );
    let _ = writeln!(out, "- Commit: {commit}.");
    let _ = writeln!(out, "- {machine}");
    let _ = writeln!(
        out,
        "- Date: {date}; {} lines per run.",
        group_digits(lines as u64)
    );
    let _ = writeln!(out, "{}", record::in_short(summary));
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "| run | wall time | lines per second | peak memory | findings |"
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|---|");
    for (n, run) in runs.iter().enumerate() {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a rate, rounded"
        )]
        let per_second = rate(lines, run.seconds).round() as u64;
        let _ = writeln!(
            out,
            "| {} | {:.3} s | {} | {} | {} |",
            n + 1,
            run.seconds,
            group_digits(per_second),
            run.peak_kib.map_or_else(|| "—".to_owned(), fmt_mib),
            run.finding.as_deref().unwrap_or("none").replace('|', "\\|")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::batch::{Run, check_answers, parse_args, render, summary, vm_hwm};

    #[test]
    fn arguments_status_and_answers_are_read() {
        assert_eq!(parse_args(&[]), Ok(5));
        assert_eq!(parse_args(&["--runs".into(), "2".into()]), Ok(2));
        assert!(parse_args(&["--runs".into(), "0".into()]).is_err());
        assert!(parse_args(&["--fast".into()]).is_err());
        assert_eq!(
            vm_hwm("Name:\tllmshim\nVmPeak:\t  9000 kB\nVmHWM:\t   16384 kB\n"),
            Some(16_384)
        );
        assert_eq!(vm_hwm("Name:\tllmshim\n"), None);
        assert_eq!(check_answers("{\"output\":{}}\n{\"output\":1}\n", 2), None);
        assert_eq!(
            check_answers("{}\n", 2),
            Some("1 answers to 2 lines".to_owned())
        );
        assert_eq!(
            check_answers("{\"error\":\"x\"}\n{}\n", 2),
            Some("1 error answers".to_owned())
        );
        assert_eq!(
            check_answers("{}\n[]\n", 2),
            Some("answer 2 is not a JSON object".to_owned())
        );
    }

    #[test]
    fn the_median_run_and_the_largest_peak_are_published() {
        let run = |seconds: f64, peak: u64| Run {
            seconds,
            peak_kib: Some(peak),
            finding: None,
        };
        let runs = [run(1.0, 10_240), run(0.5, 20_480), run(2.0, 15_360)];
        let text = summary(1000, &runs, "`abc`", "2026-12-01");
        assert_eq!(
            text,
            "`llmshim batch` (release build) over the MCP corpus for every target, 1,000 lines: 1,000 lines per \
             second (median of 3 runs, start-up included), 20.0 MiB peak memory; 3 of 3 runs answered every line \
             without an error (commit `abc`, 2026-12-01)"
        );
        let table = render(1000, &runs, "`abc`", "Machine: m.", "2026-12-01", &text);
        assert!(
            table.contains("| 2 | 0.500 s | 2,000 | 20.0 MiB | none |"),
            "{table}"
        );
        assert!(
            table.contains(&format!("\n- In short: {text}\n")),
            "{table}"
        );
        assert!(table.lines().all(|l| l.trim_end() == l));
    }
}
