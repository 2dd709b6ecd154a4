//! The per-schema timing llmshim is compared with other projects by, outside criterion because the others are not
//! Rust: for every tool `inputSchema` of the MCP corpus and every target and mode, the median of 200 timed calls of
//! `Normalizer::normalize_with`, each on its own fresh `Value::clone` of the schema made just before the call, after
//! 20 untimed calls; the result of each call is kept until the 200 are done, so freeing it is not timed. A row is
//! summed up as the mean and the median, over the schemas, of the per-schema medians, in microseconds.
//!
//! `per_schema [uncached|cached]` prints one JSON object: `{"rows": [{"target", "strict", "cache", "n",
//! "mean_us", "median_us"}…]}`, one row per built-in target and mode; `per_schema <uncached|cached> <target>
//! <plain|strict>` prints that row alone, with `per_schema_ns`, every schema's median in corpus order, for a
//! comparison schema by schema. An uncached row also gives `walked`: how many schemas the look before the walk
//! leaves to the walk (`llmshim::testing::walks`) and their share of the sum of the per-schema medians, with their
//! corpus indices in a one-row run, so that a peer's per-schema timings can be split the same way. The normalizers
//! are built as the corpus rows of `benches/benches/tools.rs` build theirs: uncached with the memo switched off by
//! fixed flags; cached with a memo of its own sized for the corpus, which the first untimed call fills, so every
//! timed call is a hit that hands back the caller's own copy. A peer measured the same way (the same schemas in the
//! same order, a fresh copy made outside the timed region before each call, 20 untimed calls, the median of 200) can
//! be set beside these rows. The method, the peers and the numbers of the last comparison are in `PERFORMANCE.md`.

// Nanosecond timings and schema counts stay far below 2^52, where `f64` holds integers exactly.
#![allow(clippy::cast_precision_loss)]

use std::hint::black_box;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use llmshim::schema::{Env, EnvFlags, Normalizer, Options, Target};
use llmshim_benches::workload;
use serde_json::{Value, json};

/// Untimed calls before the timed ones, per schema.
const WARM_UP: usize = 20;
/// Timed calls per schema.
const CALLS: usize = 200;

/// The median of `values` (the mean of the middle two for an even count, as the peers' harnesses take it; 0 when
/// there are none).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    match (values.get(mid.wrapping_sub(1)), values.get(mid)) {
        (_, None) => 0.0,
        (Some(low), Some(high)) if values.len().is_multiple_of(2) => (low + high) / 2.0,
        (_, Some(middle)) => *middle,
    }
}

/// The per-schema medians (nanoseconds) of one target and mode.
fn row(normalizer: &Normalizer, options: &Options, schemas: &[Value]) -> Vec<f64> {
    let mut kept = Vec::with_capacity(CALLS);
    let mut times = Vec::with_capacity(CALLS);
    schemas
        .iter()
        .map(|schema| {
            for _ in 0..WARM_UP {
                let mut copy = schema.clone();
                black_box(normalizer.normalize_with(options, &mut copy));
                kept.push(copy);
            }
            kept.clear();
            times.clear();
            for _ in 0..CALLS {
                let mut copy = schema.clone();
                let start = Instant::now();
                let report = normalizer.normalize_with(options, black_box(&mut copy));
                let took = start.elapsed();
                black_box(report);
                kept.push(copy);
                times.push(took.as_nanos() as f64);
            }
            kept.clear();
            median(&mut times)
        })
        .collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (cache, only) = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => ("uncached", None),
        [cache @ ("uncached" | "cached")] => (cache, None),
        [
            cache @ ("uncached" | "cached"),
            target,
            mode @ ("plain" | "strict"),
        ] => {
            let Ok(target) = target.parse::<Target>() else {
                let _ = writeln!(std::io::stderr(), "per_schema: unknown target {target:?}");
                return ExitCode::FAILURE;
            };
            (cache, Some((target, mode == "strict")))
        }
        _ => {
            let _ = writeln!(
                std::io::stderr(),
                "usage: per_schema [uncached|cached] [<target> <plain|strict>]"
            );
            return ExitCode::FAILURE;
        }
    };
    let Some(schemas) = workload::mcp_input_schemas() else {
        let _ = writeln!(
            std::io::stderr(),
            "per_schema: the shared test data is absent (set LLMSHIM_TESTDATA)"
        );
        return ExitCode::FAILURE;
    };
    let mut rows = Vec::new();
    for target in Target::BUILTIN {
        for strict in [false, true] {
            if only.is_some_and(|o| o != (target, strict)) {
                continue;
            }
            let options = Options::for_target(target).with_strict(strict);
            // A normalizer of its own per row: the memo of a cached row holds only that row's entries.
            let normalizer = if cache == "cached" {
                Normalizer::default().with_memo(std::sync::Arc::new(
                    llmshim::schema::SchemaMemo::new(
                        llmshim::cache::Limits::default()
                            .with_max_entries(8_192)
                            .with_max_bytes(512 << 20),
                    ),
                ))
            } else {
                Normalizer::new(Env::Fixed(EnvFlags::default().with_no_schema_cache(true)))
            };
            let medians = row(&normalizer, &options, &schemas);
            let n = medians.len();
            let mean = medians.iter().sum::<f64>() / n.max(1) as f64;
            let mid = median(&mut medians.clone());
            let mut line = json!({
                "target": target.to_string(),
                "strict": strict,
                "cache": cache,
                "n": n,
                "mean_us": (mean / 10.0).round() / 100.0,
                "median_us": (mid / 10.0).round() / 100.0,
            });
            // Uncached, the schemas the look before the walk leaves to the walk, and their part of the row's sum.
            if cache == "uncached" {
                let walked: Vec<usize> = schemas
                    .iter()
                    .enumerate()
                    .filter(|(_, schema)| llmshim::testing::walks(&normalizer, &options, schema))
                    .map(|(i, _)| i)
                    .collect();
                let sum = medians.iter().sum::<f64>();
                let walked_sum = walked.iter().filter_map(|&i| medians.get(i)).sum::<f64>();
                let share = if sum > 0.0 { walked_sum / sum } else { 0.0 };
                line["walked"] = json!({
                    "n": walked.len(),
                    "share_of_sum": (share * 1000.0).round() / 1000.0,
                });
                if only.is_some() {
                    line["walked"]["indices"] = json!(walked);
                }
            }
            if only.is_some() {
                line["per_schema_ns"] = json!(medians);
            }
            rows.push(line);
        }
    }
    let out = json!({ "rows": rows });
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{out}").is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
