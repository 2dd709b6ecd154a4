//! The pipeline stage bench: uncached `normalize_with` of every tool `inputSchema` of a real MCP server, per
//! built-in target, against a same-run baseline of parsing and serializing the same schemas' text.
//!
//! One iteration normalizes each schema of the server once, in place, with `Options::for_target(target)` (strict
//! off) through a normalizer with fixed environment flags and `LLMSHIM_NO_SCHEMA_CACHE` on, so every stage after
//! the memo runs for every schema: the registry pre-pass, the one walk, the structural check
//! and the compile gate (and the fallback where one is needed). The memo and process environment reads are not in
//! it. The schemas are cloned outside the timed region (`iter_batched`), because normalization consumes them.
//!
//! Group `pipeline/normalize_with`, ids `<target>/<server>`; group `baseline`, ids
//! `serde_roundtrip/pipeline/<server>`: `serde_json::from_str` plus `serde_json::to_string` of each schema's text.

mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use llmshim::schema::{Env, EnvFlags, Normalizer, Options, Target};

fn pipeline(c: &mut Criterion) {
    let Some(servers) = support::servers("the pipeline bench") else {
        return;
    };
    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default().with_no_schema_cache(true)));
    let mut group = c.benchmark_group("pipeline/normalize_with");
    for target in Target::BUILTIN {
        let options = Options::for_target(target);
        for (server, schemas) in &servers {
            let id = format!("{target}/{server}");
            support::normalize_each(&mut group, id, &normalizer, &options, schemas);
        }
    }
    group.finish();
    support::baseline(
        c,
        "pipeline",
        servers.iter().map(|(n, s)| (*n, s.as_slice())),
    );
}

criterion_group! {
    name = benches;
    config = support::config();
    targets = pipeline
}
criterion_main!(benches);
