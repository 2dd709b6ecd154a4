//! Step W19, strict part: only the strict keep-list survives, and stripped human constraints are lifted.

use llmshim_core::keep::{KeepSet, KeepSets};
use llmshim_core::walk::{Flow, Hooks, Settings};
use llmshim_core::{FallbackKind, FallbackReason, NodeCtx, Pass, json};
use serde_json::Value;

/// The keys every strict keep-list keeps whatever their value, in a fixed order: the strict keep-list of
/// `llmshim-core` that every strict provider accepts on every node.
pub const KEEP: [&str; 13] = llmshim_core::keyword::STRICT_KEEP;

/// Whether `key` survives the strict keep-list every strict provider accepts ([`KeepSet::STRICT`]), whatever its
/// value; a strict profile may keep more under the current keyword profile.
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

/// W19, strict part: removes every key that the strict profile's keep-list, under the walk's keyword profile, does
/// not keep with its value, keeping the order of the rest.
///
/// A removed key on the lift list ([`llmshim_core::keyword::LIFTABLE`]) is queued with
/// [`NodeCtx::queue_lift`] under `strict.keyword`; the queue is flushed at W22 (the change `lifted` is recorded
/// then). Any other removed key is recorded as `dropped`. A `$ref` is never removed: a node that holds one beside
/// other keywords fails `strict_unsupported`, since dropping the reference would admit what it rules out. Without
/// strict the pass does nothing.
///
/// List it after the custom `enter` hook (W18) and before the rule set's own keep-list (W19).
#[derive(Clone, Copy, Debug)]
pub struct KeepList {
    keep: KeepSets,
}

impl KeepList {
    /// The pass over the keep-lists `keep` (a strict profile's, one per keyword profile).
    pub const fn new(keep: KeepSets) -> Self {
        KeepList { keep }
    }
}

impl Default for KeepList {
    /// The pass over [`KeepSets::STRICT`], the strict keep-list every strict provider accepts.
    fn default() -> Self {
        KeepList::new(KeepSets::STRICT)
    }
}

impl Pass for KeepList {
    fn name(&self) -> &'static str {
        "strict-keep-list"
    }

    fn hooks(&self, settings: &Settings) -> Hooks {
        Hooks::when(settings.strict, Hooks::ENTER)
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        if !cx.settings().strict {
            return Ok(Flow::Continue);
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        // A kept reference stands alone and never reaches this pass; one found here was merged beside the node's
        // own keywords (a single `allOf` entry). Dropping it would admit every value the reference rules out, so
        // strict gives the schema up instead, and the walk without strict decides what becomes of it.
        if json::has(map, "$ref") {
            return Err(cx.fail(
                FallbackKind::StrictUnsupported,
                "a reference beside other keywords cannot be kept under strict",
            ));
        }
        let keep: &KeepSet = self.keep.get(cx.settings().keywords);
        cx.keep_only(map, |k, v| keep.keeps(k, v), RULE);
        Ok(Flow::Continue)
    }
}
