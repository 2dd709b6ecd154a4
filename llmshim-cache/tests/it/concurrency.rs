//! Sharing one memo between threads: every result equals recomputation, and hits never rebuild.

use crate::support::{Key, Path, nested, normalize, run};
use llmshim_cache::{Limits, Memo};
use serde_json::{Value, json};
use std::sync::Arc;
use std::thread;

/// A small deterministic generator (`SplitMix64`), so that every run exercises the same schedule of requests.
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z % bound as u64) as usize
    }
}

/// Inputs that exercise every path: changed and no-op results, fallbacks, signed zeros, key orders, no key.
fn pool() -> Vec<Value> {
    let mut inputs = Vec::new();
    for n in 0..24 {
        inputs.push(json!({"type": "object", "properties": {format!("p{n}"): {"type": "string"}}}));
    }
    for n in 0..8 {
        inputs.push(json!({"type": "object", "keep": true, "n": n}));
    }
    inputs.push(json!({"type": "number", "default": 0.0}));
    inputs.push(json!({"type": "number", "default": -0.0}));
    inputs.push(json!({"a": 1, "b": 2}));
    inputs.push(json!({"b": 2, "a": 1}));
    inputs.push(json!({"const": 1}));
    inputs.push(json!({"const": 1.0}));
    inputs.push(json!(["not", "an", "object"]));
    inputs.push(json!(true));
    inputs.push(nested(100));
    inputs.push(Value::Array(vec![Value::Null; 32_769]));
    inputs
}

fn keys() -> Vec<Key> {
    vec![
        Key::of("chat"),
        Key {
            strict: true,
            ..Key::of("chat")
        },
        Key {
            diagnostics: true,
            ..Key::of("google")
        },
    ]
}

#[test]
fn eight_threads_of_mixed_hits_and_misses_return_what_recomputation_returns() {
    const THREADS: u64 = 8;
    const CALLS: usize = 10_000;
    // Fewer entries than key and input pairs, so that threads also evict each other's entries.
    let memo = Arc::new(Memo::new(Limits::default().with_max_entries(64)));
    let inputs = Arc::new(pool());
    let keys = Arc::new(keys());
    let workers: Vec<_> = (0..THREADS)
        .map(|seed| {
            let (memo, inputs, keys) = (Arc::clone(&memo), Arc::clone(&inputs), Arc::clone(&keys));
            thread::spawn(move || {
                let mut rng = Rng(seed);
                let mut paths = [0usize; 3];
                for _ in 0..CALLS {
                    let key = &keys[rng.below(keys.len())];
                    let input = &inputs[rng.below(inputs.len())];
                    let mut value = input.clone();
                    let (report, path) = run(&memo, key, &mut value);
                    let (expected, expected_report) = normalize(key, input);
                    assert!(
                        llmshim_core::json::identical(&value, &expected),
                        "{key:?} on {input}"
                    );
                    assert_eq!(report, expected_report, "{key:?} on {input}");
                    let slot = match path {
                        Path::Hit => 0,
                        Path::Miss => 1,
                        Path::Unkeyed => 2,
                    };
                    paths[slot] += 1;
                }
                paths
            })
        })
        .collect();
    let mut paths = [0usize; 3];
    for worker in workers {
        let counted = worker.join().expect("no worker panicked");
        for (total, count) in paths.iter_mut().zip(counted) {
            *total += count;
        }
    }
    let [hits, misses, unkeyed] = paths;
    assert_eq!(hits + misses + unkeyed, THREADS as usize * CALLS);
    let stats = memo.stats();
    assert_eq!(stats.hits, hits as u64);
    assert_eq!(stats.misses, misses as u64);
    assert_eq!(stats.inserts, misses as u64);
    assert!(
        hits > 0 && misses > 0 && unkeyed > 0 && stats.evictions > 0,
        "{stats:?}"
    );
    assert!(stats.entries <= 64);
}

#[test]
fn eight_threads_of_fifty_hits_cause_no_rebuild() {
    let memo = Arc::new(Memo::new(Limits::default()));
    let key = Key::of("anthropic");
    let input = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let mut warm = input.clone();
    assert_eq!(run(&memo, &key, &mut warm).1, Path::Miss);
    thread::scope(|scope| {
        for _ in 0..8 {
            scope.spawn(|| {
                for _ in 0..50 {
                    let mut value = input.clone();
                    assert_eq!(run(&memo, &key, &mut value).1, Path::Hit);
                    assert!(llmshim_core::json::identical(&value, &warm));
                }
            });
        }
    });
    let stats = memo.stats();
    assert_eq!((stats.inserts, stats.misses, stats.hits), (1, 1, 400));
}
