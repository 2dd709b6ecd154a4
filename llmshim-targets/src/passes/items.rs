//! Step W27: default `items` for arrays that have none.

use llmshim_core::rules::DefaultItems;
use llmshim_core::walk::{Hooks, NodeCtx, Pass, Settings};
use llmshim_core::{ChangeKind, FallbackReason, RuleSet, json};
use serde_json::{Map, Value, json};

/// W27: `items: {}` (outside strict) or `items: {"type": "string"}` on arrays without `items`.
#[derive(Clone, Copy, Debug)]
pub struct DefaultItemsPass<'r> {
    rules: &'r RuleSet,
}

impl<'r> DefaultItemsPass<'r> {
    /// The rule of `rules`.
    pub fn new(rules: &'r RuleSet) -> Self {
        DefaultItemsPass { rules }
    }
}

impl Pass for DefaultItemsPass<'_> {
    fn name(&self) -> &'static str {
        "default-items"
    }

    fn hooks(&self, settings: &Settings) -> Hooks {
        let acts = match self.rules.default_items {
            DefaultItems::None => false,
            DefaultItems::Empty => !settings.strict,
            // `String`, and any later variant, may act.
            _ => true,
        };
        Hooks::when(acts, Hooks::LEAVE)
    }

    fn leave(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(());
        };
        if json::has(map, "items") {
            return Ok(());
        }
        let array = match json::member(map, "type") {
            Some(Value::String(t)) => t == "array",
            Some(Value::Array(types)) => types.iter().any(|t| t.as_str() == Some("array")),
            _ => false,
        };
        if !array {
            return Ok(());
        }
        match self.rules.default_items {
            DefaultItems::Empty if !cx.settings().strict => {
                map.insert("items".to_owned(), Value::Object(Map::new()));
                cx.record("target.array-items", ChangeKind::Added, Some("items"));
            }
            DefaultItems::String => {
                map.insert("items".to_owned(), json!({"type": "string"}));
                cx.record("google.array-items", ChangeKind::Narrowed, Some("items"));
            }
            _ => {}
        }
        Ok(())
    }
}
