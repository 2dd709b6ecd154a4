//! Gemini's JSON Schema dialect (`parametersJsonSchema`, `responseJsonSchema`): type arrays, `anyOf`,
//! `additionalProperties` and `prefixItems` kept; `const`, `nullable`, and the `enum`s and `format`s Gemini does not
//! read rewritten or lifted.
//!
//! Gemini takes a function's parameters in two dialects. `parameters` is an OpenAPI-subset protobuf that rejects
//! every keyword it does not know (the `Google` target); `parametersJsonSchema` and `responseJsonSchema` take JSON
//! Schema and ignore what they do not read, so far less has to change. What Gemini documents it reads is the keep-list
//! below; everything else is removed, and lifted into the description where it constrains values. Four rules are not
//! rule-set data and run in this target's `enter` hook, after type inference and before the keep-list:
//! - `gjs.nullable-to-type`: an OpenAPI-style `nullable: true` adds `"null"` to `type`;
//! - `gjs.const-to-enum`: a string or number `const` becomes a one-value `enum`;
//! - `gjs.enum-lift`: an `enum` with a value that is not a string or a number is lifted;
//! - `gjs.format-lift`: a `format` Gemini does not document, or one on a node that is not a string, is lifted;
//!
//! and an `allOf` that the walk could not merge is lifted below the root and fails at the root (`target.keyword`).
//!
//! Recursive references are kept as `$ref`s into the root `$defs` where the cycle crosses an optional property, and
//! unrolled where it runs through required properties only (`resolve.keep-recursive-ref`,
//! `resolve.unroll-recursion`).

use llmshim_core::envelope::{EmptySchema, Layout, ToolShape};
use llmshim_core::keep::{KeepSet, KeepSets};
use llmshim_core::rules::{
    Booleans, DefaultItems, EmptyProperties, Envelope, Policy, Root, SchemaUri,
};
use llmshim_core::walk::NodeCtx;
use llmshim_core::{ChangeKind, FallbackKind, FallbackReason, Nullable, Recursion, RuleSet, json};
use serde_json::{Map, Value};

use crate::Builtin;

/// Gemini through its JSON Schema fields.
pub static GOOGLE_JSON_SCHEMA: Builtin =
    Builtin::new("google-json-schema", &RULES).with_enter(enter, acts);

/// Function declarations gathered in `[{"functionDeclarations": [{"name", "description", "parametersJsonSchema"}]}]`,
/// never a `strict` key; an object schema without properties is left out, as on the `parameters` dialect. A
/// declaration that arrives with `parameters` is read from there and written as `parametersJsonSchema`.
pub(crate) const ENVELOPE: Envelope = Envelope::new(Layout::Declarations {
    list: "functionDeclarations",
    declaration: ToolShape::new("parametersJsonSchema").with_alternates(&["parameters"]),
})
.with_empty_schema(EmptySchema::Omit);

/// The keywords Gemini reads in its JSON Schema fields, the same under both keyword profiles (the documented subset
/// holds no string length, property count or pattern). `$ref` and `$defs` stand only where kept recursive references
/// put them; `oneOf` reaches the output only when the caller turns its rewrite to `anyOf` off.
pub(crate) const KEEP: &[&str] = &[
    "$ref",
    "$defs",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "oneOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
];

/// The string formats Gemini's JSON Schema fields keep; any other `format` is lifted.
const FORMATS: [&str; 10] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "uuid",
    "uri",
    "ipv4",
    "ipv6",
    "hostname",
];

/// The rule set: type arrays and `null` preserved, `oneOf` read as `anyOf`, a boolean `additionalProperties` kept
/// (other boolean subschemas rejected), an object root, `required` names filtered to declared properties, strict
/// ignored.
pub(crate) const RULES: RuleSet = RuleSet::new()
    .with_defaults(Policy::new(Nullable::Preserve, true, false))
    .with_booleans(Booleans::Reject)
    .with_schema_uri(SchemaUri::Remove)
    .with_root(Root::Object)
    .with_flatten_tuples(false)
    .with_infer_array_from_items(false)
    .with_keep(Some(KeepSets::same(KeepSet::names(KEEP))))
    .with_empty_properties(EmptyProperties::Never)
    .with_default_items(DefaultItems::None)
    .with_filter_required(true)
    .with_strict(None)
    .with_envelope(ENVELOPE)
    .with_recursion(KEEP_OPTIONAL_CYCLES, KEEP_OPTIONAL_CYCLES);

/// Recursion on this target: a cycle that crosses a property its object does not require is kept as a lone `$ref`
/// into the root `$defs` (Gemini's JSON Schema fields read references); a cycle through required properties only is
/// unrolled three times, since Gemini would have to unroll it itself and rejects it. Strict is ignored, so both modes
/// are the same.
const KEEP_OPTIONAL_CYCLES: Recursion = Recursion::KeepRefs {
    optional_only: true,
};

/// The rule id of `nullable: true` written into `type`.
const NULLABLE_TO_TYPE: &str = "gjs.nullable-to-type";
/// The rule id of a `const` written as a one-value `enum`.
const CONST_TO_ENUM: &str = "gjs.const-to-enum";
/// The rule id of lifting an `enum` Gemini does not read.
const ENUM_LIFT: &str = "gjs.enum-lift";
/// The rule id of lifting a `format` Gemini does not read.
const FORMAT_LIFT: &str = "gjs.format-lift";

/// Whether [`enter`] acts on the schema object `map` (`TargetRules::enter_acts`): each of its rules acts only where
/// its member passes the test the rule itself starts with, so on a node where none does, the hook changes nothing.
fn acts(map: &Map<String, Value>) -> bool {
    map.iter().any(|(key, value)| match key.as_str() {
        "nullable" => marks_null(value),
        "const" => enum_value(value),
        "enum" => !scalar_enum(value),
        "format" => !kept_format(map),
        "allOf" => true,
        _ => false,
    })
}

/// The `enter` hook: the four value rules, then the `allOf` rule, on every schema object.
fn enter(node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
    let Some(map) = node.as_object_mut() else {
        return Ok(());
    };
    if nullable_to_type(map) {
        cx.record(NULLABLE_TO_TYPE, ChangeKind::Rewritten, Some("nullable"));
    }
    if const_to_enum(map) {
        cx.record(CONST_TO_ENUM, ChangeKind::Rewritten, Some("const"));
    }
    // As on Google (`google.enum-lift`), an untyped intermediate root (a `$ref` target, a one-entry `allOf`'s entry)
    // keeps its `enum` and `format` for the merged node: that node is typed from the `enum` among others, and its
    // type decides whether the `format` stays.
    let merged_later = cx.typed_when_merged() && !map.contains_key("type");
    if !merged_later
        && !map.get("enum").is_none_or(scalar_enum)
        && let Some(value) = json::remove(map, "enum")
    {
        cx.queue_lift("enum", value, ENUM_LIFT);
    }
    if !merged_later
        && map.contains_key("format")
        && !kept_format(map)
        && let Some(value) = json::remove(map, "format")
    {
        cx.queue_lift("format", value, FORMAT_LIFT);
    }
    if map.contains_key("allOf") {
        // The walk merged every `allOf` it could (`walk.merge-all-of`); Gemini does not read one that is left.
        if cx.position().root {
            return Err(cx.fail(
                FallbackKind::TargetUnsupported,
                "an allOf that cannot be merged is not accepted at the root",
            ));
        }
        if let Some(value) = json::remove(map, "allOf") {
            cx.queue_lift("allOf", value, "target.keyword");
        }
    }
    Ok(())
}

/// `gjs.nullable-to-type`: the `nullable: true` of `OpenAPI` says that null is allowed too, which this dialect
/// writes as `"null"` in `type` (a string becomes a two-entry array; an array gains `"null"` at its end unless it
/// has it). The marker goes; a node without `type` already admits null, so only the marker goes there. Returns
/// whether the node changed. `nullable: false` says nothing and is left for the keep-list to drop.
fn nullable_to_type(map: &mut Map<String, Value>) -> bool {
    if !map.get("nullable").is_some_and(marks_null) {
        return false;
    }
    let null = Value::String("null".to_owned());
    match map.get_mut("type") {
        Some(Value::String(name)) if name != "null" => {
            let name = std::mem::take(name);
            json::set(map, "type", Value::Array(vec![Value::String(name), null]));
        }
        Some(Value::Array(names)) if !names.contains(&null) => names.push(null),
        _ => {}
    }
    json::remove(map, "nullable");
    true
}

/// `gjs.const-to-enum`: this dialect has no `const`, but a one-value `enum` says the same for a string or a number,
/// so the model keeps the value as a constraint. The `enum` takes the `const`'s place; when the node already has an
/// `enum`, it keeps only the values equal to the `const`. When the `enum` holds no such value or is not an array, or
/// the value is of another kind, nothing changes and the keep-list lifts the `const`. Returns whether the node
/// changed.
fn const_to_enum(map: &mut Map<String, Value>) -> bool {
    let Some(value) = map.get("const").filter(|v| enum_value(v)) else {
        return false;
    };
    let value = value.clone();
    crate::passes::const_into_enum(map, value)
}

/// Whether a `nullable` marker says that null is allowed too (`gjs.nullable-to-type` acts on no other).
fn marks_null(marker: &Value) -> bool {
    *marker == Value::Bool(true)
}

/// Whether a value may stand in an `enum` this dialect reads: a string or a number (`gjs.const-to-enum` acts on no
/// other `const`).
fn enum_value(value: &Value) -> bool {
    value.is_string() || value.is_number()
}

/// Whether an `enum` is one this dialect reads: an array of strings and numbers.
fn scalar_enum(values: &Value) -> bool {
    values.as_array().is_some_and(|v| v.iter().all(enum_value))
}

/// Whether the node's `format` is one this dialect keeps: a documented string format on a node whose `type` is
/// `"string"` or an array that holds `"string"`.
fn kept_format(map: &Map<String, Value>) -> bool {
    let string = match map.get("type") {
        Some(Value::String(name)) => name == "string",
        Some(Value::Array(names)) => names.iter().any(|n| n == "string"),
        _ => false,
    };
    string
        && map
            .get("format")
            .and_then(Value::as_str)
            .is_some_and(|f| FORMATS.contains(&f))
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::{acts, const_to_enum, kept_format, nullable_to_type, scalar_enum};

    fn apply(rule: fn(&mut Map<String, Value>) -> bool, mut node: Value) -> (bool, String) {
        let changed = node.as_object_mut().is_some_and(rule);
        (changed, serde_json::to_string(&node).unwrap_or_default())
    }

    #[test]
    fn nullable_true_joins_the_type() {
        assert_eq!(
            apply(
                nullable_to_type,
                json!({"type": "string", "nullable": true, "title": "t"})
            ),
            (true, r#"{"type":["string","null"],"title":"t"}"#.to_owned())
        );
        assert_eq!(
            apply(
                nullable_to_type,
                json!({"nullable": true, "type": ["integer", "string"]})
            ),
            (true, r#"{"type":["integer","string","null"]}"#.to_owned())
        );
        // Already nullable, or without a type: only the marker goes.
        assert_eq!(
            apply(
                nullable_to_type,
                json!({"type": ["null", "string"], "nullable": true})
            ),
            (true, r#"{"type":["null","string"]}"#.to_owned())
        );
        assert_eq!(
            apply(nullable_to_type, json!({"nullable": true, "enum": ["a"]})),
            (true, r#"{"enum":["a"]}"#.to_owned())
        );
        // `false` and non-boolean markers are the keep-list's to drop.
        for input in [
            json!({"type": "string", "nullable": false}),
            json!({"nullable": "true"}),
        ] {
            let text = serde_json::to_string(&input).unwrap_or_default();
            assert_eq!(apply(nullable_to_type, input), (false, text));
        }
    }

    #[test]
    fn string_and_number_consts_become_one_value_enums() {
        assert_eq!(
            apply(
                const_to_enum,
                json!({"type": "string", "const": "cn", "description": "China"})
            ),
            (
                true,
                r#"{"type":"string","enum":["cn"],"description":"China"}"#.to_owned()
            )
        );
        assert_eq!(
            apply(const_to_enum, json!({"const": 2.5, "type": "number"})),
            (true, r#"{"enum":[2.5],"type":"number"}"#.to_owned())
        );
        assert_eq!(
            apply(const_to_enum, json!({"enum": [1, 2, 1], "const": 1})),
            (true, r#"{"enum":[1,1]}"#.to_owned())
        );
        for input in [
            json!({"const": true}),
            json!({"const": null}),
            json!({"const": {"a": 1}}),
            json!({"enum": ["a"], "const": "b"}),
            json!({"enum": "a", "const": "a"}),
        ] {
            let text = serde_json::to_string(&input).unwrap_or_default();
            assert_eq!(apply(const_to_enum, input), (false, text));
        }
    }

    #[test]
    fn enums_and_formats_gemini_reads() {
        assert!(scalar_enum(&json!(["a", 1, 2.5])));
        assert!(!scalar_enum(&json!(["a", null])));
        assert!(!scalar_enum(&json!([true])));
        assert!(!scalar_enum(&json!("a")));
        let kept = |node: Value| node.as_object().is_some_and(kept_format);
        assert!(kept(json!({"type": "string", "format": "date-time"})));
        assert!(kept(json!({"type": ["string", "null"], "format": "uuid"})));
        assert!(!kept(json!({"type": "string", "format": "int64"})));
        assert!(!kept(json!({"type": "integer", "format": "date"})));
        assert!(!kept(json!({"format": "email"})));
        assert!(!kept(json!({"type": "string", "format": 3})));
    }

    #[test]
    fn the_hook_acts_only_where_a_rule_does() {
        let acts = |node: Value| node.as_object().is_some_and(acts);
        // Each rule's own case.
        for node in [
            json!({"type": "string", "nullable": true}),
            json!({"const": "a"}),
            json!({"type": "number", "const": 2}),
            json!({"type": "string", "enum": ["a", null]}),
            json!({"enum": "a"}),
            json!({"type": "integer", "format": "int64"}),
            json!({"type": "string", "format": "int64"}),
            json!({"format": "date"}),
            json!({"allOf": [{"type": "string"}]}),
        ] {
            assert!(acts(node.clone()), "{node}");
        }
        // What every rule leaves: a `false` marker and a `const` of another kind (the keep-list's to drop or lift),
        // string and number enums, a documented format on a string.
        for node in [
            json!({"type": "string", "description": "d"}),
            json!({"type": "string", "nullable": false}),
            json!({"const": true}),
            json!({"type": "string", "enum": ["a", "b"]}),
            json!({"type": "number", "enum": [1, 2.5]}),
            json!({"type": "string", "format": "date-time"}),
            json!({"type": ["string", "null"], "format": "uuid"}),
        ] {
            assert!(!acts(node.clone()), "{node}");
        }
    }
}
