//! One pass of a corpus bench row, for counting its instructions with callgrind where a wall-clock ratio is noise.
//!
//! `instructions <target> <plain|strict> <cached|uncached>` runs the row of `benches/benches/tools.rs`
//! (`corpus/<target>/<mode>/<cache>`: `normalize_native_tools` over every request of the MCP corpus) and
//! `instructions clone` runs `baseline/clone_schemas` (one `Value::clone` of every tool schema);
//! `instructions transform <n> <cached|uncached>` runs `tools/normalize_native_tools/anthropic/<cache>/<n>` (the
//! chat request of `workload::transform_request(n)` translated for Anthropic, its clone included as in the bench) and
//! `instructions roundtrip <n>` its baseline `baseline/serde_roundtrip/<n>` (parse and serialize the same request). Loading the corpus,
//! warming the memo and cloning the requests happen before the measured function, `measured_pass`, and dropping
//! the results after it, so `valgrind --tool=callgrind --toggle-collect=*measured_pass*` counts the pass alone.
//! `cargo xtask bench` runs it that way for every row when valgrind is installed.

// A command-line tool: stderr is how it reports a bad invocation.
#![allow(clippy::print_stderr)]

use std::hint::black_box;
use std::process::ExitCode;
use std::sync::Arc;

use llmshim::cache::Limits;
use llmshim::schema::{Env, EnvFlags, Normalizer, Options, SchemaMemo, Target};
use llmshim_benches::workload;
use serde_json::Value;

/// The work of one row, prepared outside the measured function.
enum Row {
    Clone(Vec<Value>),
    Corpus {
        normalizer: Normalizer,
        options: Options,
    },
    Transform {
        normalizer: Normalizer,
        options: Options,
        request: Value,
    },
    Roundtrip(String),
}

/// The pass that is counted: kept out of line so callgrind can switch collection on for it alone.
#[inline(never)]
fn measured_pass(row: &Row, requests: &mut [Value]) -> Vec<Value> {
    match row {
        Row::Clone(schemas) => {
            let mut out = Vec::with_capacity(schemas.len());
            out.extend(schemas.iter().map(|s| black_box(s).clone()));
            out
        }
        Row::Corpus {
            normalizer,
            options,
        } => {
            for request in requests.iter_mut() {
                black_box(normalizer.normalize_native_tools(options, request));
            }
            Vec::new()
        }
        Row::Transform {
            normalizer,
            options,
            request,
        } => {
            let mut clone = black_box(request).clone();
            black_box(normalizer.normalize_native_tools(options, &mut clone));
            vec![clone]
        }
        Row::Roundtrip(text) => {
            let value: Value = serde_json::from_str(black_box(text)).unwrap_or(Value::Null);
            black_box(serde_json::to_string(&value).unwrap_or_default());
            vec![value]
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(corpus) = workload::mcp_corpus() else {
        eprintln!("instructions: the shared test data is absent (set LLMSHIM_TESTDATA)");
        return ExitCode::FAILURE;
    };
    let requests: Vec<Value> = corpus.into_iter().map(|(_, r)| r).collect();
    let row = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["clone"] => Row::Clone(requests.iter().flat_map(workload::input_schemas).collect()),
        ["roundtrip", n] => {
            let Ok(n) = n.parse::<usize>() else {
                eprintln!("instructions: {n:?} is not a tool count");
                return ExitCode::FAILURE;
            };
            Row::Roundtrip(
                serde_json::to_string(&workload::transform_request(n)).unwrap_or_default(),
            )
        }
        ["transform", n, cache @ ("cached" | "uncached")] => {
            let Ok(n) = n.parse::<usize>() else {
                eprintln!("instructions: {n:?} is not a tool count");
                return ExitCode::FAILURE;
            };
            let options = Options::for_target(Target::Anthropic);
            // As in the bench: the default normalizer (its memo warmed by one call), or none.
            let normalizer = if cache == "cached" {
                Normalizer::default()
            } else {
                Normalizer::new(Env::Fixed(EnvFlags::default().with_no_schema_cache(true)))
            };
            let request = workload::transform_request(n);
            let mut warm = request.clone();
            normalizer.normalize_native_tools(&options, &mut warm);
            Row::Transform {
                normalizer,
                options,
                request,
            }
        }
        [
            target,
            mode @ ("plain" | "strict"),
            cache @ ("cached" | "uncached"),
        ] => {
            let Ok(target) = target.parse::<Target>() else {
                eprintln!("instructions: unknown target {target:?}");
                return ExitCode::FAILURE;
            };
            let options = Options::for_target(target).with_strict(mode == "strict");
            // As in the bench: a memo of its own sized for the corpus, or none.
            let normalizer = if cache == "cached" {
                let memo = Arc::new(SchemaMemo::new(
                    Limits::default()
                        .with_max_entries(8_192)
                        .with_max_bytes(512 << 20),
                ));
                Normalizer::default().with_memo(memo)
            } else {
                Normalizer::new(Env::Fixed(EnvFlags::default().with_no_schema_cache(true)))
            };
            let mut warm = requests.clone();
            for r in &mut warm {
                normalizer.normalize_native_tools(&options, r);
            }
            Row::Corpus {
                normalizer,
                options,
            }
        }
        _ => {
            eprintln!(
                "usage: instructions clone | instructions <target> <plain|strict> <cached|uncached> | \
                 instructions transform <n> <cached|uncached> | instructions roundtrip <n>"
            );
            return ExitCode::FAILURE;
        }
    };
    let mut batch = requests.clone();
    let out = measured_pass(&row, &mut batch);
    black_box((out, batch));
    ExitCode::SUCCESS
}
