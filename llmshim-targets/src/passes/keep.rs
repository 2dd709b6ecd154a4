//! Step W19, the rule set's part: the keep-list, the Google-family string `const`, and the Anthropic structured-output
//! bounds.

use llmshim_core::walk::{Flow, Hooks, NodeCtx, Pass, Settings};
use llmshim_core::{ChangeKind, FallbackReason, RuleSet, json};
use serde_json::{Map, Value};

/// W19: with the Google-family value rules, turns a string `const` on a string node into a one-value `enum`
/// (`google.const-to-enum`); removes every key the rule set's keep-list, under the walk's keyword profile, does not
/// keep with its value (lifting those on the lift list); then, for a structured-output schema on a rule set with
/// output bounds, lifts the numeric and length bounds and a `minItems` over 1, and, outside strict, every key whose
/// value the strict keep-list keeps only under a condition that fails (a format off the provider's list): a JSON
/// output is decoded by the same grammar as a strict tool (`anthropic.output-bounds`).
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

    fn hooks(&self, settings: &Settings) -> Hooks {
        Hooks::when(
            self.rules.google_values
                || self.rules.keep_set(settings.keywords).is_some()
                || (self.rules.output_bounds && settings.structured_output),
            Hooks::ENTER,
        )
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        if self.rules.google_values && const_to_enum(map) {
            cx.record(CONST_TO_ENUM, ChangeKind::Rewritten, Some("const"));
        }
        let keywords = cx.settings().keywords;
        if let Some(keep) = self.rules.keep_set(keywords) {
            // Type inference waits for the merged node at an untyped intermediate root (a `$ref` target, a one-entry
            // `allOf`'s entry), and a `const` is one of the keys it types from: stripped here, the merged node would
            // be typed without it (a `const`-only union branch taking its node's type and admitting what the `const`
            // refused), so the `const` is left for the merged node's visit, which strips it as in place.
            let waits = cx.typed_when_merged() && !map.contains_key("type");
            cx.keep_only(
                map,
                |k, v| keep.keeps(k, v) || (waits && k == "const"),
                "target.keyword",
            );
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
            if !cx.settings().strict {
                for kept in self.rules.strict_keep(keywords).conditional {
                    let fails = map.get(kept.key).is_some_and(|v| !kept.when.keeps(v));
                    if fails && let Some(value) = json::remove(map, kept.key) {
                        cx.queue_lift(kept.key, value, "anthropic.output-bounds");
                    }
                }
            }
        }
        Ok(Flow::Continue)
    }
}

/// The rule id of a string `const` written as a one-value `enum`.
const CONST_TO_ENUM: &str = "google.const-to-enum";

/// `google.const-to-enum`: Gemini has no `const`, but a one-value `enum` says the same on a string node, so the model
/// keeps the allowed value as a constraint instead of reading it in the description.
///
/// On a node whose `type` is `"string"` (given or inferred), a string `const` becomes `enum: [value]` at the
/// `const`'s position; when the node already has an `enum`, the `enum` keeps only the values equal to the `const`
/// and the `const` goes. When the `enum` holds no such value (nothing is valid), or is not an array, nothing changes
/// and the keep-list lifts the `const` as before. Returns whether the node changed.
fn const_to_enum(map: &mut Map<String, Value>) -> bool {
    let Some(Value::String(text)) = json::member(map, "const") else {
        return false;
    };
    if map.get("type").and_then(Value::as_str) != Some("string") {
        return false;
    }
    let value = Value::String(text.clone());
    const_into_enum(map, value)
}

/// Writes the node's `const`, whose value is `value`, as a one-value `enum`: at the `const`'s position when the node
/// has no `enum`; when it has one, the `enum` keeps only the values equal to `value` and the `const` goes. When the
/// `enum` holds no such value (nothing is valid) or is not an array, nothing changes. Returns whether the node
/// changed. Shared by every rule that spells a `const` as an `enum` for a dialect without `const`.
pub(crate) fn const_into_enum(map: &mut Map<String, Value>, value: Value) -> bool {
    match map.get("enum") {
        None => {
            json::rename_in_place(map, "const", "enum");
            json::set(map, "enum", Value::Array(vec![value]));
            true
        }
        Some(Value::Array(values)) => {
            let kept: Vec<Value> = values.iter().filter(|v| **v == value).cloned().collect();
            if kept.is_empty() {
                return false;
            }
            json::set(map, "enum", Value::Array(kept));
            json::remove(map, "const");
            true
        }
        Some(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::const_to_enum;

    fn apply(mut node: Value) -> (bool, Value) {
        let changed = node.as_object_mut().is_some_and(const_to_enum);
        (changed, node)
    }

    #[test]
    fn a_string_const_becomes_a_one_value_enum_in_place() {
        let (changed, node) =
            apply(json!({"type": "string", "const": "cn", "description": "China"}));
        assert!(changed);
        assert_eq!(
            serde_json::to_string(&node).ok().as_deref(),
            Some(r#"{"type":"string","enum":["cn"],"description":"China"}"#)
        );
    }

    #[test]
    fn an_existing_enum_keeps_the_values_equal_to_the_const() {
        let (changed, node) =
            apply(json!({"type": "string", "enum": ["a", "b", "a"], "const": "a"}));
        assert!(changed);
        assert_eq!(node, json!({"type": "string", "enum": ["a", "a"]}));
        // No value left: the const stays for the keep-list to lift.
        let input = json!({"type": "string", "enum": ["a"], "const": "z"});
        assert_eq!(apply(input.clone()), (false, input));
    }

    #[test]
    fn other_consts_are_left_for_the_lift() {
        for input in [
            json!({"type": "integer", "const": 3}),
            json!({"type": "string", "const": 3}),
            json!({"const": "x"}),
            json!({"type": ["string", "null"], "const": "x"}),
            json!({"type": "string", "const": "x", "enum": "x"}),
        ] {
            assert_eq!(apply(input.clone()), (false, input));
        }
    }
}
