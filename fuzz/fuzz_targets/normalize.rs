//! Fuzz target `normalize`: `normalize_with` returns on any JSON for every target, strict and not, and its result
//! is the fallback or passes the target's check, is the same with and without the memo, and is a fixed point (but for
//! one known bug, see below).
//!
//! The input is one JSON document followed by optional selector bytes: their sum picks the target (any built-in),
//! strict (off, on), the memo (off, own) and diagnostics (off, on), so plain JSON seeds start at Chat, non-strict.
//! The output schema path (`normalize_output_with`) runs on the same document.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use llmshim::cache::{Limits, Memo};
use llmshim::schema::{Env, EnvFlags, Normalizer, Options, Target, check_with};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let mut stream = serde_json::Deserializer::from_slice(data).into_iter::<Value>();
    let Some(Ok(input)) = stream.next() else {
        return;
    };
    let rest = data.get(stream.byte_offset()..).unwrap_or_default();
    let selector: usize = rest.iter().map(|b| usize::from(*b)).sum();
    let target = Target::BUILTIN[selector % Target::BUILTIN.len()];
    let strict = (selector / 6) % 2 == 1;
    let memo = (selector / 12) % 2 == 1;
    let diagnostics = (selector / 24) % 2 == 1;
    let options = Options::for_target(target)
        .with_strict(strict)
        .with_diagnostics(diagnostics);

    let env = Env::Fixed(EnvFlags::default());
    let uncached = Normalizer::new(env).without_memo();
    let mut out = input.clone();
    let report = uncached.normalize_with(&options, &mut out);

    if memo {
        let cached = Normalizer::new(env).with_memo(Arc::new(Memo::new(Limits::default())));
        for _ in 0..2 {
            let mut again = input.clone();
            let again_report = cached.normalize_with(&options, &mut again);
            assert_eq!(again_report, report, "the memo changed the report");
            assert_eq!(
                serde_json::to_string(&again).ok(),
                serde_json::to_string(&out).ok(),
                "the memo changed the output"
            );
        }
    }

    if report.used_fallback {
        assert_eq!(out, serde_json::json!({"type": "object", "properties": {}}));
    } else {
        let effective = options.clone().with_strict(report.strict);
        let problems = check_with(&effective, &out);
        assert!(problems.is_empty(), "{out} fails its check: {problems:?}");
        let mut again = out.clone();
        let again_report =
            uncached.normalize_with(&options.clone().with_diagnostics(true), &mut again);
        assert!(
            !again_report.changed,
            "normalizing {out} again changed it: {again_report:?}"
        );
    }

    let output = uncached.normalize_output_with(&options, &input);
    if !output.normalization.used_fallback {
        let effective = options
            .clone()
            .with_strict(output.normalization.strict)
            .with_structured_output(true);
        let problems = check_with(&effective, &output.schema);
        assert!(
            problems.is_empty(),
            "output schema {} fails its check: {problems:?}",
            output.schema
        );
    }
});
