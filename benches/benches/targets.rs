//! The targets stage bench: the target acceptance check, `llmshim::schema::check_with` per built-in target, on real
//! MCP servers' tool input schemas already normalized for that target, against a same-run baseline of parsing and
//! serializing the servers' original schemas' text.
//!
//! The rule-set passes of `llmshim-targets` are public types, but no public function runs them alone: they run
//! interleaved with the core, resolve and strict steps in the one walk the facade composes (its pass list is
//! private), so a walk of only the target passes is not a stage the product runs, and the walk is measured whole
//! by the `pipeline` bench. What the public API offers for the target stage alone is the structural check of a
//! finished schema against the target's rule set, which normalization runs on every walked schema; this bench
//! measures that. (`check_with` lists every violation where normalization stops at the
//! first; on an accepted schema both visit the whole tree.)
//!
//! One iteration checks every schema of the server once; the outputs are prepared before timing, uncached and with
//! strict off, and the check borrows them.
//!
//! Group `targets/check`, ids `<target>/<server>`; group `baseline`, ids `serde_roundtrip/targets/<server>`, over
//! the original (not normalized) schemas.

mod support;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use llmshim::schema::{Env, EnvFlags, Normalizer, Options, Target, check_with};
use serde_json::Value;

fn targets(c: &mut Criterion) {
    let Some(servers) = support::servers("the targets bench") else {
        return;
    };
    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default().with_no_schema_cache(true)));
    let mut group = c.benchmark_group("targets/check");
    for target in Target::BUILTIN {
        let options = Options::for_target(target);
        for (server, schemas) in &servers {
            let outputs: Vec<Value> = schemas
                .iter()
                .map(|schema| {
                    let mut out = schema.clone();
                    normalizer.normalize_with(&options, &mut out);
                    out
                })
                .collect();
            group.bench_function(format!("{target}/{server}"), |b| {
                b.iter(|| {
                    for out in &outputs {
                        black_box(check_with(&options, black_box(out)));
                    }
                });
            });
        }
    }
    group.finish();
    support::baseline(
        c,
        "targets",
        servers.iter().map(|(n, s)| (*n, s.as_slice())),
    );
}

criterion_group! {
    name = benches;
    config = support::config();
    targets = targets
}
criterion_main!(benches);
