//! Shared test fixtures: a deterministic stand-in normalizer, the caller's protocol, and a colliding hasher.

use llmshim_cache::{Lookup, Memo};
use llmshim_core::{ChangeKind, FallbackKind, FallbackReason, Normalization};
use serde_json::{Value, json};
use std::hash::{BuildHasher, Hash, Hasher};

/// A key with one field per effective option of the facade, so that every field can be varied alone.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    pub(crate) target: &'static str,
    pub(crate) strict: bool,
    pub(crate) nullable: u8,
    pub(crate) rewrite_one_of: bool,
    pub(crate) strip_lookarounds: bool,
    pub(crate) bypass: bool,
    pub(crate) max_depth: usize,
    pub(crate) max_nodes: usize,
    pub(crate) max_literal_bytes: usize,
    pub(crate) diagnostics: bool,
    pub(crate) structured_output: bool,
}

impl Key {
    /// The key of a target's defaults.
    pub(crate) fn of(target: &'static str) -> Key {
        Key {
            target,
            strict: false,
            nullable: 0,
            rewrite_one_of: false,
            strip_lookarounds: false,
            bypass: false,
            max_depth: 96,
            max_nodes: 32_768,
            max_literal_bytes: 8 * 1024 * 1024,
            diagnostics: false,
            structured_output: false,
        }
    }
}

/// A deterministic stand-in for the normalizer, whose result depends on the key and the exact input.
///
/// A non-object input becomes the fallback with a reason; an object without `"keep"` gains a `"normalized_by"`
/// member naming the target and, under strict, `"additionalProperties": false`; an object with `"keep"` is left
/// as it is, which makes an exact no-op.
pub(crate) fn normalize(key: &Key, input: &Value) -> (Value, Normalization) {
    let mut report = Normalization::default();
    report.strict = key.strict;
    let Some(map) = input.as_object() else {
        report.changed = true;
        report.used_fallback = true;
        report.strict = false;
        report.fallback_reason = Some(FallbackReason::new(
            FallbackKind::InvalidSchema,
            "",
            "not an object",
        ));
        return (json!({"type": "object", "properties": {}}), report);
    };
    if map.contains_key("keep") {
        return (input.clone(), report);
    }
    let mut output = map.clone();
    output.insert("normalized_by".into(), key.target.into());
    if key.strict {
        output.insert("additionalProperties".into(), false.into());
    }
    report.changed = true;
    if key.diagnostics {
        report.changes.push(llmshim_core::Change::new(
            "",
            "test.normalized-by",
            ChangeKind::Added,
        ));
    }
    (Value::Object(output), report)
}

/// Which way a call went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    Hit,
    Miss,
    Unkeyed,
}

/// The caller's protocol of the facade: look up; apply a hit; on a miss compute and
/// insert; without a key compute only.
pub(crate) fn run<S: BuildHasher>(
    memo: &Memo<Key, S>,
    key: &Key,
    value: &mut Value,
) -> (Normalization, Path) {
    match memo.lookup(key, value) {
        Lookup::Hit(hit) => {
            hit.apply(value);
            (hit.report().clone(), Path::Hit)
        }
        Lookup::Miss(fingerprint) => {
            let (output, report) = normalize(key, value);
            memo.insert(
                fingerprint,
                key.clone(),
                value.clone(),
                output.clone(),
                report.clone(),
            );
            *value = output;
            (report, Path::Miss)
        }
        Lookup::Unkeyed => {
            let (output, report) = normalize(key, value);
            *value = output;
            (report, Path::Unkeyed)
        }
    }
}

/// Looks `input` up and returns what a hit would hand back, or `None` on a miss or without a key.
pub(crate) fn served<K: Eq + Hash, S: BuildHasher>(
    memo: &Memo<K, S>,
    key: &K,
    input: &Value,
) -> Option<(Value, Normalization)> {
    match memo.lookup(key, input) {
        Lookup::Hit(hit) => {
            let mut value = input.clone();
            hit.apply(&mut value);
            Some((value, hit.report().clone()))
        }
        Lookup::Miss(_) | Lookup::Unkeyed => None,
    }
}

/// Inserts `output` for `key` and `input` after the lookup a caller would make, which must miss.
pub(crate) fn store<K: Eq + Hash, S: BuildHasher>(
    memo: &Memo<K, S>,
    key: K,
    input: &Value,
    output: &Value,
    report: Normalization,
) {
    match memo.lookup(&key, input) {
        Lookup::Miss(fingerprint) => {
            memo.insert(fingerprint, key, input.clone(), output.clone(), report);
        }
        other => panic!("expected a miss before storing {input}, got {other:?}"),
    }
}

/// A report that says `changed` and nothing else.
pub(crate) fn changed(changed: bool) -> Normalization {
    let mut report = Normalization::default();
    report.changed = changed;
    report
}

/// `levels` arrays around `null`, which then sits at depth `levels`; built and measured without recursion.
pub(crate) fn nested(levels: usize) -> Value {
    let mut value = Value::Null;
    for _ in 0..levels {
        value = Value::Array(vec![value]);
    }
    value
}

/// Builds hashers that ignore their input, so every key and input collides.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Colliding;

/// A hasher whose every hash is the same.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ConstantHasher;

impl Hasher for ConstantHasher {
    fn finish(&self) -> u64 {
        0x5eed
    }

    fn write(&mut self, _bytes: &[u8]) {}
}

impl BuildHasher for Colliding {
    type Hasher = ConstantHasher;

    fn build_hasher(&self) -> ConstantHasher {
        ConstantHasher
    }
}
