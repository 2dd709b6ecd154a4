//! Step W16: tuple flattening, for strict mode and for rule sets that flatten.

use serde_json::Value;

use crate::json;
use crate::report::{ChangeKind, FallbackKind, FallbackReason};
use crate::walk::{Flow, Hooks, NodeCtx, Pass, Settings};

/// W16: `prefixItems` becomes one `items` schema (the shared entry, or an `anyOf` of the distinct entries and a
/// schema-valued tail); `prefixItems`, and a boolean tail as `items`, are queued as lifts.
#[derive(Clone, Copy, Debug)]
pub struct FlattenTuples {
    outside_strict: bool,
}

impl FlattenTuples {
    /// Flattening under strict, and outside strict when `outside_strict` (the rule set's `flatten_tuples`).
    pub const fn new(outside_strict: bool) -> Self {
        FlattenTuples { outside_strict }
    }
}

impl Pass for FlattenTuples {
    fn name(&self) -> &'static str {
        "flatten-tuples"
    }

    fn hooks(&self, settings: &Settings) -> Hooks {
        Hooks::when(settings.strict || self.outside_strict, Hooks::ENTER)
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let strict = cx.settings().strict;
        if !(strict || self.outside_strict) {
            return Ok(Flow::Continue);
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        let Some(prefix) = json::member(map, "prefixItems") else {
            return Ok(Flow::Continue);
        };
        let entries = match prefix {
            Value::Array(entries) if !entries.is_empty() => entries.clone(),
            _ => {
                return Err(cx.fail(
                    FallbackKind::InvalidSchema,
                    "prefixItems must be a non-empty array",
                ));
            }
        };
        let rule = if strict {
            "strict.flatten-tuple"
        } else {
            "google.flatten-tuple"
        };
        let tail = map.get("items").cloned();
        let first = entries.first().cloned().unwrap_or(Value::Null);
        let all_equal = entries.iter().all(|e| *e == first);
        let tail_fits = match &tail {
            None | Some(Value::Bool(false)) => true,
            Some(t) => *t == first,
        };
        let items = if all_equal && tail_fits {
            first
        } else {
            let mut branches: Vec<Value> = Vec::with_capacity(entries.len() + 1);
            for e in &entries {
                if !branches.contains(e) {
                    branches.push(e.clone());
                }
            }
            if let Some(t @ Value::Object(_)) = &tail
                && !branches.contains(t)
            {
                branches.push(t.clone());
            }
            let mut any = serde_json::Map::new();
            any.insert("anyOf".to_owned(), Value::Array(branches));
            // The union is the walk's own: a climb from one of its branches passes through it.
            let mut at = cx.pointer().to_owned();
            crate::pointer::push_token(&mut at, "items");
            cx.mark_made_union(at);
            Value::Object(any)
        };
        if map.contains_key("items") {
            json::set(map, "items", items);
            json::remove(map, "prefixItems");
        } else {
            json::rename_in_place(map, "prefixItems", "items");
            json::set(map, "items", items);
        }
        cx.queue_lift("prefixItems", Value::Array(entries), rule);
        if let Some(t @ Value::Bool(_)) = tail {
            cx.queue_lift("items", t, rule);
        }
        cx.record(rule, ChangeKind::Relaxed, Some("prefixItems"));
        Ok(Flow::Continue)
    }
}
