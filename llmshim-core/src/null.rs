//! Whether a schema already admits null, in the narrow sense strict closing uses (`strict.nullable-optional`).

use crate::json;
use serde_json::Value;

/// Whether `schema` admits null: its `type` is `"null"`, its `type` array contains `"null"`, or one of its `anyOf`
/// branches admits null, recursively.
///
/// `enum: [null]`, `const: null` and `nullable: true` do not count, nor does a boolean schema: closing an object
/// wraps such a property in a null alternative. A `$ref` is not followed (see [`admits_null_with`]). The search is
/// iterative, so any nesting is safe.
///
/// ```
/// use llmshim_core::null::admits_null;
/// use serde_json::json;
///
/// assert!(admits_null(&json!({"type": ["string", "null"]})));
/// assert!(admits_null(&json!({"anyOf": [{"type": "string"}, {"anyOf": [{"type": "null"}]}]})));
/// assert!(!admits_null(&json!({"type": "string", "nullable": true})));
/// assert!(!admits_null(&json!({"enum": [null, "a"]})));
/// ```
pub fn admits_null(schema: &Value) -> bool {
    admits_null_with(schema, |_| None)
}

/// [`admits_null`], following each `$ref` through `resolve` (which returns the schema a reference string names,
/// or `None`); every reference is followed once, so cycles end.
///
/// ```
/// use llmshim_core::null::admits_null_with;
/// use serde_json::json;
///
/// let maybe = json!({"anyOf": [{"type": "string"}, {"type": "null"}]});
/// let lookup = |r: &str| (r == "#/$defs/Maybe").then_some(&maybe);
/// let (site, other) = (json!({"$ref": "#/$defs/Maybe"}), json!({"$ref": "#/$defs/Other"}));
/// assert!(admits_null_with(&site, lookup));
/// assert!(!admits_null_with(&other, lookup));
/// ```
pub fn admits_null_with<'a>(
    schema: &'a Value,
    resolve: impl Fn(&str) -> Option<&'a Value>,
) -> bool {
    // The schema itself is read before the stack: most schemas are decided by their own members (a `type`, no
    // `anyOf`, no `$ref`), and then nothing is allocated.
    let mut stack: Vec<&Value> = Vec::new();
    let mut followed: Vec<&str> = Vec::new();
    let mut next = Some(schema);
    while let Some(node) = next {
        if let Value::Object(map) = node {
            match json::member(map, "type") {
                Some(Value::String(name)) if name == "null" => return true,
                Some(Value::Array(names)) if names.iter().any(|n| n.as_str() == Some("null")) => {
                    return true;
                }
                _ => {}
            }
            if let Some(Value::Array(branches)) = json::member(map, "anyOf") {
                stack.extend(branches.iter().rev());
            }
            if let Some(Value::String(reference)) = json::member(map, "$ref")
                && !followed.contains(&reference.as_str())
            {
                followed.push(reference);
                if let Some(target) = resolve(reference) {
                    stack.push(target);
                }
            }
        }
        next = stack.pop();
    }
    false
}
