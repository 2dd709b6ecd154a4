//! Shared helpers: the strict walk composed as the pipeline composes it, stand-ins for steps owned elsewhere, and
//! deep values.

use llmshim_core::walk::{self, Flow, Rewalk, Settings, Walked, steps};
use llmshim_core::{Budget, ChangeKind, FallbackReason, NodeCtx, Pass, json};
use llmshim_strict::{CloseObjects, KeepList};
use serde_json::{Map, Value};

/// The base URI every test walk starts from.
pub(crate) const BASE: &str = "https://llmshim.invalid/schema";

/// A stand-in for the end of step W22: flushes the lift queue in `enter`, as the pipeline does.
#[derive(Debug)]
pub(crate) struct FlushLifts;

impl Pass for FlushLifts {
    fn name(&self) -> &'static str {
        "test-flush-lifts"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        cx.flush_lifts(node);
        Ok(Flow::Continue)
    }
}

/// A minimal stand-in for the strict type-array split of core (step W23), enough for the split example.
///
/// Each type name becomes a branch holding the node without its description, `type` replaced in place; a `"null"`
/// branch keeps only `type`. Branches are walked again and the node becomes `{"anyOf": [...]}` plus the saved
/// description. The pruning of object, array and number keywords is left out: no test here needs it.
#[derive(Debug)]
pub(crate) struct SplitTypeArrays;

impl Pass for SplitTypeArrays {
    fn name(&self) -> &'static str {
        "test-split-type-arrays"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        if !cx.settings().strict {
            return Ok(Flow::Continue);
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        let Some(Value::Array(names)) = map.get("type").cloned() else {
            return Ok(Flow::Continue);
        };
        let description = json::remove(map, "description");
        let mut branches = Vec::with_capacity(names.len());
        for name in names {
            let branch = if name == "null" {
                let mut only = Map::new();
                only.insert("type".to_owned(), name);
                only
            } else {
                let mut rest = map.clone();
                json::set(&mut rest, "type", name);
                rest
            };
            let mut branch_value = Value::Object(branch);
            cx.rewalk(&mut branch_value, &Rewalk::here())?;
            branches.push(branch_value);
        }
        let mut wrapper = Map::new();
        wrapper.insert("anyOf".to_owned(), Value::Array(branches));
        if let Some(description) = description {
            wrapper.insert("description".to_owned(), description);
        }
        *node = Value::Object(wrapper);
        cx.record("walk.split-type-array", ChangeKind::Rewritten, None);
        Ok(Flow::Done)
    }
}

/// Strict settings with the default budget; `diagnostics` turns change recording on.
pub(crate) fn strict_settings(diagnostics: bool) -> Settings {
    Settings::new(Budget::default())
        .with_strict(true)
        .with_diagnostics(diagnostics)
}

/// The pass list of the brief: core steps (the one-entry `allOf` merge among them, which strict relies on), the
/// strict keep-list, the flush, then closing.
pub(crate) fn run(schema: &mut Value, settings: &Settings) -> Result<Walked, FallbackReason> {
    let passes: [&dyn Pass; 7] = [
        &steps::Shape::keep_booleans(),
        &steps::Literals,
        &steps::SnakeCase,
        &steps::MergeAllOf,
        &KeepList::default(),
        &FlushLifts,
        &CloseObjects,
    ];
    walk::walk(schema, &passes, settings, BASE.into())
}

/// The same list with the type-array split stand-in at its W23 position.
pub(crate) fn run_with_split(
    schema: &mut Value,
    settings: &Settings,
) -> Result<Walked, FallbackReason> {
    let passes: [&dyn Pass; 8] = [
        &steps::Shape::keep_booleans(),
        &steps::Literals,
        &steps::SnakeCase,
        &steps::MergeAllOf,
        &KeepList::default(),
        &FlushLifts,
        &SplitTypeArrays,
        &CloseObjects,
    ];
    walk::walk(schema, &passes, settings, BASE.into())
}

/// `input` walked strictly without diagnostics; the test fails when the walk fails.
pub(crate) fn strict(mut input: Value) -> Value {
    run(&mut input, &strict_settings(false)).expect("the strict walk succeeds");
    input
}

/// Compact JSON text, byte for byte as `serde_json` writes it.
pub(crate) fn text(value: &Value) -> String {
    serde_json::to_string(value).expect("a value serializes")
}

/// The recorded changes as `(pointer, rule, kind)` triples.
pub(crate) fn changes(walked: &Walked) -> Vec<(String, String, ChangeKind)> {
    walked
        .changes
        .iter()
        .map(|c| (c.pointer.clone(), c.rule.to_string(), c.kind))
        .collect()
}

/// `(kind, pointer)` pairs of reasons, for compact assertions.
pub(crate) fn kinds(reasons: &[FallbackReason]) -> Vec<(llmshim_core::FallbackKind, String)> {
    reasons
        .iter()
        .map(|r| (r.kind, r.pointer.clone()))
        .collect()
}

/// A schema object from `entries`, moving each value in.
///
/// Deep values are built with this instead of `json!`, which copies an interpolated value recursively.
pub(crate) fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    let mut map = Map::new();
    for (key, value) in entries {
        map.insert(key.to_owned(), value);
    }
    Value::Object(map)
}

/// A chain of `levels` nodes built with `wrap` around `leaf`, built iteratively.
pub(crate) fn chain(levels: usize, leaf: Value, wrap: impl Fn(Value) -> Value) -> Value {
    let mut value = leaf;
    for _ in 0..levels {
        value = wrap(value);
    }
    value
}

/// Frees a deep value without recursion.
pub(crate) fn free(value: Value) {
    json::dismantle(value);
}
