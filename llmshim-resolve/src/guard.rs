//! The guard every entry point runs first: the input's nesting is measured on the borrowed value, iteratively.

use llmshim_core::walk::HARD_MAX_DEPTH;
use llmshim_core::{FallbackKind, FallbackReason, json};
use serde_json::Value;

/// Refuses a value nested deeper than the walker's fixed limit before anything clones, hashes or compares it.
pub(crate) fn check_depth(value: &Value) -> Result<(), FallbackReason> {
    if json::depth_within(value, HARD_MAX_DEPTH).is_none() {
        return Err(FallbackReason::new(
            FallbackKind::BudgetDepth,
            "",
            format!("the value is nested deeper than {HARD_MAX_DEPTH} levels"),
        ));
    }
    Ok(())
}
