//! The memo through the real normalizer, with memos of the tests' own.

use std::sync::Arc;

use llmshim::cache::{Limits, Stats};
use llmshim::schema::{
    Budget, Env, EnvFlags, Keywords, Normalization, Normalizer, Nullable, Options, SchemaMemo,
    Target,
};
use serde_json::{Map, Value, json};

fn memo(limits: Limits) -> Arc<SchemaMemo> {
    Arc::new(SchemaMemo::new(limits))
}

fn cached(memo: &Arc<SchemaMemo>, flags: EnvFlags) -> Normalizer {
    Normalizer::new(Env::Fixed(flags)).with_memo(Arc::clone(memo))
}

fn uncached(flags: EnvFlags) -> Normalizer {
    Normalizer::new(Env::Fixed(flags)).without_memo()
}

fn run(normalizer: &Normalizer, options: &Options, input: &Value) -> (Value, Normalization) {
    let mut value = input.clone();
    let report = normalizer.normalize_with(options, &mut value);
    (value, report)
}

fn text(value: &Value) -> String {
    serde_json::to_string(value).expect("a value serializes")
}

/// Hits, misses, inserts, evictions and entries, the counters a test reasons about.
fn counts(stats: Stats) -> [u64; 5] {
    [
        stats.hits,
        stats.misses,
        stats.inserts,
        stats.evictions,
        stats.entries as u64,
    ]
}

fn p_g_schema() -> Value {
    json!({"type": "object", "properties": {"a": {"type": "string"}}})
}

/// The strict closing example: Chat strict changes it.
fn k1() -> Value {
    json!({"type": "object", "properties": {
        "city": {"type": "string", "description": "City name"},
        "units": {"type": "string", "enum": ["c", "f"], "default": "c"}
    }, "required": ["city"]})
}

fn chat_strict() -> Options {
    Options::for_target(Target::OpenAiChat).with_strict(true)
}

#[test]
fn identical_inputs_build_once_and_an_exact_no_op_hit_leaves_the_value_in_place() {
    let m = memo(Limits::default());
    let n = cached(&m, EnvFlags::default());
    let options = Options::for_target(Target::Anthropic);
    let (first, first_report) = run(&n, &options, &p_g_schema());
    assert_eq!(counts(m.stats()), [0, 1, 1, 0, 1]);
    assert_eq!(text(&first), text(&p_g_schema()));
    assert!(!first_report.changed);
    let mut value = p_g_schema();
    let buffer = value["properties"]["a"]["type"].as_str().map(str::as_ptr);
    let report = n.normalize_with(&options, &mut value);
    assert_eq!(counts(m.stats()), [1, 1, 1, 0, 1]);
    assert_eq!(report, first_report);
    // The caller's value was not replaced: its string buffer is the one it had.
    assert_eq!(
        value["properties"]["a"]["type"].as_str().map(str::as_ptr),
        buffer
    );
    assert_eq!(text(&value), text(&p_g_schema()));
}

#[test]
fn a_changed_hit_returns_an_independent_copy_equal_to_the_first_result() {
    let m = memo(Limits::default());
    let n = cached(&m, EnvFlags::default());
    let (mut first, first_report) = run(&n, &chat_strict(), &k1());
    assert!(first_report.strict && first_report.changed);
    let expected = text(&first);
    // Mutating a returned value never reaches the memo.
    first["properties"]["city"]["type"] = json!("mutated");
    let (second, second_report) = run(&n, &chat_strict(), &k1());
    assert_eq!(text(&second), expected);
    assert_eq!(second_report, first_report);
    let (mut third, _) = run(&n, &chat_strict(), &k1());
    third["required"] = json!([]);
    let (fourth, _) = run(&n, &chat_strict(), &k1());
    assert_eq!(text(&fourth), expected);
    assert_eq!(counts(m.stats()), [3, 1, 1, 0, 1]);
    // The cached result equals an uncached run.
    let (plain, plain_report) = run(&uncached(EnvFlags::default()), &chat_strict(), &k1());
    assert_eq!(text(&plain), expected);
    assert_eq!(plain_report, first_report);
}

#[test]
fn an_output_fed_back_reports_no_change() {
    let m = memo(Limits::default());
    let n = cached(&m, EnvFlags::default());
    for (target, strict, input) in [
        (Target::OpenAiChat, true, k1()),
        (
            Target::Google,
            false,
            json!({"type": "object", "properties": {"n": {"type": ["string", "null"], "format": "email"}}}),
        ),
        (
            Target::OpenAiResponses,
            true,
            json!({"type": "object", "properties": {"p": {"type": "string", "pattern": "^(?=a)a$"}}}),
        ),
    ] {
        let options = Options::for_target(target).with_strict(strict);
        let (output, report) = run(&n, &options, &input);
        assert!(report.changed, "{target}");
        let (again, again_report) = run(&n, &options, &output);
        assert!(!again_report.changed, "{target}");
        assert_eq!(again_report.strict, report.strict, "{target}");
        assert_eq!(text(&again), text(&output), "{target}");
        // The fed-back output is an entry of its own, and its hit still says no change.
        let before = m.stats();
        let (_, hit_report) = run(&n, &options, &output);
        assert_eq!(m.stats().hits, before.hits + 1);
        assert_eq!(hit_report, again_report);
    }
}

#[test]
fn invalid_input_gives_a_cached_fallback_report() {
    let m = memo(Limits::default());
    let n = cached(&m, EnvFlags::default());
    let input = json!({"type": "object", "properties": {"a": {"$ref": "https://example.test/a.json"}}, "required": ["a"]});
    let options = Options::for_target(Target::OpenAiChat);
    let (first, first_report) = run(&n, &options, &input);
    assert!(first_report.used_fallback);
    assert_eq!(
        first_report
            .fallback_reason
            .as_ref()
            .map(|r| r.kind.as_str()),
        Some("external_ref")
    );
    let (second, second_report) = run(&n, &options, &input);
    assert_eq!(counts(m.stats()), [1, 1, 1, 0, 1]);
    assert_eq!(second_report, first_report);
    assert_eq!(text(&second), text(&first));
    assert_eq!(
        text(&second),
        text(&json!({"type": "object", "properties": {}}))
    );
}

#[test]
fn every_options_field_changes_the_key() {
    let input = json!({"type": "object", "properties": {
        "a": {"type": ["string", "null"], "pattern": "^(?!x)\\w+$", "default": "y"},
        "b": {"oneOf": [{"type": "integer"}, {"type": "string"}]}
    }});
    let base = Options::for_target(Target::OpenAiChat);
    let variants: Vec<(&str, Options)> = vec![
        ("target", Options::for_target(Target::OpenAiResponses)),
        ("strict", base.clone().with_strict(true)),
        ("nullable", base.clone().with_nullable(Nullable::Marker)),
        ("rewrite_one_of", base.clone().with_rewrite_one_of(true)),
        (
            "strip_lookarounds",
            base.clone().with_strip_lookarounds(true),
        ),
        (
            "max_depth",
            base.clone()
                .with_budget(Budget::default().with_max_depth(40)),
        ),
        (
            "max_nodes",
            base.clone()
                .with_budget(Budget::default().with_max_nodes(1000)),
        ),
        (
            "max_literal_bytes",
            base.clone()
                .with_budget(Budget::default().with_max_literal_bytes(1 << 20)),
        ),
        ("diagnostics", base.clone().with_diagnostics(true)),
        (
            "structured_output",
            base.clone().with_structured_output(true),
        ),
        (
            "keywords",
            base.clone().with_keywords(Keywords::Conservative),
        ),
    ];
    for (field, variant) in variants {
        assert_ne!(variant, base, "{field}");
        let m = memo(Limits::default());
        let n = cached(&m, EnvFlags::default());
        run(&n, &base, &input);
        let (value, report) = run(&n, &variant, &input);
        assert_eq!(counts(m.stats()), [0, 2, 2, 0, 2], "{field}");
        let (plain, plain_report) = run(&uncached(EnvFlags::default()), &variant, &input);
        assert_eq!(text(&value), text(&plain), "{field}");
        assert_eq!(report, plain_report, "{field}");
        // Both entries are now served by hits.
        run(&n, &base, &input);
        run(&n, &variant, &input);
        assert_eq!(counts(m.stats()), [2, 2, 2, 0, 2], "{field}");
    }
    // `bypass` never reaches the memo: the report says bypassed and nothing is counted.
    let m = memo(Limits::default());
    let n = cached(&m, EnvFlags::default());
    run(&n, &base, &input);
    let (value, report) = run(&n, &base.clone().with_bypass(true), &input);
    assert_eq!(report, Normalization::bypassed());
    assert_eq!(text(&value), text(&input));
    assert_eq!(counts(m.stats()), [0, 1, 1, 0, 1]);
}

#[test]
fn the_key_holds_the_effective_options() {
    // Google has no strict profile and LLMSHIM_NO_STRICT turns strict off, so in both cases a strict request and
    // a plain one are the same normalization and share one entry.
    let input = p_g_schema();
    let m = memo(Limits::default());
    let google = cached(&m, EnvFlags::default());
    run(&google, &Options::for_target(Target::Google), &input);
    let (_, report) = run(
        &google,
        &Options::for_target(Target::Google).with_strict(true),
        &input,
    );
    assert!(!report.strict);
    assert_eq!(counts(m.stats()), [1, 1, 1, 0, 1]);
    let m = memo(Limits::default());
    let no_strict = cached(&m, EnvFlags::default().with_no_strict(true));
    run(&no_strict, &Options::for_target(Target::OpenAiChat), &input);
    let (value, report) = run(&no_strict, &chat_strict(), &input);
    assert!(!report.strict);
    assert_eq!(text(&value), text(&input));
    assert_eq!(counts(m.stats()), [1, 1, 1, 0, 1]);
}

#[test]
fn toggling_flags_after_warm_up_takes_effect() {
    let m = memo(Limits::default());
    let normal = cached(&m, EnvFlags::default());
    let no_strict = cached(&m, EnvFlags::default().with_no_strict(true));
    let bypass = cached(&m, EnvFlags::default().with_no_schema_normalization(true));
    let (strict_out, strict_report) = run(&normal, &chat_strict(), &k1());
    assert!(strict_report.strict);
    run(&normal, &chat_strict(), &k1());
    // LLMSHIM_NO_STRICT after warm-up: the strict entry is not served.
    let (relaxed, relaxed_report) = run(&no_strict, &chat_strict(), &k1());
    assert!(!relaxed_report.strict);
    assert_eq!(relaxed_report.fallback_reason, None);
    let (plain, _) = run(
        &uncached(EnvFlags::default()),
        &Options::for_target(Target::OpenAiChat),
        &k1(),
    );
    assert_eq!(text(&relaxed), text(&plain));
    assert_ne!(text(&relaxed), text(&strict_out));
    // LLMSHIM_NO_SCHEMA_NORMALIZATION after warm-up: nothing is served and nothing is counted.
    let before = m.stats();
    let (bypassed, bypassed_report) = run(&bypass, &chat_strict(), &k1());
    assert_eq!(bypassed_report, Normalization::bypassed());
    assert_eq!(text(&bypassed), text(&k1()));
    assert_eq!(counts(m.stats()), counts(before));
    // Turning the flags off again serves the strict entry.
    let (again, again_report) = run(&normal, &chat_strict(), &k1());
    assert_eq!(text(&again), text(&strict_out));
    assert_eq!(again_report, strict_report);
    assert_eq!(counts(m.stats()), [2, 2, 2, 0, 2]);
}

/// Schemas covering hits, changes, demotions and fallbacks on every target.
fn sample_schemas() -> Vec<Value> {
    vec![
        p_g_schema(),
        k1(),
        json!({"type": "object", "properties": {"xs": {"type": "array"}}, "required": ["xs"]}),
        json!({"type": "object", "properties": {"free": true}}),
        json!({"$ref": "#/missing"}),
        json!({"type": "string"}),
        json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "$defs": {"P": {"type": "object", "properties": {"x": {"type": "number"}}}}}),
        json!({"oneOf": [{"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]}, {"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}]}),
        json!({"type": "object", "properties": {"v": {"type": ["string", "integer", "null"], "minimum": 0}}}),
        json!({"type": "object", "properties": {"z": {"type": "number", "default": -0.0}}, "required": ["z"]}),
        json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^(?!tmp)[a-z]+$", "format": "uuid"}}}),
        json!({"type": "object", "properties": {"cfg": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "integer"}}}]}}}),
    ]
}

#[test]
fn no_schema_cache_gives_byte_identical_results_and_leaves_stats_untouched() {
    let m = memo(Limits::default());
    let normal = cached(&m, EnvFlags::default());
    let off = cached(&m, EnvFlags::default().with_no_schema_cache(true));
    let mut compared = 0usize;
    for target in Target::BUILTIN {
        for strict in [false, true] {
            for diagnostics in [false, true] {
                let options = Options::for_target(target)
                    .with_strict(strict)
                    .with_diagnostics(diagnostics);
                for input in sample_schemas() {
                    // A miss, then a hit, on the memo.
                    let (miss, miss_report) = run(&normal, &options, &input);
                    let (hit, hit_report) = run(&normal, &options, &input);
                    let before = m.stats();
                    let (value, report) = run(&off, &options, &input);
                    assert_eq!(counts(m.stats()), counts(before));
                    assert_eq!(m.stats().bytes, before.bytes);
                    assert_eq!(text(&value), text(&miss), "{target} {input}");
                    assert_eq!(text(&value), text(&hit), "{target} {input}");
                    assert_eq!(report, miss_report, "{target} {input}");
                    assert_eq!(report, hit_report, "{target} {input}");
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(
        compared,
        Target::BUILTIN.len() * 2 * 2 * sample_schemas().len()
    );
    // Normalization stays on: the example is still rewritten under Chat strict.
    let (value, report) = run(&off, &chat_strict(), &k1());
    assert!(report.strict && report.changed);
    assert_eq!(value["required"], json!(["city", "units"]));
}

#[test]
fn signed_zeros_never_share_an_entry() {
    let schema = |zero: f64| json!({"type": "object", "properties": {"z": {"type": "number", "default": zero}}, "required": ["z"]});
    let expected = |text: &str| json!({"type": "object", "properties": {"z": {"type": "number", "description": text}}, "required": ["z"], "additionalProperties": false});
    let positive = (schema(0.0), expected("(default: 0.0)"));
    let negative = (schema(-0.0), expected("(default: -0.0)"));
    // Value equality cannot tell the inputs apart; identity can.
    assert_eq!(positive.0, negative.0);
    assert_ne!(text(&positive.0), text(&negative.0));
    for order in [
        [&positive, &negative, &positive, &negative],
        [&negative, &positive, &negative, &positive],
    ] {
        let m = memo(Limits::default());
        let n = cached(&m, EnvFlags::default());
        for (input, output) in order {
            let (value, report) = run(&n, &chat_strict(), input);
            assert_eq!(text(&value), text(output));
            assert!(report.strict && report.changed);
        }
        assert_eq!(counts(m.stats()), [2, 2, 2, 0, 2]);
    }
}

#[test]
fn key_order_and_number_kinds_are_distinct_entries() {
    let ab = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer", "default": 1}}});
    let ba = json!({"type": "object", "properties": {"b": {"type": "integer", "default": 1}, "a": {"type": "string"}}});
    let float = json!({"type": "object", "properties": {"b": {"type": "integer", "default": 1.0}, "a": {"type": "string"}}});
    let m = memo(Limits::default());
    let n = cached(&m, EnvFlags::default());
    let plain = uncached(EnvFlags::default());
    for _ in 0..2 {
        for input in [&ab, &ba, &float] {
            let (value, report) = run(&n, &chat_strict(), input);
            let (expected, expected_report) = run(&plain, &chat_strict(), input);
            assert_eq!(text(&value), text(&expected));
            assert_eq!(report, expected_report);
        }
    }
    assert_eq!(counts(m.stats()), [3, 3, 3, 0, 3]);
    let (from_ab, _) = run(&n, &chat_strict(), &ab);
    let (from_float, _) = run(&n, &chat_strict(), &float);
    assert!(text(&from_ab).starts_with(r#"{"type":"object","properties":{"a""#));
    assert!(text(&from_float).contains("(default: 1.0)"));
}

#[test]
fn capacity_two_keeps_the_recently_used_entry() {
    let m = memo(Limits::default().with_max_entries(2));
    let n = cached(&m, EnvFlags::default());
    let options = Options::for_target(Target::Mcp);
    let first = json!({"type": "string"});
    let second = json!({"type": "number"});
    let third = json!({"type": "boolean"});
    run(&n, &options, &first);
    run(&n, &options, &second);
    run(&n, &options, &first);
    run(&n, &options, &third);
    assert_eq!(counts(m.stats()), [1, 3, 3, 1, 2]);
    // `first` was used after `second`, so `second` was evicted.
    run(&n, &options, &first);
    assert_eq!(m.stats().hits, 2);
    run(&n, &options, &second);
    assert_eq!(counts(m.stats()), [2, 4, 4, 2, 2]);
}

#[test]
fn a_byte_cap_of_one_entry_keeps_one_entry() {
    // The fingerprint: `{"type":"string"}` is estimated at 778 bytes; an unchanged entry charges input + output + 512.
    let charge = 778 + 778 + 512;
    let m = memo(Limits::default().with_max_bytes(charge));
    let n = cached(&m, EnvFlags::default());
    let options = Options::for_target(Target::Mcp);
    run(&n, &options, &json!({"type": "string"}));
    let stats = m.stats();
    assert_eq!(counts(stats), [0, 1, 1, 0, 1]);
    assert_eq!(stats.bytes, charge);
    run(&n, &options, &json!({"type": "number"}));
    assert_eq!(counts(m.stats()), [0, 2, 2, 1, 1]);
    // A cap of one byte caches nothing, and results are unaffected.
    let m = memo(Limits::default().with_max_bytes(1));
    let n = cached(&m, EnvFlags::default());
    for _ in 0..2 {
        let (value, report) = run(&n, &chat_strict(), &k1());
        let (expected, expected_report) =
            run(&uncached(EnvFlags::default()), &chat_strict(), &k1());
        assert_eq!(text(&value), text(&expected));
        assert_eq!(report, expected_report);
    }
    let stats = m.stats();
    assert_eq!(counts(stats), [0, 2, 0, 0, 0]);
    assert_eq!(stats.bytes, 0);
}

#[test]
fn inputs_beyond_the_bounded_key_work_take_the_uncached_path() {
    let mut deep = json!(0);
    for _ in 0..100 {
        deep = json!([deep]);
    }
    let deep = json!({"type": "object", "properties": {}, "default": deep});
    let wide = json!({"type": "array", "items": {}, "default": vec![0; 32_769]});
    let m = memo(Limits::default());
    let n = cached(&m, EnvFlags::default());
    for input in [&deep, &wide] {
        for options in [Options::for_target(Target::Mcp), chat_strict()] {
            let (value, report) = run(&n, &options, input);
            let (expected, expected_report) = run(&uncached(EnvFlags::default()), &options, input);
            assert_eq!(text(&value), text(&expected));
            assert_eq!(report, expected_report);
            // The usual checks apply: where the literal survives (Mcp), the fixed limits refuse the result; under
            // Chat strict `default` is lifted into a description, which they accept.
            if options.target == Target::Mcp {
                assert!(report.used_fallback, "{report:?}");
            }
        }
    }
    assert_eq!(counts(m.stats()), [0; 5]);
}

#[test]
fn mcp_tools_and_output_schemas_use_the_memo() {
    let m = memo(Limits::default());
    let n = cached(&m, EnvFlags::default());
    let tool = json!({"name": "t", "inputSchema": {"type": "string"}});
    for _ in 0..2 {
        let mut value = tool.clone();
        let report = n.normalize_mcp_tool(&mut value);
        assert!(report.used_fallback);
        assert_eq!(
            value["inputSchema"],
            json!({"type": "object", "properties": {}})
        );
    }
    assert_eq!(counts(m.stats()), [1, 1, 1, 0, 1]);
    let options = Options::for_target(Target::Anthropic).with_strict(true);
    let first = n.normalize_output_with(
        &options,
        &json!({"type": "array", "items": {"type": "string"}}),
    );
    let second = n.normalize_output_with(
        &options,
        &json!({"type": "array", "items": {"type": "string"}}),
    );
    assert_eq!(text(&first.schema), text(&second.schema));
    assert_eq!(first.normalization, second.normalization);
    assert!(second.wrapped);
    // Two passes per output schema: two misses, then two hits.
    assert_eq!(counts(m.stats()), [3, 3, 3, 0, 3]);
}

#[test]
fn eight_threads_of_hits_cause_no_rebuild() {
    let m = memo(Limits::default());
    let n = cached(&m, EnvFlags::default());
    let (expected, expected_report) = run(&n, &chat_strict(), &k1());
    std::thread::scope(|scope| {
        for _ in 0..8 {
            scope.spawn(|| {
                for _ in 0..50 {
                    let (value, report) = run(&n, &chat_strict(), &k1());
                    assert_eq!(value, expected);
                    assert_eq!(report, expected_report);
                }
            });
        }
    });
    assert_eq!(counts(m.stats()), [400, 1, 1, 0, 1]);
}

/// A deterministic pseudo-random sequence (`SplitMix64`), so that every run of the test does the same work.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// 240 (options, input) pairs: 60 small schemas, each for four option sets.
fn workload() -> Vec<(Options, Value)> {
    let option_sets = [
        chat_strict(),
        Options::for_target(Target::Anthropic),
        Options::for_target(Target::Google),
        Options::for_target(Target::OpenAiResponses)
            .with_strict(true)
            .with_diagnostics(true),
    ];
    let mut pairs = Vec::new();
    for i in 0..60u32 {
        let mut properties = Map::new();
        properties.insert(
            format!("p{i}"),
            json!({"type": "string", "default": format!("d{i}"), "maxLength": i}),
        );
        if i % 3 == 0 {
            properties.insert(
                "n".to_owned(),
                json!({"type": ["integer", "null"], "minimum": i}),
            );
        }
        if i % 5 == 0 {
            properties.insert("r".to_owned(), json!({"$ref": "#/missing"}));
        }
        let schema =
            json!({"type": "object", "properties": properties, "required": [format!("p{i}")]});
        for options in &option_sets {
            pairs.push((options.clone(), schema.clone()));
        }
    }
    pairs
}

#[test]
fn eight_threads_of_mixed_hits_and_misses_return_uncached_results() {
    let pairs = workload();
    let plain = uncached(EnvFlags::default());
    let expected: Vec<(String, Normalization)> = pairs
        .iter()
        .map(|(options, input)| {
            let (value, report) = run(&plain, options, input);
            (text(&value), report)
        })
        .collect();
    // 64 entries hold the 48 hot pairs but not all 240, so evictions keep producing misses.
    let m = memo(Limits::default().with_max_entries(64));
    let n = cached(&m, EnvFlags::default());
    let per_thread = 10_000u64;
    std::thread::scope(|scope| {
        for thread in 0..8u64 {
            let (pairs, expected, n) = (&pairs, &expected, &n);
            scope.spawn(move || {
                for k in 0..per_thread {
                    let r = mix(thread * per_thread + k);
                    // Four draws in five come from the first 48 pairs, the rest from all of them.
                    let index = if r.is_multiple_of(5) {
                        (r >> 8) as usize % pairs.len()
                    } else {
                        (r >> 8) as usize % 48
                    };
                    let (options, input) = &pairs[index];
                    let (value, report) = run(n, options, input);
                    assert_eq!(text(&value), expected[index].0, "pair {index}");
                    assert_eq!(report, expected[index].1, "pair {index}");
                }
            });
        }
    });
    let stats = m.stats();
    eprintln!(
        "suite: memo, 8 threads x {per_thread}: {} hits, {} misses, {} inserts, {} evictions",
        stats.hits, stats.misses, stats.inserts, stats.evictions
    );
    assert_eq!(stats.hits + stats.misses, 8 * per_thread);
    assert!(stats.hits > 0 && stats.misses > 0 && stats.evictions > 0);
    assert!(stats.entries <= 64);
}
