//! Ingesting an MCP tool: normalize its `inputSchema` and require that it describes an object.

use llmshim_core::{FallbackKind, FallbackReason, Normalization};
use serde_json::{Map, Value};

use crate::error::kind_name;
use crate::tool::INPUT_SCHEMA;

/// Normalizes `tool`'s `inputSchema` in place with `normalize` and requires the result to describe an object.
///
/// This is MCP tool ingestion without the normalizer itself, which the caller hands in (the facade passes its
/// `normalize_with` for the Mcp target):
/// - A tool that is not an object, or has no `inputSchema` key, is left alone; `normalize` is not called and the
///   report is [`Normalization::default`].
/// - Otherwise `normalize` rewrites `inputSchema` in place. Unless its report says `bypassed`, a result whose
///   `type` is not the string `"object"` is replaced by the fallback `{"type":"object","properties":{}}` and the
///   report becomes `used_fallback: true`, `strict: false`, `fallback_reason` of kind `not_object` at pointer `""`,
///   no `changes`, and `changed` recomputed: whether the fallback differs from the original `inputSchema` (value
///   equality).
/// - Otherwise the report is the one `normalize` returned.
///
/// No other field of the tool is touched.
///
/// ```
/// use llmshim_core::Normalization;
/// use llmshim_mcp::normalize_tool;
/// use serde_json::json;
///
/// // A schema with only `properties` passes once the normalizer infers its type.
/// let mut tool = json!({"name": "add", "inputSchema": {"properties": {"a": {"type": "number"}}}});
/// let report = normalize_tool(&mut tool, |schema| {
///     schema["type"] = json!("object");
///     let mut report = Normalization::default();
///     report.changed = true;
///     report
/// });
/// assert!(report.changed && !report.used_fallback);
/// assert_eq!(tool["inputSchema"]["type"], "object");
///
/// // Under bypass a schema that is not an object stays as it is.
/// let mut tool = json!({"name": "say", "inputSchema": {"type": "string"}});
/// let report = normalize_tool(&mut tool, |_schema| Normalization::bypassed());
/// assert_eq!(report, Normalization::bypassed());
/// assert_eq!(tool["inputSchema"], json!({"type": "string"}));
/// ```
pub fn normalize_tool(
    tool: &mut Value,
    normalize: impl FnOnce(&mut Value) -> Normalization,
) -> Normalization {
    let Some(schema) = tool
        .as_object_mut()
        .and_then(|map| map.get_mut(INPUT_SCHEMA))
    else {
        return Normalization::default();
    };
    // Only whether the original equals the fallback matters later, so the original is not copied.
    let original_is_fallback = is_fallback(schema);
    let report = normalize(schema);
    if report.bypassed || schema.get("type").and_then(Value::as_str) == Some("object") {
        return report;
    }
    let message = not_object_message(schema);
    *schema = fallback();
    Normalization::fell_back(
        FallbackReason::new(FallbackKind::NotObject, "", message),
        !original_is_fallback,
    )
}

/// The fallback schema, `{"type":"object","properties":{}}`.
fn fallback() -> Value {
    let mut map = Map::new();
    map.insert("type".to_owned(), Value::String("object".to_owned()));
    map.insert("properties".to_owned(), Value::Object(Map::new()));
    Value::Object(map)
}

/// Returns whether `schema` equals the fallback by value equality (key order ignored), without building it.
fn is_fallback(schema: &Value) -> bool {
    schema.as_object().is_some_and(|map| {
        map.len() == 2
            && map.get("type").and_then(Value::as_str) == Some("object")
            && map
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(Map::is_empty)
    })
}

/// Says why a normalized input schema does not describe an object.
fn not_object_message(schema: &Value) -> String {
    let found = match schema {
        Value::Object(map) => match map.get("type") {
            None => "has no type".to_owned(),
            Some(Value::String(name)) => format!("has type {name:?}"),
            Some(other) => format!("has {} as its type", kind_name(other)),
        },
        other => format!("is {}, not a schema object", kind_name(other)),
    };
    format!("mcp tool input schema {found}; tool parameters must describe an object")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::normalize::{fallback, is_fallback};

    #[test]
    fn the_fallback_is_recognized_by_value_equality() {
        assert_eq!(fallback(), json!({"type": "object", "properties": {}}));
        assert!(is_fallback(&fallback()));
        assert!(is_fallback(&json!({"properties": {}, "type": "object"})));
        assert!(!is_fallback(&json!({"type": "object"})));
        assert!(!is_fallback(
            &json!({"type": "object", "properties": {"a": {}}})
        ));
        assert!(!is_fallback(
            &json!({"type": "object", "properties": {}, "required": []})
        ));
        assert!(!is_fallback(&json!({"type": "string", "properties": {}})));
        assert!(!is_fallback(&json!({"type": "object", "properties": []})));
        assert!(!is_fallback(&json!(null)));
    }
}
