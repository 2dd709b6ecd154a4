//! Step W26, the rule set's part: `properties: {}` on objects that lack it, where the rule set asks.

use llmshim_core::rules::EmptyProperties;
use llmshim_core::walk::{Hooks, NodeCtx, Pass, Settings};
use llmshim_core::{ChangeKind, FallbackReason, RuleSet, json};
use serde_json::{Map, Value};

/// W26: with `empty_properties: Add`, appends `properties: {}` to every node without it whose `type` is `"object"`
/// or an array containing `"object"`.
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

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::when(
            self.rules.empty_properties == EmptyProperties::Add,
            Hooks::LEAVE,
        )
    }

    fn leave(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        if self.rules.empty_properties != EmptyProperties::Add {
            return Ok(());
        }
        if let Some(map) = node.as_object_mut()
            && is_object_type(json::member(map, "type"))
            && !json::has(map, "properties")
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

/// Whether `type` is `"object"` or an array naming it.
fn is_object_type(ty: Option<&Value>) -> bool {
    match ty {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(names)) => names.iter().any(|n| n.as_str() == Some("object")),
        _ => false,
    }
}
