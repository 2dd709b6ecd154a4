//! What the bench targets share: the criterion settings, the same-run `serde_json` baseline and the MCP servers
//! the stage benches measure.
//!
//! Each bench target includes this file as `mod support;` (the manifest lists the bench targets, so this file is
//! not one of its own), so the settings and the baseline are written once.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion};
use llmshim::schema::{Normalizer, Options};
use llmshim_benches::{testdata, workload};
use serde_json::Value;

/// The criterion settings of every bench: short warm-up and measurement, 20 samples.
pub(crate) fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

/// The same-run baseline of a stage bench: group `baseline`, ids `serde_roundtrip/<stage>/<workload>`, each one
/// `serde_json::from_str` plus `serde_json::to_string` of the text of every schema of the workload.
#[allow(
    dead_code,
    reason = "not every bench target that includes this module has a stage baseline"
)]
pub(crate) fn baseline<'a>(
    c: &mut Criterion,
    stage: &str,
    workloads: impl IntoIterator<Item = (&'a str, &'a [Value])>,
) {
    let mut group = c.benchmark_group("baseline");
    for (name, schemas) in workloads {
        let texts: Vec<String> = schemas
            .iter()
            .map(|s| serde_json::to_string(s).unwrap_or_default())
            .collect();
        group.bench_function(format!("serde_roundtrip/{stage}/{name}"), |b| {
            b.iter(|| {
                for text in &texts {
                    let value: Value = serde_json::from_str(black_box(text)).unwrap_or(Value::Null);
                    black_box(serde_json::to_string(&value).unwrap_or_default());
                }
            });
        });
    }
    group.finish();
}

/// The MCP servers (file stems of `mcp-tools/*.json`) the stage benches measure: many tools with large and nested
/// schemas, and a few small ones.
const SERVERS: [&str; 3] = [
    "github-mcp-server",
    "lmb-mcp-server-chart",
    "lmb-mcp-reference-filesystem",
];

/// The tool input schemas of each server of [`SERVERS`], or `None` (after one printed line naming `bench`) without
/// test data.
#[allow(
    dead_code,
    reason = "not every bench target that includes this module measures the servers"
)]
pub(crate) fn servers(bench: &str) -> Option<Vec<(&'static str, Vec<Value>)>> {
    testdata::require(bench)?;
    let corpus = workload::mcp_corpus()?;
    let servers = SERVERS
        .iter()
        .map(|stem| {
            let Some((_, request)) = corpus.iter().find(|(s, _)| s == stem) else {
                panic!("corrupt test data: mcp-tools/{stem}.json is missing");
            };
            (*stem, workload::input_schemas(request))
        })
        .collect();
    Some(servers)
}

/// Adds `id` to `group`: `normalize_with` of every schema of `schemas` with `options`, each iteration on fresh copies
/// made outside the timed region, since normalization rewrites them.
#[allow(
    dead_code,
    reason = "not every bench target that includes this module normalizes schema lists"
)]
pub(crate) fn normalize_each(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: String,
    normalizer: &Normalizer,
    options: &Options,
    schemas: &[Value],
) {
    group.bench_function(id, |b| {
        b.iter_batched(
            || schemas.to_vec(),
            |mut batch| {
                for schema in &mut batch {
                    black_box(normalizer.normalize_with(options, schema));
                }
                batch
            },
            BatchSize::LargeInput,
        );
    });
}
