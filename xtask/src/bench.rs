//! `cargo xtask bench`: runs the criterion benches (`tools`, `validate` and the stage benches `resolve`, `targets`,
//! `strict`, `cache` and `pipeline`) and writes the README's results from their output.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::instructions::{self, Count};
use crate::speed_targets;
use crate::{host, metadata};

/// The README markers between which the results are written.
const START: &str = "<!-- bench:start -->";
const END: &str = "<!-- bench:end -->";
const COUNTS: [u64; 6] = [0, 1, 5, 10, 25, 50];
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

/// The stage benches (their group ids start with the stage), with the README description of what one pass is.
const STAGES: [(&str, &str); 5] = [
    (
        "resolve",
        "`llmshim-resolve` on the SchemaStore and pydantic-generated schemas that dereference with \
         default options: `dereference` of every schema (clones made outside the timed region), and `Registry::new`, \
         the pre-pass normalization runs before its walk",
    ),
    (
        "targets",
        "the target acceptance check `llmshim::schema::check_with` per target over a server's tool input schemas \
         already normalized for that target (no public function runs the target passes outside the one walk); the \
         baseline is over the original schemas",
    ),
    (
        "strict",
        "uncached `normalize_with` for OpenAI Chat and Anthropic with strict off and on over the same schemas (the \
         difference is the cost of strict, demotions included), and `llmshim_strict::fits`, the OpenAI strict \
         limits, on the Chat results that came out strict",
    ),
    (
        "cache",
        "`llmshim-cache` over every MCP tool `inputSchema` with an `Options` key: a hit on an exact no-op entry, a \
         hit on a changed entry (which edits the caller's copy into the stored output), a miss on an empty memo, and `Fingerprint::new` \
         alone",
    ),
    (
        "pipeline",
        "uncached `normalize_with` (strict off) of every tool `inputSchema` of one MCP server per target: every stage \
         after the memo, inputs cloned outside the timed region",
    ),
];

/// One measured benchmark: its full id and mean time in nanoseconds.
struct Measured {
    id: String,
    mean_ns: f64,
}

/// Runs the benches (passing `criterion_args` through), then rewrites the README's results section.
pub(crate) fn run(root: &Path, criterion_args: &[String]) -> Result<u8, String> {
    // Every number the README gets must come from this run: results an earlier run left behind are removed first, and
    // the benches must find the shared corpus (a missing one fails them instead of leaving its rows out, which would
    // let old results of those rows stand).
    let criterion = criterion_dir(root);
    for dir in [criterion.clone(), root.join("target/criterion")] {
        if dir.exists() {
            fs::remove_dir_all(&dir)
                .map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
        }
    }
    let mut command = metadata::cargo();
    command.env("LLMSHIM_REQUIRE_TESTDATA", "1");
    command.current_dir(root).args([
        "bench",
        "-p",
        "llmshim-benches",
        "--bench",
        "tools",
        "--bench",
        "validate",
    ]);
    for (stage, _) in STAGES {
        command.args(["--bench", stage]);
    }
    command.arg("--");
    command.args(criterion_args);
    let status = command
        .status()
        .map_err(|e| format!("cannot run cargo bench: {e}"))?;
    if !status.success() {
        return Ok(1);
    }
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
    let targets: Vec<String> = crate::targets::read(root)?
        .into_iter()
        .map(|row| row.name)
        .collect();
    let instruction_counts = instructions::count(root, &targets);
    let section = render(
        &measured,
        &targets,
        counts.as_ref(),
        validate_counts.as_ref(),
        instruction_counts.as_deref(),
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
    targets: &[String],
    counts: Option<&Value>,
    validate_counts: Option<&Value>,
    instruction_counts: Option<&[Count]>,
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
        "Transform workload: mean µs per request, Anthropic target."
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| tools | uncached | cached | request clone | baseline (serde parse + serialize) | cached / baseline | uncached / baseline | uncached / cached | clone / baseline |"
    );
    let _ = writeln!(s, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
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
        let clone = mean(measured, &format!("baseline/request_clone/{n}"));
        let _ = writeln!(
            s,
            "| {n} | {} | {} | {} | {} | {} | {} | {} | {} |",
            fmt_us(unc),
            fmt_us(cac),
            fmt_us(clone),
            fmt_us(base),
            ratio(cac, base),
            ratio(unc, base),
            ratio(unc, cac),
            ratio(clone, base)
        );
    }
    let _ = writeln!(s);
    let clone = mean(measured, "baseline/clone_schemas");
    let _ = writeln!(
        s,
        "Real MCP corpus (every `tools` entry of `mcp-tools/*.json`, one request per file): mean ms per pass, and \
         each as a ratio to `baseline/clone_schemas`, one `Value::clone` of every tool schema of the corpus ({} ms \
         in this run; the floor of any normalization that builds a new tree).",
        fmt_ms(clone)
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| target | mode | uncached | cached | uncached / clone | cached / clone | uncached / cached | tools | fell back | demoted | changed |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for target in targets {
        for mode in ["plain", "strict"] {
            let unc = mean(measured, &format!("corpus/{target}/{mode}/uncached"));
            let cac = mean(measured, &format!("corpus/{target}/{mode}/cached"));
            let row = counts.and_then(Value::as_array).and_then(|rows| {
                rows.iter()
                    .find(|r| r["target"] == target.as_str() && r["mode"] == mode)
            });
            let count = |k: &str| {
                row.and_then(|r| r.get(k))
                    .and_then(Value::as_u64)
                    .map_or("—".to_owned(), |v| v.to_string())
            };
            let _ = writeln!(
                s,
                "| {target} | {mode} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                fmt_ms(unc),
                fmt_ms(cac),
                ratio(unc, clone),
                ratio(cac, clone),
                ratio(unc, cac),
                count("tools"),
                count("fallbacks"),
                count("demoted"),
                count("changed")
            );
        }
    }
    if let Some(counts) = instruction_counts {
        instructions::render(&mut s, counts, targets);
    }
    speed_targets::render(
        &mut s,
        &speed_target_rows(measured, targets, instruction_counts),
    );
    render_validation(&mut s, measured, validate_counts);
    render_stages(&mut s, measured);
    let _ = writeln!(s, "{END}");
    s
}

/// The speed targets with every row they apply to: uncached corpus passes against the clone of every schema (plain
/// and strict limits apart), cached passes against the same clone and against the uncached pass, and the transform
/// of 50 tools, uncached and cached, against the serde round trip of the same request.
fn speed_target_rows(
    measured: &[Measured],
    targets: &[String],
    instruction_counts: Option<&[Count]>,
) -> Vec<speed_targets::Target> {
    let clone = mean(measured, "baseline/clone_schemas");
    let counted = |row: &str| {
        instruction_counts
            .and_then(|counts| counts.iter().find(|c| c.row == row))
            .map(|c| c.instructions)
    };
    let clone_counted = counted("clone");
    let over = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => Some(a / b),
        _ => None,
    };
    let rows = |modes: &[&str], cache: &str| {
        let mut rows = Vec::new();
        for target in targets {
            for mode in modes {
                let criterion = over(
                    mean(measured, &format!("corpus/{target}/{mode}/{cache}")),
                    clone,
                );
                let instructions = instructions::ratio(
                    counted(&format!("{target}/{mode}/{cache}")),
                    clone_counted,
                );
                rows.push((format!("{target}/{mode}"), criterion, instructions));
            }
        }
        rows
    };
    vec![
        speed_targets::Target {
            what: "corpus, uncached, plain / `clone_schemas`".to_owned(),
            limit: 3.0,
            rows: rows(&["plain"], "uncached"),
        },
        speed_targets::Target {
            what: "corpus, uncached, strict / `clone_schemas`".to_owned(),
            limit: 4.0,
            rows: rows(&["strict"], "uncached"),
        },
        speed_targets::Target {
            what: "corpus, cached / `clone_schemas`".to_owned(),
            limit: 1.2,
            rows: rows(&["plain", "strict"], "cached"),
        },
        speed_targets::Target {
            what: "corpus, cached / uncached".to_owned(),
            limit: 0.1,
            rows: targets
                .iter()
                .flat_map(|target| ["plain", "strict"].map(|mode| (target, mode)))
                .map(|(target, mode)| {
                    let row = |cache: &str| format!("corpus/{target}/{mode}/{cache}");
                    let counted_row = |cache: &str| counted(&format!("{target}/{mode}/{cache}"));
                    (
                        format!("{target}/{mode}"),
                        over(
                            mean(measured, &row("cached")),
                            mean(measured, &row("uncached")),
                        ),
                        instructions::ratio(counted_row("cached"), counted_row("uncached")),
                    )
                })
                .collect(),
        },
        speed_targets::Target {
            what: "transform of 50 tools, uncached / `serde_roundtrip/50`".to_owned(),
            limit: 3.0,
            rows: vec![(
                "anthropic/50".to_owned(),
                over(
                    mean(
                        measured,
                        "tools/normalize_native_tools/anthropic/uncached/50",
                    ),
                    mean(measured, "baseline/serde_roundtrip/50"),
                ),
                instructions::ratio(counted("transform/50/uncached"), counted("roundtrip/50")),
            )],
        },
        speed_targets::Target {
            what: "transform of 50 tools, cached / `serde_roundtrip/50`".to_owned(),
            limit: 0.6,
            rows: vec![(
                "anthropic/50".to_owned(),
                over(
                    mean(measured, "tools/normalize_native_tools/anthropic/cached/50"),
                    mean(measured, "baseline/serde_roundtrip/50"),
                ),
                instructions::ratio(counted("transform/50/cached"), counted("roundtrip/50")),
            )],
        },
    ]
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

/// A stage bench's full id (`<stage>/<operation>/<id>`) taken apart; the id's last segment names the workload.
#[derive(Debug, PartialEq, Eq)]
struct StageId<'a> {
    stage: &'a str,
    operation: &'a str,
    id: &'a str,
    workload: &'a str,
}

impl StageId<'_> {
    /// The full id of the same-run baseline this measurement is compared with.
    fn baseline(&self) -> String {
        format!("baseline/serde_roundtrip/{}/{}", self.stage, self.workload)
    }
}

/// Takes apart a full criterion id of one of the [`STAGES`] benches; `None` for any other id.
fn stage_id(full: &str) -> Option<StageId<'_>> {
    let (stage, rest) = full.split_once('/')?;
    let (operation, id) = rest.split_once('/')?;
    let workload = id.rsplit('/').next()?;
    let known = STAGES.iter().any(|(s, _)| *s == stage);
    (known && !operation.is_empty() && !workload.is_empty()).then_some(StageId {
        stage,
        operation,
        id,
        workload,
    })
}

/// The stage table: every measured stage bench id, in stage order and then by id, with its mean µs per pass and
/// its ratio to the same-run baseline of its bench.
fn render_stages(s: &mut String, measured: &[Measured]) {
    let mut rows: Vec<(usize, StageId<'_>, f64)> = measured
        .iter()
        .filter_map(|m| {
            let id = stage_id(&m.id)?;
            let order = STAGES.iter().position(|(stage, _)| *stage == id.stage)?;
            Some((order, id, m.mean_ns))
        })
        .collect();
    rows.sort_by(|a, b| (a.0, a.1.operation, a.1.id).cmp(&(b.0, b.1.operation, b.1.id)));
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Stages (`benches/benches/{{resolve,targets,strict,cache,pipeline}}.rs`, each through its crate's public \
         API): mean µs per pass over the workload, and the ratio to the same-run baseline of the same bench, \
         `serde_json` parse plus serialize of the text of the workload's input schemas, one by one."
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| stage | operation | bench id | mean µs | baseline µs | / baseline |"
    );
    let _ = writeln!(s, "|---|---|---|---:|---:|---:|");
    for (_, id, mean_ns) in &rows {
        let base = mean(measured, &id.baseline());
        let _ = writeln!(
            s,
            "| {} | {} | `{}` | {} | {} | {} |",
            id.stage,
            id.operation,
            id.id,
            fmt_us(Some(*mean_ns)),
            fmt_us(base),
            ratio(Some(*mean_ns), base)
        );
    }
    let _ = writeln!(s);
    for (stage, description) in STAGES {
        let _ = writeln!(s, "- {stage}: {description}.");
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
    let cpu = host::cpu_model().unwrap_or_default();
    let cores = host::cores();
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
        host::output("uname", &["-sr"]),
        host::output("rustc", &["--version"]),
        host::output("date", &["-u", "+%Y-%m-%d"])
    )
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::PathBuf;

    use super::{END, Measured, START, StageId, collect, render, render_stages, splice, stage_id};

    fn measured(id: &str, mean_ns: f64) -> Measured {
        Measured {
            id: id.to_owned(),
            mean_ns,
        }
    }

    #[test]
    fn stage_ids_name_stage_operation_id_and_workload() {
        assert_eq!(
            stage_id("pipeline/normalize_with/anthropic/github-mcp-server"),
            Some(StageId {
                stage: "pipeline",
                operation: "normalize_with",
                id: "anthropic/github-mcp-server",
                workload: "github-mcp-server",
            })
        );
        let strict = stage_id("strict/normalize_with/chat/strict/pydantic").expect("a stage id");
        assert_eq!(
            (strict.id, strict.workload),
            ("chat/strict/pydantic", "pydantic")
        );
        assert_eq!(
            strict.baseline(),
            "baseline/serde_roundtrip/strict/pydantic"
        );
        let fits = stage_id("strict/fits/pydantic").expect("a stage id");
        assert_eq!(
            (fits.operation, fits.id, fits.workload),
            ("fits", "pydantic", "pydantic")
        );
        assert_eq!(
            stage_id("cache/lookup/hit-unchanged/mcp-tools").map(|id| id.baseline()),
            Some("baseline/serde_roundtrip/cache/mcp-tools".to_owned())
        );
        // The other benches' ids, the baselines themselves and malformed ids are not stage rows.
        for other in [
            "tools/normalize_native_tools/anthropic/cached/5",
            "corpus/acme/plain/cached",
            "validate/compile/schemastore/llmshim",
            "baseline/serde_roundtrip/pipeline/github-mcp-server",
            "baseline/serde_roundtrip/5",
            "pipeline/normalize_with",
            "pipeline//x",
            "pipeline/normalize_with/",
            "pipeline",
        ] {
            assert_eq!(stage_id(other), None, "{other}");
        }
    }

    #[test]
    fn the_stage_table_orders_rows_and_divides_by_the_same_run_baseline() {
        let measured = [
            measured("pipeline/normalize_with/chat/small", 9_000.0),
            measured("pipeline/normalize_with/anthropic/small", 6_000.0),
            measured("baseline/serde_roundtrip/pipeline/small", 3_000.0),
            measured("resolve/dereference/schemastore", 1_500_000.0),
            measured("cache/lookup/miss/mcp-tools", 2_500.0),
            measured("tools/normalize_native_tools/anthropic/cached/5", 1.0),
        ];
        let mut s = String::new();
        render_stages(&mut s, &measured);
        let rows: Vec<&str> = s.lines().filter(|l| l.starts_with("| ")).collect();
        assert_eq!(
            rows,
            [
                "| stage | operation | bench id | mean µs | baseline µs | / baseline |",
                "| resolve | dereference | `schemastore` | 1500.0 | — | — |",
                "| cache | lookup | `miss/mcp-tools` | 2.5 | — | — |",
                "| pipeline | normalize_with | `anthropic/small` | 6.0 | 3.0 | 2.00 |",
                "| pipeline | normalize_with | `chat/small` | 9.0 | 3.0 | 3.00 |",
            ]
        );
        assert!(s.contains("- pipeline: uncached `normalize_with`"), "{s}");
    }

    #[test]
    fn the_stage_table_follows_the_existing_tables_inside_the_markers() {
        let measured = [measured("cache/fingerprint/mcp-tools", 1_000.0)];
        let section = render(
            &measured,
            &["t".to_owned()],
            None,
            None,
            None,
            "Machine: test.",
        );
        let validation = section
            .find("Local validation")
            .expect("the validation table");
        let stages = section.find("Stages (").expect("the stage table");
        assert!(
            section
                .find("Transform workload")
                .expect("the transform table")
                < validation
        );
        assert!(validation < stages);
        assert!(section.starts_with(START) && section.trim_end().ends_with(END));
        let readme = format!("# Title\n\n{START}\nold\n{END}\n\nAfter.\n");
        let spliced = splice(&readme, &section).expect("markers present");
        assert!(spliced.contains("| cache | fingerprint | `mcp-tools` | 1.0 | — | — |"));
        assert!(spliced.ends_with(&format!("{END}\n\nAfter.\n")));
    }

    #[test]
    fn corpus_rows_are_divided_by_the_same_run_schema_clone() {
        let measured = [
            measured("corpus/acme/plain/uncached", 6_000_000.0),
            measured("corpus/acme/plain/cached", 1_000_000.0),
            measured("baseline/clone_schemas", 2_000_000.0),
        ];
        let section = render(
            &measured,
            &["acme".to_owned()],
            None,
            None,
            None,
            "Machine: test.",
        );
        assert!(section.contains("(2.00 ms in this run;"), "{section}");
        assert!(
            section.contains("| acme | plain | 6.00 | 1.00 | 3.00 | 0.50 | 6.00 | — | — | — | — |"),
            "{section}"
        );
        assert!(
            section.contains("| acme | strict | — | — | — | — | — |"),
            "{section}"
        );
    }

    #[test]
    fn criterion_results_are_read_from_new_folders() {
        let dir: PathBuf = std::env::temp_dir().join(format!("xtask-bench-{}", std::process::id()));
        let new = dir.join("pipeline_normalize_with/anthropic_github-mcp-server/new");
        let old = dir.join("pipeline_normalize_with/anthropic_github-mcp-server/base");
        fs::create_dir_all(&new).expect("a temporary folder");
        fs::create_dir_all(&old).expect("a temporary folder");
        let bench = r#"{"full_id": "pipeline/normalize_with/anthropic/github-mcp-server"}"#;
        let estimates = r#"{"mean": {"point_estimate": 1234.5}}"#;
        for d in [&new, &old] {
            fs::write(d.join("benchmark.json"), bench).expect("writable");
            fs::write(d.join("estimates.json"), estimates).expect("writable");
        }
        let found = collect(&dir);
        let _ = fs::remove_dir_all(&dir);
        let found = found.expect("one result");
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].id,
            "pipeline/normalize_with/anthropic/github-mcp-server"
        );
        assert!((found[0].mean_ns - 1234.5).abs() < f64::EPSILON);
    }
}
