//! References in normalized outputs: none at all, or only the kept form of recursive references.
//!
//! A normalization that keeps recursive references emits each as a node whose only key is `$ref`, with the value
//! `#` (the document root) or `#/$defs/<name>` naming a member of the root's `$defs`; `$defs` exists only at the
//! root, and `definitions` nowhere. Every other normalization emits no `$ref`, `$defs` or `definitions` at all.
//! This module checks either rule on a finished schema, independently of the library's own structural check.

use serde_json::{Map, Value};

/// Every place where `schema` breaks the rule: with `kept` the kept form above, without it no reference at all.
/// Each problem names the JSON Pointer of the node.
///
/// ```
/// use llmshim_benches::refs::reference_problems;
/// use serde_json::json;
///
/// let tree = json!({"type": "object", "properties": {"t": {"$ref": "#/$defs/T"}},
///     "$defs": {"T": {"type": "array", "items": {"$ref": "#/$defs/T"}}}});
/// assert!(reference_problems(&tree, true).is_empty());
/// assert_eq!(reference_problems(&tree, false).len(), 2);
///
/// let loose = json!({"type": "object", "properties": {"t": {"$ref": "#/$defs/U", "description": "x"}}});
/// assert_eq!(reference_problems(&loose, true).len(), 1);
/// ```
pub fn reference_problems(schema: &Value, kept: bool) -> Vec<String> {
    let definitions: Option<&Map<String, Value>> = schema.get("$defs").and_then(Value::as_object);
    let mut problems = Vec::new();
    let mut stack: Vec<(String, &Value)> = vec![(String::new(), schema)];
    if let (true, Some(defs)) = (kept, definitions) {
        for (name, member) in defs {
            stack.push((format!("/$defs/{}", escape(name)), member));
        }
    }
    while let Some((pointer, node)) = stack.pop() {
        let Some(map) = node.as_object() else {
            continue;
        };
        if let Some(reference) = map.get("$ref") {
            let resolves = match reference.as_str() {
                Some("#") => true,
                Some(r) => r.strip_prefix("#/$defs/").is_some_and(|name| {
                    definitions.is_some_and(|d| d.contains_key(&unescape(name)))
                }),
                None => false,
            };
            if !kept {
                problems.push(format!("{pointer}: $ref {reference}"));
            } else if map.len() != 1 || !resolves {
                problems.push(format!(
                    "{pointer}: $ref {reference} is not a lone reference into the output's $defs"
                ));
            }
        }
        if map.contains_key("$defs") && !(kept && pointer.is_empty()) {
            problems.push(format!("{pointer}: $defs"));
        }
        if map.contains_key("definitions") {
            problems.push(format!("{pointer}: definitions"));
        }
        for (key, value) in map {
            match (key.as_str(), value) {
                (
                    "properties" | "patternProperties" | "dependentSchemas",
                    Value::Object(members),
                ) => {
                    for (name, member) in members {
                        stack.push((format!("{pointer}/{key}/{}", escape(name)), member));
                    }
                }
                (
                    "items"
                    | "contains"
                    | "additionalProperties"
                    | "unevaluatedProperties"
                    | "unevaluatedItems"
                    | "propertyNames"
                    | "not"
                    | "if"
                    | "then"
                    | "else",
                    child,
                ) => stack.push((format!("{pointer}/{key}"), child)),
                ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(entries)) => {
                    for (at, entry) in entries.iter().enumerate() {
                        stack.push((format!("{pointer}/{key}/{at}"), entry));
                    }
                }
                _ => {}
            }
        }
    }
    problems
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}
