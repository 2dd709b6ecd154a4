//! The strict stage bench: strict enforcement as the public API offers it, on pydantic-generated schemas and a real
//! MCP server's tool input schemas, against a same-run baseline of parsing and serializing the same schemas' text.
//!
//! Strict enforcement has no entry point of its own inside normalization: its passes (`llmshim_strict::KeepList`
//! and `CloseObjects`) run in the one walk the facade composes, and the facade adds the strict structural check,
//! the OpenAI limits and the demotion retry around it. So `strict/normalize_with` measures uncached
//! `normalize_with` for OpenAI Chat and Anthropic with strict off and on over the same schemas: the difference
//! between the `strict` and `plain` ids is what strict costs (including the second, non-strict attempt of every
//! schema that is demoted). `strict/fits` measures `llmshim_strict::fits`, the OpenAI strict limits
//! (`openai.strict-limits`), which normalization runs on every strict OpenAI result, on the Chat results that
//! came out strict.
//! Inputs are cloned outside the timed region (`iter_batched`) where normalization consumes them.
//!
//! Groups `strict/normalize_with` (ids `<target>/<plain|strict>/<workload>`) and `strict/fits` (ids
//! `<workload>`); group `baseline`, ids `serde_roundtrip/strict/<workload>`.

mod support;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use llmshim::schema::{Env, EnvFlags, Normalizer, Options, Target};
use llmshim_benches::{testdata, workload};
use serde_json::Value;

/// The targets the bench normalizes for, from the table of built-in targets: the first whose strict profile has
/// the OpenAI per-schema limits and the first whose strict profile has the Anthropic request budget.
fn targets() -> Vec<Target> {
    let strict = |t: &Target| t.rules().rules().strict;
    let limits = Target::BUILTIN
        .into_iter()
        .find(|t| strict(t).is_some_and(|p| p.openai_limits.is_some()));
    let budget = Target::BUILTIN
        .into_iter()
        .find(|t| strict(t).is_some_and(|p| p.anthropic_budget.is_some()));
    limits.into_iter().chain(budget).collect()
}

/// The MCP server (file stem of `mcp-tools/*.json`) of the second workload.
const SERVER: &str = "github-mcp-server";

fn uncached() -> Normalizer {
    Normalizer::new(Env::Fixed(EnvFlags::default().with_no_schema_cache(true)))
}

/// The workloads, or `None` (after one printed line) without test data.
fn workloads() -> Option<Vec<(&'static str, Vec<Value>)>> {
    testdata::require("the strict bench")?;
    let pydantic = workload::generated_schemas("pydantic")?
        .into_iter()
        .map(|(_, schema)| schema)
        .collect();
    let corpus = workload::mcp_corpus()?;
    let Some((_, request)) = corpus.iter().find(|(stem, _)| stem == SERVER) else {
        panic!("corrupt test data: mcp-tools/{SERVER}.json is missing");
    };
    Some(vec![
        ("pydantic", pydantic),
        (SERVER, workload::input_schemas(request)),
    ])
}

fn strict(c: &mut Criterion) {
    let Some(workloads) = workloads() else {
        return;
    };
    let normalizer = uncached();
    let targets = targets();
    let mut group = c.benchmark_group("strict/normalize_with");
    for &target in &targets {
        for (mode, on) in [("plain", false), ("strict", true)] {
            let options = Options::for_target(target).with_strict(on);
            for (name, schemas) in &workloads {
                let id = format!("{target}/{mode}/{name}");
                support::normalize_each(&mut group, id, &normalizer, &options, schemas);
            }
        }
    }
    group.finish();

    // The limits bench runs on the results of the target with OpenAI limits, and with its limits.
    let Some((limited, limits)) = targets.first().and_then(|&t| {
        let limits = t.rules().rules().strict?.openai_limits?;
        Some((t, limits))
    }) else {
        panic!("no built-in target has the OpenAI strict limits");
    };
    let options = Options::for_target(limited).with_strict(true);
    let mut group = c.benchmark_group("strict/fits");
    for (name, schemas) in &workloads {
        let strict_outputs: Vec<Value> = schemas
            .iter()
            .filter_map(|schema| {
                let mut out = schema.clone();
                normalizer
                    .normalize_with(&options, &mut out)
                    .strict
                    .then_some(out)
            })
            .collect();
        group.bench_function(*name, |b| {
            b.iter(|| {
                for out in &strict_outputs {
                    black_box(llmshim_strict::fits(black_box(out), &limits).is_ok());
                }
            });
        });
    }
    group.finish();
    support::baseline(
        c,
        "strict",
        workloads.iter().map(|(n, s)| (*n, s.as_slice())),
    );
}

criterion_group! {
    name = benches;
    config = support::config();
    targets = strict
}
criterion_main!(benches);
