//! Whether a schema already admits null, in the narrow sense `strict.nullable-optional` needs.

use serde_json::Value;

/// Whether `schema` admits null: its `type` is `"null"`, its `type` array contains `"null"`, or one of its `anyOf`
/// branches admits null, recursively.
///
/// `enum: [null]`, `const: null` and `nullable: true` do not count, nor does a boolean schema: closing an object
/// wraps such a property in a null alternative. The search is iterative, so any nesting is safe.
///
/// ```
/// use llmshim_strict::admits_null;
/// use serde_json::json;
///
/// assert!(admits_null(&json!({"type": ["string", "null"]})));
/// assert!(admits_null(&json!({"anyOf": [{"type": "string"}, {"anyOf": [{"type": "null"}]}]})));
/// assert!(!admits_null(&json!({"type": "string", "nullable": true})));
/// assert!(!admits_null(&json!({"enum": [null, "a"]})));
/// ```
pub fn admits_null(schema: &Value) -> bool {
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        let Value::Object(map) = node else {
            continue;
        };
        match map.get("type") {
            Some(Value::String(name)) if name == "null" => return true,
            Some(Value::Array(names)) if names.iter().any(|n| n.as_str() == Some("null")) => {
                return true;
            }
            _ => {}
        }
        if let Some(Value::Array(branches)) = map.get("anyOf") {
            stack.extend(branches.iter().rev());
        }
    }
    false
}
