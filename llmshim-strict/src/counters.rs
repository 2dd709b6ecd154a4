//! The two counters of the Anthropic request budget, over an emitted schema.

use std::collections::HashSet;

use serde_json::{Map, Value};

use llmshim_core::children::children;
use llmshim_core::defs::definitions;
use llmshim_core::json;

/// The number of properties, at every depth, that are not listed in their own object's `required`.
///
/// Every `properties` map counts, with every inlined copy; an absent `required`, or one that is not an array,
/// lists nothing. After strict closing the count is 0.
///
/// ```
/// use llmshim_strict::optional_count;
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"a": {"type": "string"}, "b": {"type": "object", "properties": {"c": {"type": "string"}}}},
///     "required": ["a"]
/// });
/// assert_eq!(optional_count(&schema), 2);
/// ```
pub fn optional_count(schema: &Value) -> usize {
    let mut total = 0usize;
    visit(schema, |map| {
        total = total.saturating_add(optional_here(map));
    });
    total
}

/// [`optional_count`] and [`union_count`] of `schema` at once, in one walk: `(optional, unions)`.
///
/// ```
/// use llmshim_strict::{budget_counts, optional_count, union_count};
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"a": {"type": ["string", "null"]}, "b": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
///     "required": ["a"]
/// });
/// assert_eq!(budget_counts(&schema), (1, 2));
/// assert_eq!(budget_counts(&schema), (optional_count(&schema), union_count(&schema)));
/// ```
pub fn budget_counts(schema: &Value) -> (usize, usize) {
    let (mut optional, mut unions) = (0usize, 0usize);
    visit(schema, |map| {
        // The members both counters read, found in one pass over the keys instead of a search for each.
        let (mut properties, mut required, mut union) = (None, None, false);
        for (key, value) in map {
            match key.as_str() {
                "properties" => properties = Some(value),
                "required" => required = Some(value),
                "anyOf" => union = true,
                "type" => union |= value.is_array(),
                _ => {}
            }
        }
        optional = optional.saturating_add(optional_in(properties, required));
        unions = unions.saturating_add(usize::from(union));
    });
    (optional, unions)
}

/// The properties of one object node that its own `required` does not list.
fn optional_here(map: &Map<String, Value>) -> usize {
    // Small nodes are scanned instead of hashing each key (`json::member`).
    optional_in(
        json::member(map, "properties"),
        json::member(map, "required"),
    )
}

/// The names of `properties` (when an object) that `required` (when an array) does not list.
fn optional_in(properties: Option<&Value>, required: Option<&Value>) -> usize {
    let Some(Value::Object(properties)) = properties else {
        return 0;
    };
    let names: &[Value] = match required {
        Some(Value::Array(names)) => names,
        _ => &[],
    };
    // A short `required` list is scanned: cheaper than hashing every name into a set.
    if names.len() <= 16 {
        return properties
            .keys()
            .filter(|name| !names.iter().any(|n| n.as_str() == Some(name.as_str())))
            .count();
    }
    let required: HashSet<&str> = names.iter().filter_map(Value::as_str).collect();
    properties
        .keys()
        .filter(|name| !required.contains(name.as_str()))
        .count()
}

/// The number of schema nodes that have `anyOf` or an array `type`, with every inlined copy.
///
/// After strict closing, every formerly optional property adds one, so Anthropic's union cap binds first.
///
/// ```
/// use llmshim_strict::union_count;
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "a": {"anyOf": [{"type": "string"}, {"type": "null"}]},
///         "b": {"type": ["integer", "null"]},
///         "c": {"type": "string", "enum": ["x", null]}
///     }
/// });
/// assert_eq!(union_count(&schema), 2);
/// ```
pub fn union_count(schema: &Value) -> usize {
    let mut total = 0usize;
    visit(schema, |map| {
        total = total.saturating_add(union_here(map));
    });
    total
}

/// 1 when one node has `anyOf` or an array `type`.
fn union_here(map: &Map<String, Value>) -> usize {
    usize::from(json::has(map, "anyOf") || json::member(map, "type").is_some_and(Value::is_array))
}

/// Calls `per_node` on every schema object in `schema`, and in each member of its root `$defs` once, iteratively.
fn visit(schema: &Value, mut per_node: impl FnMut(&Map<String, Value>)) {
    let mut stack: Vec<&Value> = definitions(schema).collect();
    stack.push(schema);
    while let Some(value) = stack.pop() {
        let Value::Object(map) = value else {
            continue;
        };
        per_node(map);
        stack.extend(children(map).map(|child| child.value));
    }
}
