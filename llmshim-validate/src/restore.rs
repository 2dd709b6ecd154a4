//! Undoing strict-mode nulls on a model's output.

use serde_json::Value;

use crate::compile;

/// Removes the `null`s that strict mode forced into optional properties, walking a resolved schema beside `value`.
///
/// For an object schema with `properties` and an object value, each property that is not `required`, whose value
/// is `null`, and whose own subschema compiles and rejects `null`, is removed; every other present property is
/// walked. For an array value whose schema's `items` is an object, each element is walked. `anyOf`,
/// `prefixItems` and `additionalProperties` are not followed, so explicitly nullable properties keep their nulls.
/// The walk is iterative, so any nesting is safe.
///
/// ```
/// use llmshim_validate::restore_optional_omissions;
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "a": {"type": "integer"},
///         "b": {"type": "string", "format": "email"},
///         "c": {"anyOf": [{"type": "string"}, {"type": "null"}]}
///     },
///     "required": ["a"]
/// });
/// let mut value = json!({"a": null, "b": null, "c": null});
/// restore_optional_omissions(&schema, &mut value);
/// assert_eq!(value, json!({"a": null, "c": null}));
/// ```
pub fn restore_optional_omissions(resolved_schema: &Value, value: &mut Value) {
    let mut stack: Vec<(&Value, &mut Value)> = vec![(resolved_schema, value)];
    while let Some((schema, value)) = stack.pop() {
        match value {
            Value::Object(map) => {
                let Some(Value::Object(properties)) = schema.get("properties") else {
                    continue;
                };
                let required: Vec<&str> = schema
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|names| names.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                map.retain(|key, member| {
                    !(member.is_null()
                        && !required.contains(&key.as_str())
                        && properties.get(key).is_some_and(rejects_null))
                });
                for (key, member) in map.iter_mut() {
                    if let Some(subschema) = properties.get(key) {
                        stack.push((subschema, member));
                    }
                }
            }
            Value::Array(items) => {
                let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) else {
                    continue;
                };
                for item in items.iter_mut() {
                    stack.push((item_schema, item));
                }
            }
            _ => {}
        }
    }
}

/// Whether `schema` compiles and rejects `null`.
fn rejects_null(schema: &Value) -> bool {
    compile(schema).is_ok_and(|validator| !validator.is_valid(&Value::Null))
}
