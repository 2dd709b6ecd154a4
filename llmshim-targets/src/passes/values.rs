//! Step W22: the Google-family value rules for `enum`, `format` and keyword applicability (contract §4.3.10).

use llmshim_core::walk::{Flow, NodeCtx, Pass};
use llmshim_core::{ChangeKind, FallbackReason, RuleSet, json};
use serde_json::{Map, Value};

/// W22: with the rule set's `google_values`, lifts a non-string `enum`, a `format` Gemini does not know, and drops
/// keywords that do not apply to the node's type.
#[derive(Clone, Copy, Debug)]
pub struct GoogleValues<'r> {
    rules: &'r RuleSet,
}

impl<'r> GoogleValues<'r> {
    /// The value rules of `rules`.
    pub fn new(rules: &'r RuleSet) -> Self {
        GoogleValues { rules }
    }
}

impl Pass for GoogleValues<'_> {
    fn name(&self) -> &'static str {
        "google-values"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        if !self.rules.google_values {
            return Ok(Flow::Continue);
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        if map.get("type").is_some_and(Value::is_array) {
            return Ok(Flow::Continue);
        }
        let ty = map.get("type").and_then(Value::as_str).map(str::to_owned);
        let string_enum = |m: &Map<String, Value>| matches!(m.get("enum"), Some(Value::Array(values)) if values.iter().all(Value::is_string));
        if map.contains_key("enum")
            && !(ty.as_deref() == Some("string") && string_enum(map))
            && let Some(value) = json::remove(map, "enum")
        {
            cx.queue_lift("enum", value, "google.enum-lift");
        }
        if let Some(format) = map.get("format") {
            let keeps = match (ty.as_deref(), format.as_str()) {
                (Some("string"), Some("enum")) => {
                    matches!(map.get("enum"), Some(Value::Array(v)) if !v.is_empty())
                        && string_enum(map)
                }
                (Some("string"), Some("date-time"))
                | (Some("integer"), Some("int32" | "int64"))
                | (Some("number"), Some("float" | "double")) => true,
                _ => false,
            };
            if !keeps && let Some(value) = json::remove(map, "format") {
                cx.queue_lift("format", value, "google.format-lift");
            }
        }
        applicability(map, cx);
        Ok(Flow::Continue)
    }
}

/// Drops keywords that do not apply to the node's string `type` (rule `google.type-applicability`).
pub(crate) fn applicability(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>) {
    let Some(ty) = map.get("type").and_then(Value::as_str).map(str::to_owned) else {
        return;
    };
    let groups: [(&[&str], bool); 3] = [
        (
            &["properties", "required", "propertyOrdering"],
            ty == "object",
        ),
        (&["items", "minItems", "maxItems"], ty == "array"),
        (&["minimum", "maximum"], ty == "integer" || ty == "number"),
    ];
    for (keys, applies) in groups {
        if applies {
            continue;
        }
        for key in keys {
            if json::remove(map, key).is_some() {
                cx.record("google.type-applicability", ChangeKind::Dropped, Some(key));
            }
        }
    }
}
