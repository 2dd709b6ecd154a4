//! The resolve stage bench: `llmshim-resolve`'s public resolver-only API, `dereference` and `Registry::new`, on
//! SchemaStore and pydantic-generated schemas, against a same-run baseline of parsing and serializing the same
//! schemas' text.
//!
//! Each workload holds the schemas of its corpus that dereference with the default options and no registered
//! resources; the others (external references, reference cycles, budget overruns) are left out, so both operations
//! run on the same schemas. One `resolve/dereference` iteration dereferences every schema of the workload (each a
//! fresh clone made outside the timed region with `iter_batched`, since `dereference` rewrites it); one
//! `resolve/registry` iteration indexes every schema's resources and anchors, the pre-pass that normalization
//! runs before its walk. Inside normalization the reference expansion itself runs as passes of the one walk and
//! has no entry point of its own; `dereference` is the same passes in a walk of their own.
//!
//! Groups `resolve/dereference` and `resolve/registry`, ids `<workload>`; group `baseline`, ids
//! `serde_roundtrip/resolve/<workload>`.

mod support;

use std::hint::black_box;

use criterion::{BatchSize, Criterion, SamplingMode, criterion_group, criterion_main};
use llmshim::resolve::{Options, Registry, Resources, dereference};
use llmshim_benches::{testdata, workload};
use serde_json::Value;

/// A named workload: the schemas of one corpus that dereference.
struct Workload {
    name: &'static str,
    schemas: Vec<Value>,
}

fn dereferences(schema: &Value) -> bool {
    let mut out = schema.clone();
    dereference(&mut out, &Resources::new(), &Options::default()).is_ok()
}

/// The workloads, or `None` (after one printed line) without test data.
fn workloads() -> Option<Vec<Workload>> {
    testdata::require("the resolve bench")?;
    let schemastore = testdata::schemastore_entries()
        .iter()
        .map(|entry| testdata::read_json(&entry.schema).unwrap_or_else(|e| panic!("{e}")))
        .filter(dereferences)
        .collect();
    let pydantic = workload::generated_schemas("pydantic")?
        .into_iter()
        .map(|(_, schema)| schema)
        .filter(dereferences)
        .collect();
    Some(vec![
        Workload {
            name: "schemastore",
            schemas: schemastore,
        },
        Workload {
            name: "pydantic",
            schemas: pydantic,
        },
    ])
}

fn resolve(c: &mut Criterion) {
    let Some(workloads) = workloads() else {
        return;
    };
    let resources = Resources::new();
    let options = Options::default();
    let mut group = c.benchmark_group("resolve/dereference");
    // A SchemaStore pass takes about 0.1 s: flat sampling keeps the run near its measurement time.
    group.sampling_mode(SamplingMode::Flat);
    for w in &workloads {
        group.bench_function(w.name, |b| {
            b.iter_batched(
                || w.schemas.clone(),
                |mut batch| {
                    for schema in &mut batch {
                        black_box(dereference(schema, &resources, &options).is_ok());
                    }
                    batch
                },
                BatchSize::LargeInput,
            );
        });
    }
    group.finish();

    let mut group = c.benchmark_group("resolve/registry");
    for w in &workloads {
        group.bench_function(w.name, |b| {
            b.iter(|| {
                for schema in &w.schemas {
                    black_box(Registry::new(black_box(schema), &resources).is_ok());
                }
            });
        });
    }
    group.finish();
    support::baseline(
        c,
        "resolve",
        workloads.iter().map(|w| (w.name, w.schemas.as_slice())),
    );
}

criterion_group! {
    name = benches;
    config = support::config();
    targets = resolve
}
criterion_main!(benches);
