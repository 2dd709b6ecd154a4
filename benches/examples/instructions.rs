//! One pass of a corpus bench row, for counting its instructions with callgrind where a wall-clock ratio is noise.
//!
//! `instructions <target> <plain|strict> <cached|uncached>` runs the row of `benches/benches/tools.rs`
//! (`corpus/<target>/<mode>/<cache>`: `normalize_native_tools` over every request of the MCP corpus) and
//! `instructions clone` runs `baseline/clone_schemas` (one `Value::clone` of every tool schema). Loading the corpus,
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
                "usage: instructions clone | instructions <target> <plain|strict> <cached|uncached>"
            );
            return ExitCode::FAILURE;
        }
    };
    let mut batch = requests.clone();
    let out = measured_pass(&row, &mut batch);
    black_box((out, batch));
    ExitCode::SUCCESS
}
