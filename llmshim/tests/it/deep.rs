//! Inputs nested far deeper than the stack allows a recursive copy, comparison or drop end in a fallback.

use std::thread;

use llmshim::schema::{Env, EnvFlags, FallbackKind, Normalizer, Options, Target};
use serde_json::{Map, Value, json};

fn deep(levels: usize) -> Value {
    let mut v = json!({"type": "string"});
    for _ in 0..levels {
        let mut m = Map::new();
        m.insert("type".to_owned(), json!("array"));
        m.insert("items".to_owned(), v);
        v = Value::Object(m);
    }
    v
}

/// Drops `value` without recursion (the recursive drop of `serde_json` would overflow).
fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, x)| x)),
            _ => {}
        }
    }
}

fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawns")
        .join()
        .expect("no overflow or panic");
}

#[test]
fn a_hundred_thousand_levels_fall_back_through_every_entry_point() {
    on_small_stack(|| {
        for target in Target::BUILTIN {
            for memo in [false, true] {
                let env = Env::Fixed(EnvFlags::default().with_no_schema_cache(!memo));
                let normalizer = Normalizer::new(env);
                let mut schema = deep(100_000);
                let report = normalizer.normalize_with(&Options::for_target(target), &mut schema);
                assert!(report.used_fallback, "{target}");
                assert_eq!(
                    report.fallback_reason.map(|r| r.kind),
                    Some(FallbackKind::BudgetDepth)
                );
                assert_eq!(schema, json!({"type": "object", "properties": {}}));
            }
            let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
            let mut request = json!({"tools": [
                {"type": "function", "function": {"name": "chat", "parameters": {}}},
                {"name": "anthropic", "input_schema": {}},
                {"functionDeclarations": [{"name": "google", "parameters": {}}]}
            ]});
            request["tools"][0]["function"]["parameters"] = deep(100_000);
            request["tools"][1]["input_schema"] = deep(100_000);
            request["tools"][2]["functionDeclarations"][0]["parameters"] = deep(100_000);
            let report =
                normalizer.normalize_native_tools(&Options::for_target(target), &mut request);
            dismantle(request);
            assert!(report.summary.used_fallback, "{target}");
            let original = deep(100_000);
            let out = normalizer.normalize_output_with(&Options::for_target(target), &original);
            dismantle(original);
            assert!(out.normalization.used_fallback, "{target}");
        }
    });
}
