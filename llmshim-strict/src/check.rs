//! The strict acceptance check: what a strict provider accepts, verified on a finished schema.

use std::collections::HashSet;

use llmshim_core::keyword::TYPE_NAMES;
use llmshim_core::walk::HARD_MAX_DEPTH;
use llmshim_core::{FallbackKind, FallbackReason};
use serde_json::{Map, Value};

use crate::children::children;
use crate::keep_list::is_kept;

/// Every violation of the strict acceptance rules in `schema`, in document order; empty when it passes.
///
/// A node fails when (kind in brackets, `strict_unsupported` unless named):
/// - it is a boolean, other than a boolean `additionalProperties` [`boolean_schema`], or neither a boolean nor an
///   object [`invalid_schema`];
/// - `type` is neither a type name nor a non-empty array of distinct type names [`invalid_schema`];
/// - it has neither `type` nor `anyOf`;
/// - it has a key outside the keep-list ([`crate::KEEP`]), such as `prefixItems`, `format` or `$ref`;
/// - its type is `"object"` (or a type array with `"object"`) and `properties` is not an object,
///   `additionalProperties` is not `false`, or `required` is not every property name once, in declared order;
/// - its type is `"array"` (or a type array with `"array"`) and it has no `items`;
/// - it has an `allOf` with two or more entries;
/// - an `anyOf`, `oneOf` or `allOf` is not a non-empty array, or `properties` on a node that is not an object is
///   not an object [`invalid_schema`];
/// - it sits deeper than [`HARD_MAX_DEPTH`] levels [`budget_depth`]; it is reported and not entered.
///
/// A node's own violations come first, then its children's in stored key order. The check is iterative, so it
/// never overflows the stack, however deep the input.
///
/// [`boolean_schema`]: FallbackKind::BooleanSchema
/// [`invalid_schema`]: FallbackKind::InvalidSchema
/// [`budget_depth`]: FallbackKind::BudgetDepth
///
/// ```
/// use llmshim_core::FallbackKind;
/// use llmshim_strict::check;
/// use serde_json::json;
///
/// let closed = json!({
///     "type": "object",
///     "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
///     "required": ["a"],
///     "additionalProperties": false
/// });
/// assert!(check(&closed).is_empty());
///
/// let open = json!({"type": "object", "properties": {"a": {"type": "string", "format": "date"}}});
/// let found: Vec<_> = check(&open).into_iter().map(|r| (r.kind, r.pointer)).collect();
/// assert_eq!(found, [
///     (FallbackKind::StrictUnsupported, String::new()),
///     (FallbackKind::StrictUnsupported, String::new()),
///     (FallbackKind::StrictUnsupported, "/properties/a".to_owned()),
/// ]);
/// ```
pub fn check(schema: &Value) -> Vec<FallbackReason> {
    let mut found = Vec::new();
    let mut stack = vec![(schema, 0usize, String::new())];
    while let Some((value, depth, pointer)) = stack.pop() {
        if depth > HARD_MAX_DEPTH {
            found.push(FallbackReason::new(
                FallbackKind::BudgetDepth,
                pointer,
                format!("nesting deeper than the fixed limit of {HARD_MAX_DEPTH} levels"),
            ));
            continue;
        }
        let map = match value {
            Value::Object(map) => map,
            Value::Bool(_) => {
                found.push(FallbackReason::new(
                    FallbackKind::BooleanSchema,
                    pointer,
                    "boolean subschemas are not accepted under strict",
                ));
                continue;
            }
            _ => {
                found.push(FallbackReason::new(
                    FallbackKind::InvalidSchema,
                    pointer,
                    "a schema must be an object or a boolean",
                ));
                continue;
            }
        };
        rows(map, &pointer, &mut found);
        for (slot, child) in children(map).into_iter().rev() {
            let mut at = pointer.clone();
            slot.push_onto(&mut at);
            stack.push((child, depth + 1, at));
        }
    }
    found
}

/// The rules on one schema object, in the order of [`check`]'s list.
fn rows(map: &Map<String, Value>, pointer: &str, found: &mut Vec<FallbackReason>) {
    let mut fail = |kind: FallbackKind, message: String| {
        found.push(FallbackReason::new(kind, pointer, message));
    };

    let ty = map.get("type");
    if let Some(ty) = ty
        && !valid_type(ty)
    {
        fail(
            FallbackKind::InvalidSchema,
            "type must be a type name or a non-empty array of distinct type names".to_owned(),
        );
    }
    if ty.is_none() && !map.contains_key("anyOf") {
        fail(
            FallbackKind::StrictUnsupported,
            "a node needs type or anyOf under strict".to_owned(),
        );
    }
    for key in map.keys().filter(|k| !is_kept(k)) {
        fail(
            FallbackKind::StrictUnsupported,
            format!("{key} is not accepted under strict"),
        );
    }

    let is_object = has_type(ty, "object");
    if is_object {
        let properties = map.get("properties").and_then(Value::as_object);
        if properties.is_none() {
            fail(
                FallbackKind::StrictUnsupported,
                "a strict object needs properties as an object".to_owned(),
            );
        }
        if map.get("additionalProperties") != Some(&Value::Bool(false)) {
            fail(
                FallbackKind::StrictUnsupported,
                "a strict object needs additionalProperties false".to_owned(),
            );
        }
        if let Some(properties) = properties
            && !requires_each_in_order(map.get("required"), properties)
        {
            fail(
                FallbackKind::StrictUnsupported,
                "a strict object must require every property once, in declared order".to_owned(),
            );
        }
    }
    if has_type(ty, "array") && !map.contains_key("items") {
        fail(
            FallbackKind::StrictUnsupported,
            "a strict array needs items".to_owned(),
        );
    }
    if map
        .get("allOf")
        .and_then(Value::as_array)
        .is_some_and(|entries| entries.len() > 1)
    {
        fail(
            FallbackKind::StrictUnsupported,
            "allOf with more than one entry is not accepted under strict".to_owned(),
        );
    }

    for key in ["anyOf", "oneOf", "allOf"] {
        if map
            .get(key)
            .is_some_and(|v| v.as_array().is_none_or(Vec::is_empty))
        {
            fail(
                FallbackKind::InvalidSchema,
                format!("{key} must be a non-empty array"),
            );
        }
    }
    if !is_object && map.get("properties").is_some_and(|v| !v.is_object()) {
        fail(
            FallbackKind::InvalidSchema,
            "properties must be an object".to_owned(),
        );
    }
}

/// Whether `ty` is a type name or a non-empty array of distinct type names.
fn valid_type(ty: &Value) -> bool {
    match ty {
        Value::String(name) => TYPE_NAMES.contains(&name.as_str()),
        Value::Array(names) => {
            let mut seen = HashSet::with_capacity(names.len());
            !names.is_empty()
                && names.iter().all(|n| {
                    n.as_str()
                        .is_some_and(|n| TYPE_NAMES.contains(&n) && seen.insert(n))
                })
        }
        _ => false,
    }
}

/// Whether `ty` is `name` or an array containing it.
fn has_type(ty: Option<&Value>, name: &str) -> bool {
    match ty {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(names)) => names.iter().any(|n| n.as_str() == Some(name)),
        _ => false,
    }
}

/// Whether `required` lists exactly the keys of `properties`, in their order; an absent `required` lists nothing.
fn requires_each_in_order(required: Option<&Value>, properties: &Map<String, Value>) -> bool {
    let entries: &[Value] = match required {
        None => &[],
        Some(Value::Array(entries)) => entries,
        Some(_) => return false,
    };
    entries.len() == properties.len()
        && entries
            .iter()
            .zip(properties.keys())
            .all(|(entry, key)| entry.as_str() == Some(key.as_str()))
}
