//! `walk.narrow-any`: an annotation-only node, where the target or strict needs a type, becomes a string.

use serde_json::{Map, Value};

use crate::json;
use crate::keyword;
use crate::lift;
use crate::report::{ChangeKind, FallbackReason};
use crate::walk::{Flow, Hooks, NodeCtx, Pass, Settings};

/// A node that accepts any value cannot be written where every node needs a type (Gemini's schema, strict mode);
/// a string is the narrowest choice that keeps the parameter usable, and the rest of the tool survives.
///
/// The node is judged on entry, before the keep-lists remove what the target cannot take, so that a node with an
/// assertion the target drops (a `not`, say) is left to the climb to an optional part instead. The type and the
/// fragment `(type: any)` are written on leave, after the lifted fragments, and before the parent's leave steps (a
/// strict parent then makes an optional one nullable). The root is not narrowed: it must be an object. Nor is an
/// intermediate root: the node it is merged into is judged with the merged keys, nor a union branch of an untyped
/// one ([`Position::conjunct_pending`](crate::walk::Position::conjunct_pending)), left for the merged node's walk
/// to judge again with its node's type ([`NodeCtx::note_waiting_branch`]). Nor is a union branch of a node with one
/// type ([`Position::conjunct`](crate::walk::Position::conjunct)): it gets that type, which narrows nothing
/// (recorded as `walk.infer-type`); where every node needs a type (such a target, or strict), such a branch gets it
/// also where the keep-lists leave it with annotations alone (a lifted `not`), or, under a `string` node, with a kept
/// `format` and annotations, since the type narrows nothing there either.
#[derive(Clone, Copy, Debug)]
pub struct NarrowAny {
    require_type: bool,
}

impl NarrowAny {
    /// The rule for a target that requires a type on every node (`require_type`), or under strict only.
    pub fn new(require_type: bool) -> Self {
        NarrowAny { require_type }
    }
}

/// Whether `node` is an object whose keys are only annotations.
fn annotations_only(node: &Value) -> bool {
    node.as_object().is_some_and(keyword::annotations_only)
}

/// Whether `node`, a union branch of a node typed `conjunct`, holds a `format` and annotations only, with the node
/// typed `string`: a `format` constrains strings alone, so such a branch says nothing that the node's `string` would
/// contradict, and taking that type narrows nothing (the node admits strings only).
fn format_only_string_branch(node: &Value, conjunct: Option<&str>) -> bool {
    conjunct == Some("string")
        && node.as_object().is_some_and(|map| {
            json::member(map, "format").is_some_and(Value::is_string)
                && map
                    .keys()
                    .all(|k| k == "format" || keyword::ANNOTATIONS.contains(&k.as_str()))
        })
}

impl Pass for NarrowAny {
    fn name(&self) -> &'static str {
        "narrow-any"
    }

    fn hooks(&self, settings: &Settings) -> Hooks {
        // `leave` acts only where `enter` marked the node.
        Hooks::when(self.require_type || settings.strict, Hooks::BOTH)
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        // An intermediate root (a single `allOf` entry, a `$ref` target) is judged after the merge, at the node it
        // merges into: an empty entry beside the node's own `type` must not bring a string type that then wins. So is
        // a union branch of an untyped one whose merged node may take a type from its siblings
        // (`Position::conjunct_pending`): made a string here, it would win over the merged node's `object` when
        // `google.collapse-nullable` takes its keys, as it does not in place; the merged node's walk visits it again.
        if (self.require_type || cx.settings().strict)
            && !cx.position().root
            && !cx.intermediate()
            && annotations_only(node)
        {
            if cx.position().conjunct_pending {
                cx.note_waiting_branch();
            } else {
                cx.mark_any_value();
            }
        }
        Ok(Flow::Continue)
    }

    fn leave(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        // Where every node needs a type (a target that says so, or strict), a union branch of a node with one type
        // that the keep-lists left with annotations alone (its `not` lifted, say) takes that type as a branch written
        // that way does: the type narrows nothing there, and the branch is then what the walk of a `$ref` target's
        // merged node, which visits the lifted branch again, finds. Under strict an object branch typed so is closed
        // empty, and its object's own properties are then carried into it (`strict.close-object`). A branch of a
        // string node holding only a `format` the keep-lists kept takes `string` the same way.
        let emptied_branch = || {
            (self.require_type || cx.settings().strict)
                && cx.position().conjunct.is_some()
                && !cx.position().root
                && !cx.intermediate()
                && (annotations_only(node)
                    || format_only_string_branch(node, cx.position().conjunct))
        };
        if !cx.any_value() && !emptied_branch() {
            return Ok(());
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(());
        };
        if map.contains_key("type") || map.contains_key("anyOf") {
            return Ok(());
        }
        type_as_any(map, cx);
        Ok(())
    }
}

/// Types a node that accepts any value as `walk.narrow-any` does, where the caller has found that it needs a type.
/// A union branch of a node with one type ([`Position::conjunct`](crate::walk::Position::conjunct)) takes that type,
/// recorded as `walk.infer-type`: the branch admits only values of that type there, and a string type would make it
/// admit nothing (`google.isolate-any-of` removes such a branch, with what its description held). Any other node
/// becomes a string marked `(type: any)`, recorded as `walk.narrow-any`.
pub fn type_as_any(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>) {
    if let Some(conjunct) = cx.position().conjunct {
        json::set(map, "type", Value::String(conjunct.to_owned()));
        cx.record("walk.infer-type", ChangeKind::Added, Some("type"));
        cx.note_inferred_type();
        return;
    }
    lift::append_text(map, "type", "type: any");
    json::set(map, "type", Value::String("string".to_owned()));
    cx.record("walk.narrow-any", ChangeKind::Narrowed, None);
    cx.note_inferred_type();
}
