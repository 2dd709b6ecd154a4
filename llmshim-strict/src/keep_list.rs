//! Step W19, strict part: only the strict keep-list survives, and stripped human constraints are lifted.

use llmshim_core::walk::Flow;
use llmshim_core::{FallbackReason, NodeCtx, Pass};
use serde_json::Value;

/// The keys a schema object may keep under strict, in a fixed order: the strict keep-list of `llmshim-core`, which
/// the structural check under strict also enforces.
pub const KEEP: [&str; 13] = llmshim_core::keyword::STRICT_KEEP;

/// Whether `key` survives the strict keep-list.
///
/// ```
/// use llmshim_strict::is_kept;
///
/// assert!(is_kept("anyOf"));
/// assert!(!is_kept("format"));
/// assert!(!is_kept("prefixItems"));
/// ```
pub fn is_kept(key: &str) -> bool {
    KEEP.contains(&key)
}

/// The rule id of every key this pass strips.
pub(crate) const RULE: &str = "strict.keyword";

/// W19, strict part: removes every key outside [`KEEP`] when strict is effective, keeping the order of the rest.
///
/// A removed key on the lift list ([`llmshim_core::keyword::LIFTABLE`]) is queued with
/// [`NodeCtx::queue_lift`] under `strict.keyword`; the queue is flushed at W22 (the change `lifted` is recorded
/// then). Any other removed key is recorded as `dropped`. Without strict the pass does nothing.
///
/// List it after the custom `enter` hook (W18) and before the rule set's own keep-list (W19).
#[derive(Clone, Copy, Debug, Default)]
pub struct KeepList;

impl Pass for KeepList {
    fn name(&self) -> &'static str {
        "strict-keep-list"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        if !cx.settings().strict {
            return Ok(Flow::Continue);
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        cx.keep_only(map, is_kept, RULE);
        Ok(Flow::Continue)
    }
}
