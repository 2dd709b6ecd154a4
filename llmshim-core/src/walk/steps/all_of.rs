//! Step W14: a single-entry `allOf` is merged into its node, the entry winning (contract §4.3.2).

use serde_json::Value;

use crate::json;
use crate::report::{ChangeKind, FallbackKind, FallbackReason};
use crate::walk::{Flow, NodeCtx, Pass, Rewalk};

/// W14: removes a one-entry `allOf`, walks the entry at depth + 1, and copies its keys into the node (replacing in
/// place, appending new ones). Two or more entries stay and are walked as children.
#[derive(Clone, Copy, Debug, Default)]
#[expect(
    clippy::exhaustive_structs,
    reason = "a stateless pass is constructed by name"
)]
pub struct MergeAllOf;

impl Pass for MergeAllOf {
    fn name(&self) -> &'static str {
        "merge-all-of"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        let single = matches!(map.get("allOf"), Some(Value::Array(entries)) if entries.len() == 1);
        if !single {
            return Ok(Flow::Continue);
        }
        let Some(Value::Array(mut entries)) = json::remove(map, "allOf") else {
            return Ok(Flow::Continue);
        };
        let mut entry = entries.pop().unwrap_or(Value::Null);
        // The entry's keys are merged into this node, whose own visit goes on from here (type inference, the split,
        // closing), so the entry's root is an intermediate result: those steps run once, on the merged keys.
        cx.rewalk(&mut entry, &Rewalk::here().with_intermediate(true))?;
        let Value::Object(entry) = entry else {
            return Err(cx.fail(
                FallbackKind::InvalidSchema,
                "the allOf entry is not a schema object",
            ));
        };
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        for (key, value) in entry {
            json::set(map, &key, value);
        }
        cx.record("walk.merge-all-of", ChangeKind::Rewritten, Some("allOf"));
        Ok(Flow::Continue)
    }
}
