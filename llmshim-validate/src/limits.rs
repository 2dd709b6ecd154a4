//! The fixed limits a schema must respect before it is compiled.

use serde_json::Value;

/// The deepest member a schema may have (root at depth 0).
pub(crate) const MAX_DEPTH: usize = 96;
/// The most values a schema may have in all.
pub(crate) const MAX_VALUES: usize = 32_768;
/// The most key and string bytes a schema may have in all.
pub(crate) const MAX_BYTES: usize = 8 * 1024 * 1024;

/// Whether `value` respects every fixed limit; iterative, so any nesting is measured safely.
pub(crate) fn within(value: &Value) -> bool {
    let mut values = 0usize;
    let mut bytes = 0usize;
    let mut stack = vec![(value, 0usize)];
    while let Some((v, depth)) = stack.pop() {
        values += 1;
        if depth > MAX_DEPTH || values > MAX_VALUES {
            return false;
        }
        match v {
            Value::String(s) => bytes += s.len(),
            Value::Array(items) => stack.extend(items.iter().map(|x| (x, depth + 1))),
            Value::Object(map) => {
                for (key, member) in map {
                    bytes += key.len();
                    stack.push((member, depth + 1));
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
        if bytes > MAX_BYTES {
            return false;
        }
    }
    true
}
