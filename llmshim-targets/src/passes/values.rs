//! Step W22: the Google-family value rules for `enum`, `format` and keyword applicability.

use llmshim_core::walk::{Flow, Hooks, NodeCtx, Pass, Settings};
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

    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::when(self.rules.google_values, Hooks::ENTER)
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        if !self.rules.google_values {
            return Ok(Flow::Continue);
        }
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        if type_array(map) {
            return Ok(Flow::Continue);
        }
        // An untyped intermediate root (a `$ref` target, a one-entry `allOf`'s entry) is typed only once merged, from
        // its `const` or one-kind `enum` among others: its literals are judged on the merged node, where that type is
        // known, as they are in place (lifted first, a literal-only union branch would take its node's type instead
        // of its own and admit what the literal refused). An entry of several is merged only once they are gone.
        if !cx.typed_when_merged() || map.contains_key("type") {
            for (keyword, value, rule) in enum_and_format(map) {
                cx.queue_lift(keyword, value, rule);
            }
        }
        applicability(map, cx);
        Ok(Flow::Continue)
    }
}

/// Whether the node's `type` is an array, found by a scan of its keys (cheaper than hashing `type`).
fn type_array(map: &Map<String, Value>) -> bool {
    map.iter()
        .any(|(key, value)| key == "type" && value.is_array())
}

/// The rule id of lifting an `enum` Gemini does not accept.
const ENUM_LIFT: &str = "google.enum-lift";
/// The rule id of lifting a `format` Gemini does not accept.
const FORMAT_LIFT: &str = "google.format-lift";

/// The node's `type` as far as the value rules read it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ty {
    String,
    Integer,
    Number,
    /// Absent, not a string, or another name.
    Other,
}

/// What the value rules read of a node, found in one pass over its members instead of one hashed lookup each.
struct Facts {
    ty: Ty,
    /// `enum` is there; whether it is an array of strings only, and whether that array is non-empty.
    has_enum: bool,
    string_enum: bool,
    nonempty_enum: bool,
    /// `format` is there, and whether the rules keep it.
    has_format: bool,
    format_kept: bool,
}

impl Facts {
    fn of(map: &Map<String, Value>) -> Facts {
        let mut ty = Ty::Other;
        let mut format = None;
        let mut facts = Facts {
            ty: Ty::Other,
            has_enum: false,
            string_enum: false,
            nonempty_enum: false,
            has_format: false,
            format_kept: false,
        };
        for (key, value) in map {
            match key.as_str() {
                "type" => {
                    ty = match value.as_str() {
                        Some("string") => Ty::String,
                        Some("integer") => Ty::Integer,
                        Some("number") => Ty::Number,
                        _ => Ty::Other,
                    };
                }
                "enum" => {
                    facts.has_enum = true;
                    if let Value::Array(values) = value {
                        facts.string_enum = values.iter().all(Value::is_string);
                        facts.nonempty_enum = !values.is_empty();
                    }
                }
                "format" => {
                    facts.has_format = true;
                    format = Some(value.as_str());
                }
                _ => {}
            }
        }
        facts.ty = ty;
        facts.format_kept = match (ty, format.flatten()) {
            (Ty::String, Some("enum")) => facts.nonempty_enum && facts.string_enum,
            (Ty::String, Some("date-time"))
            | (Ty::Integer, Some("int32" | "int64"))
            | (Ty::Number, Some("float" | "double")) => true,
            _ => false,
        };
        facts
    }
}

/// `google.enum-lift` and `google.format-lift` on a node whose `type` is not an array: removes an `enum` or `format`
/// Gemini does not accept there and returns them as `(keyword, value, rule)`, in that order, for the caller to lift.
fn enum_and_format(map: &mut Map<String, Value>) -> Vec<(&'static str, Value, &'static str)> {
    let mut lifted = Vec::new();
    let facts = Facts::of(map);
    // A `format: "enum"` is kept only beside a non-empty string enum, which is exactly an enum that stays.
    if facts.has_enum
        && !(facts.ty == Ty::String && facts.string_enum)
        && let Some(value) = json::remove(map, "enum")
    {
        lifted.push(("enum", value, ENUM_LIFT));
    }
    if facts.has_format
        && !facts.format_kept
        && let Some(value) = json::remove(map, "format")
    {
        lifted.push(("format", value, FORMAT_LIFT));
    }
    lifted
}

/// The value rules of W22 run once more, after W28 gave the node keys or a type late; what they remove is lifted
/// into the node's description at once, in byte-wise keyword order, since the visit's lift queue was flushed at
/// W22. `tokens` locates the node below the visited one (empty for the visited node itself).
pub(crate) fn rerun(map: &mut Map<String, Value>, tokens: &[&str], cx: &mut NodeCtx<'_>) {
    if type_array(map) {
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

/// The keys that apply to one type only, by group: a group is dropped from a node whose `type` is another one.
const APPLICABILITY: [(&[&str], &str); 4] = [
    (
        &[
            "properties",
            "required",
            "propertyOrdering",
            "minProperties",
            "maxProperties",
        ],
        "object",
    ),
    (&["items", "minItems", "maxItems"], "array"),
    (&["minimum", "maximum"], "number"),
    (&["minLength", "maxLength", "pattern"], "string"),
];

/// [`applicability`] on the node at `tokens` below the visited one.
fn applicability_at(map: &mut Map<String, Value>, tokens: &[&str], cx: &mut NodeCtx<'_>) {
    // One pass over the node's keys finds the type and whether any group key is there at all; most nodes hold
    // none that their type excludes, and each removal would otherwise hash every listed key.
    let mut ty = None;
    let mut grouped = false;
    for (key, value) in map.iter() {
        if key == "type" {
            ty = value.as_str();
        } else if !grouped {
            grouped = APPLICABILITY
                .iter()
                .any(|(keys, _)| keys.contains(&key.as_str()));
        }
    }
    let Some(ty) = ty else {
        return;
    };
    if !grouped {
        return;
    }
    let applies: [bool; 4] =
        APPLICABILITY.map(|(_, of)| ty == of || (of == "number" && ty == "integer"));
    for ((keys, _), applies) in APPLICABILITY.iter().zip(applies) {
        if applies {
            continue;
        }
        for key in *keys {
            if !map.keys().any(|k| k == key) {
                continue;
            }
            if json::remove(map, key).is_some() {
                let mut at = tokens.to_vec();
                at.push(key);
                cx.record_at("google.type-applicability", ChangeKind::Dropped, &at);
            }
        }
    }
}
