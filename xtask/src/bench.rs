//! `cargo xtask bench`: runs the criterion benches (`tools` and `validate`) and writes the README's results from
//! their output.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::metadata;

/// The README markers between which the results are written.
const START: &str = "<!-- bench:start -->";
const END: &str = "<!-- bench:end -->";
const COUNTS: [u64; 6] = [0, 1, 5, 10, 25, 50];
const TARGETS: [&str; 6] = ["chat", "responses", "anthropic", "google", "cca", "mcp"];
/// The workloads of the `validate` bench, with their README descriptions.
const VALIDATE_WORKLOADS: [(&str, &str); 2] = [
    (
        "schemastore",
        "every SchemaStore schema that compiles in both engines, with its listed valid and invalid instances",
    ),
    (
        "mcp-tools",
        "every MCP tool `inputSchema`, with one generated argument object per tool",
    ),
];

/// One measured benchmark: its full id and mean time in nanoseconds.
struct Measured {
    id: String,
    mean_ns: f64,
}

/// Runs the benches (passing `criterion_args` through), then rewrites the README's results section.
pub(crate) fn run(root: &Path, criterion_args: &[String]) -> Result<u8, String> {
    let mut command = metadata::cargo();
    command.current_dir(root).args([
        "bench",
        "-p",
        "llmshim-benches",
        "--bench",
        "tools",
        "--bench",
        "validate",
        "--",
    ]);
    command.args(criterion_args);
    let status = command
        .status()
        .map_err(|e| format!("cannot run cargo bench: {e}"))?;
    if !status.success() {
        return Ok(1);
    }
    let criterion = criterion_dir(root);
    let measured = collect(&criterion)?;
    let read = |name: &str| {
        [
            criterion.join(name),
            root.join("target/criterion").join(name),
        ]
        .iter()
        .find_map(|path| fs::read_to_string(path).ok())
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
    };
    let counts = read("corpus-counts.json");
    let validate_counts = read("validate-counts.json");
    let section = render(
        &measured,
        counts.as_ref(),
        validate_counts.as_ref(),
        &machine(root),
    );
    let readme_path = root.join("README.md");
    let readme =
        fs::read_to_string(&readme_path).map_err(|e| format!("cannot read README.md: {e}"))?;
    let updated = splice(&readme, &section)?;
    fs::write(&readme_path, updated).map_err(|e| format!("cannot write README.md: {e}"))?;
    println!(
        "README.md results updated from {} benchmarks",
        measured.len()
    );
    Ok(0)
}

/// Where criterion writes its results: `$CARGO_TARGET_DIR/criterion` (relative to the workspace root when
/// relative), else `target/criterion`.
fn criterion_dir(root: &Path) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|dir| !dir.is_empty())
        .map_or_else(|| root.join("target"), |dir| root.join(PathBuf::from(dir)));
    target.join("criterion")
}

/// Every `new/benchmark.json` with its `new/estimates.json` under `dir`.
fn collect(dir: &Path) -> Result<Vec<Measured>, String> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "new") {
                    if let Some(m) = read_one(&path) {
                        out.push(m);
                    }
                } else {
                    stack.push(path);
                }
            }
        }
    }
    if out.is_empty() {
        return Err(format!("no criterion results under {}", dir.display()));
    }
    Ok(out)
}

fn read_one(new_dir: &Path) -> Option<Measured> {
    let bench: Value =
        serde_json::from_str(&fs::read_to_string(new_dir.join("benchmark.json")).ok()?).ok()?;
    let estimates: Value =
        serde_json::from_str(&fs::read_to_string(new_dir.join("estimates.json")).ok()?).ok()?;
    let id = bench.get("full_id")?.as_str()?.to_owned();
    let mean_ns = estimates.get("mean")?.get("point_estimate")?.as_f64()?;
    Some(Measured { id, mean_ns })
}

fn mean(measured: &[Measured], id: &str) -> Option<f64> {
    measured.iter().find(|m| m.id == id).map(|m| m.mean_ns)
}

fn fmt_us(ns: Option<f64>) -> String {
    ns.map_or_else(|| "—".to_owned(), |v| format!("{:.1}", v / 1_000.0))
}

fn fmt_ms(ns: Option<f64>) -> String {
    ns.map_or_else(|| "—".to_owned(), |v| format!("{:.2}", v / 1_000_000.0))
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}", a / b),
        _ => "—".to_owned(),
    }
}

/// The results section in Markdown.
fn render(
    measured: &[Measured],
    counts: Option<&Value>,
    validate_counts: Option<&Value>,
    machine: &str,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{START}");
    let _ = writeln!(
        s,
        "Generated by `cargo xtask bench`; do not edit by hand. {machine}"
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Transform workload (contract §12): mean µs per request, Anthropic target."
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| tools | uncached | cached | baseline (serde parse + serialize) | cached / baseline | uncached / cached |"
    );
    let _ = writeln!(s, "|---:|---:|---:|---:|---:|---:|");
    for n in COUNTS {
        let unc = mean(
            measured,
            &format!("tools/normalize_native_tools/anthropic/uncached/{n}"),
        );
        let cac = mean(
            measured,
            &format!("tools/normalize_native_tools/anthropic/cached/{n}"),
        );
        let base = mean(measured, &format!("baseline/serde_roundtrip/{n}"));
        let _ = writeln!(
            s,
            "| {n} | {} | {} | {} | {} | {} |",
            fmt_us(unc),
            fmt_us(cac),
            fmt_us(base),
            ratio(cac, base),
            ratio(unc, cac)
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Real MCP corpus (every `tools` entry of `mcp-tools/*.json`, one request per file): mean ms per pass."
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| target | mode | uncached | cached | uncached / cached | tools | fell back | demoted | changed |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for target in TARGETS {
        for mode in ["plain", "strict"] {
            let unc = mean(measured, &format!("corpus/{target}/{mode}/uncached"));
            let cac = mean(measured, &format!("corpus/{target}/{mode}/cached"));
            let row = counts.and_then(Value::as_array).and_then(|rows| {
                rows.iter()
                    .find(|r| r["target"] == target && r["mode"] == mode)
            });
            let count = |k: &str| {
                row.and_then(|r| r.get(k))
                    .and_then(Value::as_u64)
                    .map_or("—".to_owned(), |v| v.to_string())
            };
            let _ = writeln!(
                s,
                "| {target} | {mode} | {} | {} | {} | {} | {} | {} | {} |",
                fmt_ms(unc),
                fmt_ms(cac),
                ratio(unc, cac),
                count("tools"),
                count("fallbacks"),
                count("demoted"),
                count("changed")
            );
        }
    }
    render_validation(&mut s, measured, validate_counts);
    let _ = writeln!(s, "{END}");
    s
}

/// The local-validation table: `llmshim-validate` against the `jsonschema` crate, compile and validate per
/// workload, from the `validate` bench.
fn render_validation(s: &mut String, measured: &[Measured], counts: Option<&Value>) {
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Local validation (`llmshim-validate` against the `jsonschema` crate 0.61, both offline with format \
         assertion on): mean µs per pass over the workload; one compile pass compiles every schema, one validate \
         pass runs `is_valid` on every instance."
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| workload | schemas | instances | operation | llmshim | jsonschema | llmshim / jsonschema |"
    );
    let _ = writeln!(s, "|---|---:|---:|---|---:|---:|---:|");
    for (workload, _) in VALIDATE_WORKLOADS {
        let count = |k: &str| validate_count(counts, workload, k);
        for operation in ["compile", "validate"] {
            let ours = mean(
                measured,
                &format!("validate/{operation}/{workload}/llmshim"),
            );
            let theirs = mean(
                measured,
                &format!("validate/{operation}/{workload}/jsonschema"),
            );
            let _ = writeln!(
                s,
                "| {workload} | {} | {} | {operation} | {} | {} | {} |",
                count("schemas"),
                count("instances"),
                fmt_us(ours),
                fmt_us(theirs),
                ratio(ours, theirs)
            );
        }
    }
    let _ = writeln!(s);
    for (workload, description) in VALIDATE_WORKLOADS {
        let count = |k: &str| validate_count(counts, workload, k);
        let _ = writeln!(
            s,
            "- {workload}: {description}; {} schemas left out because they do not compile in both engines \
             (references to external documents, which neither fetches, or keyword values one engine rejects); \
             the engines agree on {} of {} verdicts ({} valid).",
            count("skipped"),
            count("agree"),
            count("instances"),
            count("llmshim_valid")
        );
    }
}

/// One count of a `validate` workload from `validate-counts.json`, or a dash.
fn validate_count(counts: Option<&Value>, workload: &str, key: &str) -> String {
    counts
        .and_then(Value::as_array)
        .and_then(|rows| rows.iter().find(|r| r["workload"] == workload))
        .and_then(|r| r.get(key))
        .and_then(Value::as_u64)
        .map_or("—".to_owned(), |v| v.to_string())
}

/// Replaces the text between the markers (markers included) with `section`.
fn splice(readme: &str, section: &str) -> Result<String, String> {
    let start = readme
        .find(START)
        .ok_or("README.md has no bench:start marker")?;
    let end = readme
        .find(END)
        .ok_or("README.md has no bench:end marker")?
        + END.len();
    let mut out = String::with_capacity(readme.len() + section.len());
    out.push_str(&readme[..start]);
    out.push_str(section.trim_end());
    out.push_str(&readme[end..]);
    Ok(out)
}

/// The machine, OS, toolchain, crate version and date the numbers come from.
fn machine(root: &Path) -> String {
    let run = |cmd: &str, args: &[&str]| {
        Command::new(cmd)
            .args(args)
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap_or_default()
    };
    let cpu = fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
        })
        .unwrap_or_default();
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let version = fs::read_to_string(root.join("Cargo.toml"))
        .ok()
        .and_then(|t| {
            t.lines().find(|l| l.starts_with("version = ")).map(|l| {
                l.trim_start_matches("version = ")
                    .trim_matches('"')
                    .to_owned()
            })
        })
        .unwrap_or_default();
    format!(
        "Machine: {cpu}, {cores} cores; {}; {}; llmshim {version}; {}.",
        run("uname", &["-sr"]),
        run("rustc", &["--version"]),
        run("date", &["-u", "+%Y-%m-%d"])
    )
}
