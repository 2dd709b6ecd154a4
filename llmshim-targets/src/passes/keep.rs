//! Step W19, the rule set's part: the keep-list and the Anthropic structured-output bounds (§4.3.6, §4.3.7).

use llmshim_core::keyword::is_liftable;
use llmshim_core::walk::{Flow, NodeCtx, Pass};
use llmshim_core::{ChangeKind, FallbackReason, RuleSet, json};
use serde_json::Value;

/// W19: removes every key outside the rule set's keep-list (lifting those on the lift list), then, for a
/// structured-output schema on a rule set with output bounds, lifts the numeric and length bounds.
#[derive(Clone, Copy, Debug)]
pub struct KeepList<'r> {
    rules: &'r RuleSet,
}

impl<'r> KeepList<'r> {
    /// The keep-list of `rules`.
    pub fn new(rules: &'r RuleSet) -> Self {
        KeepList { rules }
    }
}

const OUTPUT_BOUNDS: [&str; 7] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
];

impl Pass for KeepList<'_> {
    fn name(&self) -> &'static str {
        "target-keep-list"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        if let Some(keep) = self.rules.keep {
            let stripped: Vec<String> = map
                .keys()
                .filter(|k| !keep.contains(&k.as_str()))
                .cloned()
                .collect();
            for key in stripped {
                let Some(value) = json::remove(map, &key) else {
                    continue;
                };
                if is_liftable(&key) {
                    cx.queue_lift(key, value, "target.keyword");
                } else {
                    cx.record("target.keyword", ChangeKind::Dropped, Some(&key));
                }
            }
        }
        if self.rules.output_bounds && cx.settings().structured_output {
            for key in OUTPUT_BOUNDS {
                if let Some(value) = json::remove(map, key) {
                    cx.queue_lift(key, value, "anthropic.output-bounds");
                }
            }
            let many = map
                .get("minItems")
                .and_then(Value::as_f64)
                .is_some_and(|n| n > 1.0);
            if many && let Some(value) = json::remove(map, "minItems") {
                cx.queue_lift("minItems", value, "anthropic.output-bounds");
            }
        }
        Ok(Flow::Continue)
    }
}
