//! The published transform benchmark: native tool translation at several tool counts, cached and
//! uncached, against a same-run baseline of parsing and serializing the same request; and the real MCP corpus.

mod support;

use std::hint::black_box;

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use std::sync::Arc;

use llmshim::cache::Limits;
use llmshim::schema::{Env, EnvFlags, Normalizer, Options, SchemaMemo, Target};
use llmshim_benches::workload;
use serde_json::Value;

fn uncached() -> Normalizer {
    Normalizer::new(Env::Fixed(EnvFlags::default().with_no_schema_cache(true)))
}

fn transform(c: &mut Criterion) {
    let options = Options::for_target(Target::Anthropic);
    let mut group = c.benchmark_group("tools/normalize_native_tools");
    for n in workload::TOOL_COUNTS {
        let request = workload::transform_request(n);
        let cached = Normalizer::default();
        // One untimed call warms the process-wide memo.
        let mut warm = request.clone();
        cached.normalize_native_tools(&options, &mut warm);
        group.bench_with_input(
            BenchmarkId::new("anthropic/cached", n),
            &request,
            |b, request| {
                b.iter(|| {
                    let mut clone = request.clone();
                    black_box(cached.normalize_native_tools(&options, &mut clone));
                    clone
                });
            },
        );
        let plain = uncached();
        group.bench_with_input(
            BenchmarkId::new("anthropic/uncached", n),
            &request,
            |b, request| {
                b.iter(|| {
                    let mut clone = request.clone();
                    black_box(plain.normalize_native_tools(&options, &mut clone));
                    clone
                });
            },
        );
    }
    group.finish();

    let mut baseline = c.benchmark_group("baseline");
    for n in workload::TOOL_COUNTS {
        let text = serde_json::to_string(&workload::transform_request(n)).unwrap_or_default();
        baseline.bench_with_input(BenchmarkId::new("serde_roundtrip", n), &text, |b, text| {
            b.iter(|| {
                let value: Value = serde_json::from_str(black_box(text)).unwrap_or(Value::Null);
                black_box(serde_json::to_string(&value).unwrap_or_default())
            });
        });
    }
    // The part of every transform iteration that is not translation: cloning the prepared request (and dropping the
    // clone), which the contract puts inside the timed region.
    for n in workload::TOOL_COUNTS {
        let request = workload::transform_request(n);
        baseline.bench_with_input(
            BenchmarkId::new("request_clone", n),
            &request,
            |b, request| {
                b.iter(|| black_box(request.clone()));
            },
        );
    }
    baseline.finish();
}

fn corpus(c: &mut Criterion) {
    let Some(corpus) = workload::mcp_corpus() else {
        return;
    };
    let requests: Vec<Value> = corpus.into_iter().map(|(_, r)| r).collect();
    write_counts(&requests);
    // The floor of any normalization that builds a new tree: one `Value::clone` of every tool schema of the corpus.
    // Like the corpus rows, whose results are dropped after the timed region, the clones are dropped outside it.
    let schemas: Vec<Value> = requests.iter().flat_map(workload::input_schemas).collect();
    let mut baseline = c.benchmark_group("baseline");
    baseline.bench_function("clone_schemas", |b| {
        b.iter_batched(
            || Vec::with_capacity(schemas.len()),
            |mut out: Vec<Value>| {
                out.extend(schemas.iter().map(|s| black_box(s).clone()));
                out
            },
            BatchSize::LargeInput,
        );
    });
    baseline.finish();
    let mut group = c.benchmark_group("corpus");
    for target in Target::BUILTIN {
        for (mode, strict) in [("plain", false), ("strict", true)] {
            let options = Options::for_target(target).with_strict(strict);
            // One pass holds 725 distinct schemas (each raw MCP tool's schema, normalized once for the target), more
            // than the default memo's 512 entries, so the cached rows use a memo of their own sized for the corpus.
            let memo = Arc::new(SchemaMemo::new(
                Limits::default()
                    .with_max_entries(8_192)
                    .with_max_bytes(512 << 20),
            ));
            let cached = Normalizer::default().with_memo(memo);
            for (cache, normalizer) in [("cached", cached), ("uncached", uncached())] {
                let mut warm = requests.clone();
                for r in &mut warm {
                    normalizer.normalize_native_tools(&options, r);
                }
                let id = format!("{target}/{mode}/{cache}");
                group.bench_function(id, |b| {
                    b.iter_batched(
                        || requests.clone(),
                        |mut batch| {
                            for r in &mut batch {
                                black_box(normalizer.normalize_native_tools(&options, r));
                            }
                            batch
                        },
                        BatchSize::LargeInput,
                    );
                });
            }
        }
    }
    group.finish();
}

/// Writes, for each target and mode, how many corpus tools fell back, were demoted from strict or changed, to
/// `target/criterion/corpus-counts.json`, where `cargo xtask bench` reads it for the README.
fn write_counts(requests: &[Value]) {
    let normalizer = uncached();
    let mut rows = Vec::new();
    for target in Target::BUILTIN {
        for (mode, strict) in [("plain", false), ("strict", true)] {
            let options = Options::for_target(target).with_strict(strict);
            let (mut tools, mut fallbacks, mut demoted, mut changed) = (0, 0, 0, 0);
            for request in requests {
                let mut r = request.clone();
                let report = normalizer.normalize_native_tools(&options, &mut r);
                for t in &report.tools {
                    tools += 1;
                    let n = &t.normalization;
                    fallbacks += usize::from(n.used_fallback);
                    demoted +=
                        usize::from(strict && !n.used_fallback && n.fallback_reason.is_some());
                    changed += usize::from(n.changed);
                }
            }
            rows.push(serde_json::json!({
                "target": target.to_string(), "mode": mode, "tools": tools,
                "fallbacks": fallbacks, "demoted": demoted, "changed": changed
            }));
        }
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion");
    let text = serde_json::to_string_pretty(&Value::Array(rows)).unwrap_or_default();
    if std::fs::create_dir_all(&dir).is_ok() {
        // A failed write only means the README loses its counts; the timings are unaffected.
        let _ = std::fs::write(dir.join("corpus-counts.json"), text);
    }
}

criterion_group! {
    name = benches;
    config = support::config();
    targets = transform, corpus
}
criterion_main!(benches);
