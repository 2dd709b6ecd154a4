//! Step W22: the Google-family value rules for `enum`, `format` and keyword applicability.

use llmshim_core::walk::{Flow, NodeCtx, Pass};
use llmshim_core::{ChangeKind, FallbackReason, RuleSet, json, lift};
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
        for (keyword, value, rule) in enum_and_format(map) {
            cx.queue_lift(keyword, value, rule);
        }
        applicability(map, cx);
        Ok(Flow::Continue)
    }
}

/// The rule id of lifting an `enum` Gemini does not accept.
const ENUM_LIFT: &str = "google.enum-lift";
/// The rule id of lifting a `format` Gemini does not accept.
const FORMAT_LIFT: &str = "google.format-lift";

/// `google.enum-lift` and `google.format-lift` on a node whose `type` is not an array: removes an `enum` or `format`
/// Gemini does not accept there and returns them as `(keyword, value, rule)`, in that order, for the caller to lift.
fn enum_and_format(map: &mut Map<String, Value>) -> Vec<(&'static str, Value, &'static str)> {
    let mut lifted = Vec::new();
    let ty = map.get("type").and_then(Value::as_str).map(str::to_owned);
    let string_enum = |m: &Map<String, Value>| matches!(m.get("enum"), Some(Value::Array(values)) if values.iter().all(Value::is_string));
    if map.contains_key("enum")
        && !(ty.as_deref() == Some("string") && string_enum(map))
        && let Some(value) = json::remove(map, "enum")
    {
        lifted.push(("enum", value, ENUM_LIFT));
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
            lifted.push(("format", value, FORMAT_LIFT));
        }
    }
    lifted
}

/// The value rules of W22 run once more, after W28 gave the node keys or a type late; what they remove is lifted
/// into the node's description at once, in byte-wise keyword order, since the visit's lift queue was flushed at
/// W22. `tokens` locates the node below the visited one (empty for the visited node itself).
pub(crate) fn rerun(map: &mut Map<String, Value>, tokens: &[&str], cx: &mut NodeCtx<'_>) {
    if map.get("type").is_some_and(Value::is_array) {
        return;
    }
    let mut lifted = enum_and_format(map);
    lifted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    for (keyword, value, rule) in lifted {
        lift::append(map, keyword, &value);
        let mut at = tokens.to_vec();
        at.push(keyword);
        cx.record_at(rule, ChangeKind::Lifted, &at);
    }
    applicability_at(map, tokens, cx);
}

/// Drops keywords that do not apply to the node's string `type` (rule `google.type-applicability`).
fn applicability(map: &mut Map<String, Value>, cx: &mut NodeCtx<'_>) {
    applicability_at(map, &[], cx);
}

/// [`applicability`] on the node at `tokens` below the visited one.
fn applicability_at(map: &mut Map<String, Value>, tokens: &[&str], cx: &mut NodeCtx<'_>) {
    let Some(ty) = map.get("type").and_then(Value::as_str).map(str::to_owned) else {
        return;
    };
    // The string and object constraints only the current keep-lists keep never reach here otherwise.
    let groups: [(&[&str], bool); 4] = [
        (
            &[
                "properties",
                "required",
                "propertyOrdering",
                "minProperties",
                "maxProperties",
            ],
            ty == "object",
        ),
        (&["items", "minItems", "maxItems"], ty == "array"),
        (&["minimum", "maximum"], ty == "integer" || ty == "number"),
        (&["minLength", "maxLength", "pattern"], ty == "string"),
    ];
    for (keys, applies) in groups {
        if applies {
            continue;
        }
        for key in keys {
            if json::remove(map, key).is_some() {
                let mut at = tokens.to_vec();
                at.push(key);
                cx.record_at("google.type-applicability", ChangeKind::Dropped, &at);
            }
        }
    }
}
