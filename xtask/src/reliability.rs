//! `cargo xtask reliability`: runs every adversarial input in its own process and writes its section of RELIABILITY.md.
//!
//! The inputs and the code that runs them live in the example `benches/examples/adversarial/`, which the facade's
//! adversarial tests share. This verb builds the example in release mode once, asks it for its case names, runs
//! `adversarial <case>` once per case with a time limit, and collects the one JSON line each prints (outcome, wall
//! time, peak memory). A case that crashes or outlives the limit gets a row saying so; nothing is typed by hand.

use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::{host, metadata, record};

/// How long one case may run before it is killed and reported as a timeout.
const CASE_LIMIT: Duration = Duration::from_mins(1);

/// How often a running case is polled for its exit.
const POLL: Duration = Duration::from_millis(20);

/// The cargo arguments that build the example; they are also quoted in RELIABILITY.md.
const BUILD_ARGS: [&str; 7] = [
    "build",
    "--release",
    "-p",
    "llmshim-benches",
    "--example",
    "adversarial",
    "--message-format=json-render-diagnostics",
];

/// One row of the table.
struct Row {
    case: String,
    input: String,
    operation: String,
    outcome: String,
    wall: String,
    memory: String,
    /// Whether the case ended in a bounded outcome (not a crash and not a timeout).
    bounded: bool,
}

/// Builds the example, runs every case and writes `RELIABILITY.md`; exits 1 when some case crashed or timed out.
pub(crate) fn run(root: &Path) -> Result<u8, String> {
    let exe = build(root)?;
    let cases = list(&exe)?;
    let mut rows = Vec::with_capacity(cases.len());
    for case in &cases {
        let row = run_case(&exe, case)?;
        println!(
            "reliability: {}: {} ({}, {})",
            row.case, row.outcome, row.wall, row.memory
        );
        rows.push(row);
    }
    let body = render(&rows, &record::commit(root), &machine(), &today());
    record::write_section(root, "reliability", &body)?;
    let unbounded: Vec<&str> = rows
        .iter()
        .filter(|r| !r.bounded)
        .map(|r| r.case.as_str())
        .collect();
    println!(
        "reliability: wrote the reliability section of RELIABILITY.md with {} cases",
        rows.len()
    );
    if unbounded.is_empty() {
        Ok(0)
    } else {
        eprintln!(
            "reliability: not bounded ({} of {}): {}",
            unbounded.len(),
            rows.len(),
            unbounded.join(", ")
        );
        Ok(1)
    }
}

/// Builds the example in release mode and returns the path of its executable, as cargo reports it.
fn build(root: &Path) -> Result<PathBuf, String> {
    println!("reliability: cargo {}", BUILD_ARGS.join(" "));
    let output = metadata::cargo()
        .args(BUILD_ARGS)
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo build: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "building the adversarial example failed ({})",
            output.status
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| {
            message["reason"] == "compiler-artifact" && message["target"]["name"] == "adversarial"
        })
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "cargo reported no executable for the adversarial example".to_owned())
}

/// A case as `adversarial --list` describes it.
struct Described {
    name: String,
    input: String,
    operation: String,
}

/// The cases the example knows, in its order.
fn list(exe: &Path) -> Result<Vec<Described>, String> {
    let output = Command::new(exe)
        .arg("--list")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if !output.status.success() {
        return Err(format!("`adversarial --list` failed ({})", output.status));
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).map_err(|e| {
                format!("`adversarial --list` printed a line that is not JSON: {e}")
            })?;
            let text = |key: &str| v[key].as_str().unwrap_or("").to_owned();
            Ok(Described {
                name: text("case"),
                input: text("input"),
                operation: text("operation"),
            })
        })
        .collect()
}

/// Runs one case in its own process, with the time limit, and turns what it printed (or how it died) into a row.
fn run_case(exe: &Path, case: &Described) -> Result<Row, String> {
    let name = case.name.as_str();
    let start = Instant::now();
    let mut child = Command::new(exe)
        .arg(name)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {} {name}: {e}", exe.display()))?;
    // The pipes are drained on their own threads so that a chatty child cannot block on a full pipe.
    let stdout = child.stdout.take().map(drain);
    let stderr = child.stderr.take().map(drain);
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|e| format!("cannot wait for case {name}: {e}"))?
        {
            break Some(status);
        }
        if start.elapsed() > CASE_LIMIT {
            // The child is ours, started above; killing it by its handle ends only that process.
            child
                .kill()
                .map_err(|e| format!("cannot stop case {name}: {e}"))?;
            child
                .wait()
                .map_err(|e| format!("cannot reap case {name}: {e}"))?;
            break None;
        }
        thread::sleep(POLL);
    };
    let stdout = stdout.map(join_text).unwrap_or_default();
    let stderr = stderr.map(join_text).unwrap_or_default();
    let line = stdout
        .lines()
        .find_map(|l| serde_json::from_str::<Value>(l).ok());
    Ok(match (status, line) {
        (Some(status), Some(line)) if status.success() => measured_row(&line),
        (Some(status), _) => failed_row(case, &crash_outcome(status, &stderr)),
        (None, _) => failed_row(
            case,
            &format!("timeout: killed after {} s", CASE_LIMIT.as_secs()),
        ),
    })
}

/// Reads a pipe to its end on a new thread.
fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        // A read error leaves what was read so far, which is all a report can use anyway.
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// The text a drain thread collected, or nothing if it panicked.
fn join_text(handle: thread::JoinHandle<String>) -> String {
    handle.join().unwrap_or_default()
}

/// What killed a case: a stack overflow (recognized by the runtime's message), a signal, or an exit code.
fn crash_outcome(status: ExitStatus, stderr: &str) -> String {
    if stderr.contains("has overflowed its stack") {
        return "crash: stack overflow".to_owned();
    }
    if let Some(signal) = status.signal() {
        return format!("crash: signal {signal}");
    }
    let last = stderr.lines().last().unwrap_or("").trim();
    format!("crash: {status}; {last}")
}

/// The row of a case that printed its measurements.
fn measured_row(line: &Value) -> Row {
    let text = |key: &str| line[key].as_str().unwrap_or("").to_owned();
    let calls = line["calls"].as_u64().unwrap_or(0);
    let wall = line["wall_ms"].as_f64().unwrap_or(0.0);
    let slowest = line["slowest_ms"].as_f64().unwrap_or(0.0);
    let wall = if calls > 1 {
        format!(
            "{} ({calls} calls, slowest {})",
            fmt_ms(wall),
            fmt_ms(slowest)
        )
    } else {
        fmt_ms(wall)
    };
    let memory = line["peak_rss_kib"]
        .as_u64()
        .map_or_else(|| "unknown".to_owned(), fmt_kib);
    Row {
        case: text("case"),
        input: text("input"),
        operation: text("operation"),
        outcome: text("outcome"),
        wall,
        memory,
        bounded: true,
    }
}

/// The row of a case that crashed or timed out, described as `--list` described it.
fn failed_row(case: &Described, outcome: &str) -> Row {
    Row {
        case: case.name.clone(),
        input: case.input.clone(),
        operation: case.operation.clone(),
        outcome: outcome.to_owned(),
        wall: "—".to_owned(),
        memory: "—".to_owned(),
        bounded: false,
    }
}

/// Milliseconds with three significant digits, or seconds from ten seconds on.
fn fmt_ms(ms: f64) -> String {
    if ms >= 10_000.0 {
        format!("{:.1} s", ms / 1e3)
    } else if ms >= 100.0 {
        format!("{ms:.0} ms")
    } else if ms >= 10.0 {
        format!("{ms:.1} ms")
    } else if ms >= 1.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{:.0} µs", ms * 1e3)
    }
}

/// KiB as MiB with one decimal.
fn fmt_kib(kib: u64) -> String {
    #[expect(
        clippy::cast_precision_loss,
        reason = "a memory reading far below 2^52 KiB"
    )]
    let mib = kib as f64 / 1024.0;
    format!("{mib:.1} MiB")
}

/// A table cell: pipes escaped, line breaks flattened.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The `reliability` section of RELIABILITY.md.
fn render(rows: &[Row], commit: &str, machine: &str, date: &str) -> String {
    let mut out = String::new();
    let bounded = rows.iter().filter(|r| r.bounded).count();
    let _ = writeln!(out, "## Adversarial inputs");
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Each row is one adversarial input run through one part of the public API, in a process of its own, on a thread with a 2 MiB stack."
    );
    let _ = writeln!(
        out,
        "The outcome lists every distinct result with how many calls had it: a fallback kind (`normalize_with`), an error (`validate::compile`, `resolve::dereference`) or a validation verdict with its first error line."
    );
    let _ = writeln!(
        out,
        "Wall time covers the library calls only, not building or dropping the input; peak memory is the process's `VmHWM`, which includes the input."
    );
    let _ = writeln!(
        out,
        "A case that crashes, or runs longer than {} s and is killed, is a bug and says so.",
        CASE_LIMIT.as_secs()
    );
    let _ = writeln!(
        out,
        "The facade's test `llmshim/tests/it/adversarial.rs` builds the same inputs (`benches/examples/adversarial/inputs.rs`) and asserts a bounded outcome for each, keeping known bugs on an expected-failure list."
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "- Command: `cargo xtask reliability` (it runs `cargo {}`, then `adversarial <case>` for each of `adversarial --list`).",
        BUILD_ARGS[..6].join(" ")
    );
    let _ = writeln!(out, "- Commit: {commit}.");
    let _ = writeln!(out, "- {machine}");
    let _ = writeln!(out, "- Date: {date}.");
    let _ = writeln!(
        out,
        "- Result: {bounded} of {} cases ended in a bounded outcome.",
        rows.len()
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "| case | input | operation | outcome | wall time | peak memory |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for row in rows {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} |",
            row.case,
            cell(&row.input),
            cell(&row.operation),
            cell(&row.outcome),
            cell(&row.wall),
            cell(&row.memory)
        );
    }
    out
}

/// The machine, OS and toolchain the numbers come from, as one sentence.
pub(crate) fn machine() -> String {
    let cpu = host::cpu_model().unwrap_or_else(|| "unknown CPU".to_owned());
    let memory = fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kib| kib.parse::<u64>().ok())
        })
        .map_or_else(
            || "unknown memory".to_owned(),
            |kib| format!("{} GiB RAM", kib >> 20),
        );
    let cores = host::cores();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    format!(
        "Machine: {cpu}, {cores} cores, {memory}; {}; {}.",
        host::output("uname", &["-srm"]),
        host::output(&rustc, &["--version"])
    )
}

/// [`machine`] followed by the load average now, for a verb to take before it starts measuring.
pub(crate) fn machine_and_load() -> String {
    match host::load_average() {
        Some(load) => format!("{} Load average when the run started: {load}.", machine()),
        None => machine(),
    }
}

/// Today's date in UTC, as `date` prints it.
pub(crate) fn today() -> String {
    let out = Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    if out.is_empty() {
        "unknown".to_owned()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::reliability::{Row, cell, fmt_kib, fmt_ms, measured_row, render};

    #[test]
    fn times_and_sizes_read_well() {
        assert_eq!(fmt_ms(0.0164), "16 µs");
        assert_eq!(fmt_ms(2.678), "2.68 ms");
        assert_eq!(fmt_ms(57.6), "57.6 ms");
        assert_eq!(fmt_ms(849.47), "849 ms");
        assert_eq!(fmt_ms(12_345.0), "12.3 s");
        assert_eq!(fmt_kib(8744), "8.5 MiB");
    }

    #[test]
    fn cells_escape_pipes() {
        assert_eq!(cell("`^(a|aa)+$`"), "`^(a\\|aa)+$`");
    }

    #[test]
    fn a_measured_line_becomes_a_row_and_the_table_counts_bounded_cases() {
        let line = json!({
            "case": "x", "input": "an input", "operation": "normalize_with", "outcome": "fallback budget_nodes ×12",
            "calls": 12, "wall_ms": 849.47, "slowest_ms": 120.6, "peak_rss_kib": 8744
        });
        let row = measured_row(&line);
        assert_eq!(row.wall, "849 ms (12 calls, slowest 121 ms)");
        assert_eq!(row.memory, "8.5 MiB");
        let crashed = Row {
            case: "y".to_owned(),
            input: String::new(),
            operation: String::new(),
            outcome: "crash: stack overflow".to_owned(),
            wall: "—".to_owned(),
            memory: "—".to_owned(),
            bounded: false,
        };
        let text = render(&[row, crashed], "`abc`", "Machine: m.", "2026-01-01");
        assert!(text.contains("- Result: 1 of 2 cases ended in a bounded outcome."));
        assert!(text.contains(
            "| `x` | an input | normalize_with | fallback budget_nodes ×12 | 849 ms (12 calls, slowest 121 ms) | 8.5 MiB |"
        ));
        assert!(text.lines().all(|l| l.trim_end() == l));
    }
}
