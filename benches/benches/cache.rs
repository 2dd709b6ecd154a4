//! The cache stage bench: `llmshim-cache`'s memo lookups and fingerprint on every tool `inputSchema` of the MCP
//! corpus, against a same-run baseline of parsing and serializing the same schemas' text.
//!
//! The memo is keyed, as in the facade, by `Options` (here `Options::for_target(Target::Anthropic)`), with limits
//! large enough that every schema stays stored. One iteration looks up every schema of the workload once:
//!
//! - `hit-unchanged`: every entry is an exact no-op (output identical to input), so a hit leaves the caller's value
//!   in place; the iteration is the fingerprint, the locked probe and the identity comparison.
//! - `hit-changed`: every stored output is its input with one member (`"$comment"`) added at the root, so a hit
//!   also edits the caller's value into the output (the member copied in, everything else left in place); the
//!   inputs are cloned outside the timed region (`iter_batched`).
//! - `miss`: an empty memo, so every lookup is a fingerprint and a locked probe that finds nothing.
//!
//! `cache/fingerprint` measures `Fingerprint::new` alone, with the memo's default hasher.
//!
//! Groups `cache/lookup` (ids `<hit-unchanged|hit-changed|miss>/mcp-tools`) and `cache/fingerprint` (id
//! `mcp-tools`); group `baseline`, id `serde_roundtrip/cache/mcp-tools`.

mod support;

use std::hash::BuildHasher;
use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use llmshim::cache::{Fingerprint, Limits, Lookup, RandomState};
use llmshim::schema::{Normalization, Options, SchemaMemo, Target};
use llmshim_benches::{testdata, workload};
use serde_json::Value;

/// The workload name: every tool `inputSchema` of `mcp-tools/*.json`.
const WORKLOAD: &str = "mcp-tools";

/// A memo large enough for the whole workload.
fn memo() -> SchemaMemo {
    SchemaMemo::new(
        Limits::default()
            .with_max_entries(8_192)
            .with_max_bytes(512 << 20),
    )
}

/// A memo holding, for every schema, the output `output(schema)`.
fn filled(key: &Options, schemas: &[Value], output: impl Fn(&Value) -> Value) -> SchemaMemo {
    let memo = memo();
    for schema in schemas {
        if let Lookup::Miss(fingerprint) = memo.lookup(key, schema) {
            memo.insert(
                fingerprint,
                key.clone(),
                schema.clone(),
                output(schema),
                Normalization::default(),
            );
        }
    }
    memo
}

/// `schema` with a `"$comment"` member added at the root (an object schema), so it is no longer identical.
fn changed(schema: &Value) -> Value {
    let mut out = schema.clone();
    if let Some(map) = out.as_object_mut() {
        map.insert("$comment".to_owned(), Value::String("changed".to_owned()));
    }
    out
}

fn cache(c: &mut Criterion) {
    if testdata::require("the cache bench").is_none() {
        return;
    }
    let Some(corpus) = workload::mcp_corpus() else {
        return;
    };
    let schemas: Vec<Value> = corpus
        .iter()
        .flat_map(|(_, request)| workload::input_schemas(request))
        .collect();
    let key = Options::for_target(Target::Anthropic);

    let mut group = c.benchmark_group("cache/lookup");
    let unchanged = filled(&key, &schemas, Value::clone);
    let mut inputs = schemas.clone();
    group.bench_function(format!("hit-unchanged/{WORKLOAD}"), |b| {
        b.iter(|| {
            for schema in &mut inputs {
                if let Lookup::Hit(hit) = unchanged.lookup(&key, schema) {
                    hit.apply(schema);
                    black_box(hit.report());
                }
            }
        });
    });
    drop(unchanged);
    let different = filled(&key, &schemas, changed);
    group.bench_function(format!("hit-changed/{WORKLOAD}"), |b| {
        b.iter_batched(
            || schemas.clone(),
            |mut batch| {
                for schema in &mut batch {
                    if let Lookup::Hit(hit) = different.lookup(&key, schema) {
                        hit.apply(schema);
                        black_box(hit.report());
                    }
                }
                batch
            },
            BatchSize::LargeInput,
        );
    });
    drop(different);
    let empty = memo();
    group.bench_function(format!("miss/{WORKLOAD}"), |b| {
        b.iter(|| {
            for schema in &schemas {
                black_box(matches!(
                    empty.lookup(&key, black_box(schema)),
                    Lookup::Miss(_)
                ));
            }
        });
    });
    group.finish();

    let state = RandomState::new();
    let mut group = c.benchmark_group("cache/fingerprint");
    group.bench_function(WORKLOAD, |b| {
        b.iter(|| {
            for schema in &schemas {
                black_box(Fingerprint::new(black_box(schema), state.build_hasher()));
            }
        });
    });
    group.finish();
    support::baseline(c, "cache", [(WORKLOAD, schemas.as_slice())]);
}

criterion_group! {
    name = benches;
    config = support::config();
    targets = cache
}
criterion_main!(benches);
