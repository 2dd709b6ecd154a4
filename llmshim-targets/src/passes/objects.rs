//! Step W26, the rule set's part: `properties: {}` on objects that lack it, where the rule set asks (contract §4.3.16).

use llmshim_core::rules::EmptyProperties;
use llmshim_core::walk::{NodeCtx, Pass};
use llmshim_core::{ChangeKind, FallbackReason, RuleSet};
use serde_json::{Map, Value};

/// W26: with `empty_properties: Add`, appends `properties: {}` to every `type: "object"` node without it.
#[derive(Clone, Copy, Debug)]
pub struct EmptyPropertiesAdd<'r> {
    rules: &'r RuleSet,
}

impl<'r> EmptyPropertiesAdd<'r> {
    /// The rule of `rules`.
    pub fn new(rules: &'r RuleSet) -> Self {
        EmptyPropertiesAdd { rules }
    }
}

impl Pass for EmptyPropertiesAdd<'_> {
    fn name(&self) -> &'static str {
        "empty-properties"
    }

    fn leave(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        if self.rules.empty_properties != EmptyProperties::Add {
            return Ok(());
        }
        if let Some(map) = node.as_object_mut()
            && map.get("type").and_then(Value::as_str) == Some("object")
            && !map.contains_key("properties")
        {
            map.insert("properties".to_owned(), Value::Object(Map::new()));
            cx.record(
                "walk.empty-properties",
                ChangeKind::Added,
                Some("properties"),
            );
        }
        Ok(())
    }
}
