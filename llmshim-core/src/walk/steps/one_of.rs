//! Step W13: `oneOf` becomes `anyOf` when the options or strict mode ask for it, or when the walk narrowed one of
//! its branches.

use serde_json::{Map, Value};

use crate::json;
use crate::report::{ChangeKind, FallbackKind, FallbackReason};
use crate::walk::{Flow, Hooks, NodeCtx, Pass, Settings};

/// W13: renames `oneOf` to `anyOf` in place, or, beside an existing `anyOf`, moves both into `allOf`.
///
/// The change is `rewritten` when the branches are provably exclusive (one shared property with a distinct
/// constant in every branch) and `relaxed` otherwise.
///
/// Where neither asks, a `oneOf` is kept unless the walk narrowed or removed one of its branches
/// ([`NodeCtx::one_of_tightened`]); `leave` then relaxes it the same way.
#[derive(Clone, Copy, Debug, Default)]
#[expect(
    clippy::exhaustive_structs,
    reason = "a stateless pass is constructed by name"
)]
pub struct OneOf;

impl Pass for OneOf {
    fn name(&self) -> &'static str {
        "one-of"
    }

    fn hooks(&self, settings: &Settings) -> Hooks {
        // Where the rewrite is on every `oneOf` is gone before its branches are walked; elsewhere `leave` relaxes the
        // ones whose branches the walk narrowed.
        if settings.rewrite_one_of || settings.strict {
            Hooks::ENTER
        } else {
            Hooks::LEAVE
        }
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let settings = cx.settings();
        if !(settings.rewrite_one_of || settings.strict) {
            return Ok(Flow::Continue);
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        let Some(one_of) = json::member(map, "oneOf") else {
            return Ok(Flow::Continue);
        };
        let kind = if provably_exclusive(one_of) {
            ChangeKind::Rewritten
        } else {
            ChangeKind::Relaxed
        };
        rename(map, kind, cx)?;
        Ok(Flow::Continue)
    }

    /// A kept `oneOf` one of whose branches the walk narrowed (a `type` inferred, a part omitted, a recursion cut) or
    /// removed is relaxed to `anyOf`: exactly-one over the narrowed branches may admit a value that matched two
    /// branches before and so was rejected, while any-of over them admits only values some original branch admits.
    fn leave(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        if !cx.one_of_tightened() {
            return Ok(());
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(());
        };
        // Branches told apart by a constant stay exclusive however they are narrowed.
        match json::member(map, "oneOf") {
            Some(one_of) if !provably_exclusive(one_of) => rename(map, ChangeKind::Relaxed, cx),
            _ => Ok(()),
        }
    }
}

/// Renames the node's `oneOf` to `anyOf`, or, beside an `anyOf`, moves both into `allOf` as `anyOf` wrappers, and
/// records the change as `kind`.
fn rename(
    map: &mut Map<String, Value>,
    kind: ChangeKind,
    cx: &mut NodeCtx<'_>,
) -> Result<(), FallbackReason> {
    if json::has(map, "anyOf") {
        if json::member(map, "allOf").is_some_and(|a| !a.is_array()) {
            return Err(cx.fail(FallbackKind::InvalidSchema, "allOf must be an array"));
        }
        let any_of = json::remove(map, "anyOf").unwrap_or(Value::Null);
        let one_of = json::remove(map, "oneOf").unwrap_or(Value::Null);
        let pair = [wrap(any_of), wrap(one_of)];
        match map.get_mut("allOf") {
            Some(Value::Array(entries)) => entries.extend(pair),
            _ => {
                map.insert("allOf".to_owned(), Value::Array(pair.into()));
            }
        }
        cx.record("walk.one-of-to-any-of", kind, Some("allOf"));
    } else {
        json::rename_in_place(map, "oneOf", "anyOf");
        cx.record("walk.one-of-to-any-of", kind, Some("anyOf"));
    }
    Ok(())
}

fn wrap(branches: Value) -> Value {
    let mut m = Map::new();
    m.insert("anyOf".to_owned(), branches);
    Value::Object(m)
}

/// Every branch is an object whose `properties` share one name with a `const` or one-element `enum` in every
/// branch, the values pairwise distinct.
fn provably_exclusive(one_of: &Value) -> bool {
    let Some(branches) = one_of.as_array() else {
        return false;
    };
    let Some(first) = branches
        .first()
        .and_then(|b| b.get("properties"))
        .and_then(Value::as_object)
    else {
        return false;
    };
    first.keys().any(|name| {
        let mut seen: Vec<&Value> = Vec::with_capacity(branches.len());
        for branch in branches {
            let Some(value) = branch
                .get("properties")
                .and_then(|p| p.get(name))
                .and_then(constant)
            else {
                return false;
            };
            if seen.contains(&value) {
                return false;
            }
            seen.push(value);
        }
        true
    })
}

fn constant(schema: &Value) -> Option<&Value> {
    if let Some(c) = schema.get("const") {
        return Some(c);
    }
    match schema.get("enum") {
        Some(Value::Array(values)) if values.len() == 1 => values.first(),
        _ => None,
    }
}
