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
    let mut tally = Tally::default();
    if !tally.count(value, 0) {
        return false;
    }
    // Containers still to open, with their depth; scalars are counted where they are found, never stacked.
    let mut stack = vec![(value, 0usize)];
    while let Some((v, depth)) = stack.pop() {
        let fits = match v {
            Value::Array(items) => items
                .iter()
                .all(|item| tally.member("", item, depth + 1, &mut stack)),
            Value::Object(map) => map
                .iter()
                .all(|(key, item)| tally.member(key, item, depth + 1, &mut stack)),
            _ => true,
        };
        if !fits {
            return false;
        }
    }
    true
}

/// The running counts of [`within`].
#[derive(Default)]
struct Tally {
    values: usize,
    bytes: usize,
}

impl Tally {
    /// Counts `value` (a string with its bytes) at `depth`; whether every limit still holds.
    fn count(&mut self, value: &Value, depth: usize) -> bool {
        self.values += 1;
        if let Value::String(s) = value {
            self.bytes += s.len();
        }
        depth <= MAX_DEPTH && self.values <= MAX_VALUES && self.bytes <= MAX_BYTES
    }

    /// Counts a container's member `value` under `key` (empty for an array item) at `depth`, stacking it when it is
    /// a container; whether every limit still holds.
    fn member<'v>(
        &mut self,
        key: &str,
        value: &'v Value,
        depth: usize,
        stack: &mut Vec<(&'v Value, usize)>,
    ) -> bool {
        self.bytes += key.len();
        if !self.count(value, depth) {
            return false;
        }
        if matches!(value, Value::Array(_) | Value::Object(_)) {
            stack.push((value, depth));
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `depth` arrays around a string, the string at depth `depth`.
    fn nested(depth: usize) -> Value {
        (0..depth).fold(json!("x"), |inner, _| json!([inner]))
    }

    #[test]
    fn the_depth_limit_counts_scalars_at_the_bottom() {
        assert!(within(&nested(MAX_DEPTH)));
        assert!(!within(&nested(MAX_DEPTH + 1)));
        assert!(!within(&json!({"a": nested(MAX_DEPTH)})));
    }

    #[test]
    fn the_value_limit_counts_every_value_and_the_root() {
        let fits: Vec<Value> = vec![Value::Null; MAX_VALUES - 1];
        assert!(within(&Value::Array(fits)));
        let over: Vec<Value> = vec![Value::Null; MAX_VALUES];
        assert!(!within(&Value::Array(over)));
    }

    #[test]
    fn the_byte_limit_counts_keys_and_strings() {
        let half = "k".repeat(MAX_BYTES / 2);
        assert!(within(&json!({ half.clone(): half.clone() })));
        let longer = format!("{half}k");
        assert!(!within(&json!({ longer: half })));
    }
}
