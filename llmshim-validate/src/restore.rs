//! Undoing strict-mode nulls on a model's output.

use serde_json::Value;

use crate::compile;

/// Removes the `null`s that strict mode forced into optional properties, walking a resolved schema beside `value`.
///
/// For an object schema with `properties` and an object value, each property that is not `required`, whose value
/// is `null`, and whose own subschema compiles and rejects `null`, is removed; every other present property is
/// walked. For an array value whose schema's `items` is an object, each element is walked. `anyOf`,
/// `prefixItems` and `additionalProperties` are not followed, so explicitly nullable properties keep their nulls.
/// A kept reference (`#`, or `#/$defs/<name>` into the root's `$defs`, as normalization keeps recursion) is
/// followed to its target. The walk is iterative, so any nesting is safe.
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
    let root = resolved_schema;
    let mut stack: Vec<(&Value, &mut Value)> = vec![(resolved_schema, value)];
    while let Some((schema, value)) = stack.pop() {
        let schema = follow(root, schema);
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
                        && properties
                            .get(key)
                            .is_some_and(|s| rejects_null(root, follow(root, s))))
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

/// The target of a kept reference in `root` (followed through chains, at most 32 links), or `schema` itself.
fn follow<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    let mut current = schema;
    for _ in 0..32 {
        let Some(reference) = current
            .as_object()
            .filter(|m| m.len() == 1)
            .and_then(|m| m.get("$ref"))
            .and_then(Value::as_str)
        else {
            break;
        };
        let next = if reference == "#" {
            Some(root)
        } else {
            reference.strip_prefix("#/$defs/").and_then(|name| {
                root.get("$defs")?
                    .get(llmshim_core::pointer::unescape(name))
            })
        };
        match next {
            Some(next) => current = next,
            None => break,
        }
    }
    current
}

/// Whether `schema` compiles and rejects `null`; its kept references resolve into the root's `$defs`.
fn rejects_null(root: &Value, schema: &Value) -> bool {
    let with_definitions;
    let schema = match (root.get("$defs"), schema) {
        (Some(defs), Value::Object(map)) if !map.contains_key("$defs") => {
            let mut map = map.clone();
            map.insert("$defs".to_owned(), defs.clone());
            with_definitions = Value::Object(map);
            &with_definitions
        }
        _ => schema,
    };
    compile(schema).is_ok_and(|validator| !validator.is_valid(&Value::Null))
}
