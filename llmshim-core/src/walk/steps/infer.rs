//! Step W17: type inference in instance-describing positions.

use crate::{json, keyword};
use serde_json::Value;

use crate::report::{ChangeKind, FallbackKind, FallbackReason};
use crate::walk::{Flow, Hooks, NodeCtx, Pass, Settings};

/// W17: gives an untyped node a `type` from `properties`, a primitive `const`, a one-kind `enum`, or (when the rule set
/// says so) `items`; from `items`, a union branch of a node of one other type takes that type instead, and a branch of
/// an untyped intermediate root waits for the merged node's walk
/// ([`Position::conjunct_pending`](crate::walk::Position::conjunct_pending)). An empty `enum` fails `invalid_schema`
/// on every visit.
#[derive(Clone, Copy, Debug)]
pub struct InferType {
    arrays_from_items: bool,
}

impl InferType {
    /// Inference; `arrays_from_items` is the rule set's `infer_array_from_items`.
    pub const fn new(arrays_from_items: bool) -> Self {
        InferType { arrays_from_items }
    }
}

impl Pass for InferType {
    fn name(&self) -> &'static str {
        "infer-type"
    }

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::ENTER
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        if matches!(json::member(map, "enum"), Some(Value::Array(values)) if values.is_empty()) {
            return Err(cx.fail(FallbackKind::InvalidSchema, "enum must not be empty"));
        }
        // An intermediate root (a `$ref` target or a one-entry `allOf` entry) gets its type, if any, once its keys
        // are merged with the others.
        if json::has(map, "type") || !cx.position().instance || cx.intermediate() {
            return Ok(Flow::Continue);
        }
        let strict = cx.settings().strict;
        // An object or array `const` names no type; an `enum` beside it still may. (Without strict the `const`
        // may be lifted later, and the `enum` would then type the node on a second pass.)
        let const_kind = json::member(map, "const").map(keyword::literal_type);
        let mut from_conjunct = false;
        let inferred = if json::has(map, "properties") {
            Some("object")
        } else if let Some(Some(k)) = const_kind {
            Some(k)
        } else if const_kind.is_some() && strict {
            return Err(cx.fail(
                FallbackKind::StrictUnsupported,
                "an object or array const has no strict type",
            ));
        } else if let Some(Value::Array(values)) = json::member(map, "enum") {
            let mut kinds = values.iter().map(keyword::literal_type);
            let first = kinds.next().flatten();
            match first {
                Some(k) if kinds.all(|other| other == Some(k)) => Some(k),
                _ if strict => {
                    return Err(cx.fail(
                        FallbackKind::StrictUnsupported,
                        "an enum of mixed kinds has no strict type",
                    ));
                }
                _ => None,
            }
        } else if self.arrays_from_items && json::has(map, "items") {
            // A union branch of a node of one other type describes only values of that type, for which `items`
            // says nothing: it takes that type, as an annotation-only branch does (`walk.narrow-any`), not `array`,
            // which would admit none of them. A branch of an untyped `$ref` target or one-entry `allOf`'s entry
            // learns its node's type only in the merged node's walk (a sibling's `properties` may make it `object`),
            // so it waits for that walk: typed `array` here, it would win over the merged node's `object` when
            // `google.collapse-nullable` or the combinator merge takes its keys, as it does not in place.
            match cx.position().conjunct {
                Some(conjunct) if conjunct != "array" => {
                    from_conjunct = true;
                    Some(conjunct)
                }
                None if cx.position().conjunct_pending => None,
                _ => Some("array"),
            }
        } else {
            None
        };
        if let Some(t) = inferred {
            // A type taken from a `const` or `enum` admits every value they do; one taken from `properties` or
            // `items` turns away the other types, which the node admitted (a branch's conjunct type turns away only
            // values its node refuses).
            if matches!(t, "object" | "array") && const_kind.is_none() && !from_conjunct {
                cx.note_tightened();
            }
            map.insert("type".to_owned(), Value::String(t.to_owned()));
            cx.record("walk.infer-type", ChangeKind::Added, Some("type"));
            // Strict closing reads a written `object` as excluding every other type; this one was not written.
            cx.note_inferred_type();
        }
        Ok(Flow::Continue)
    }
}
