//! Description lifting: a removed constraint becomes a ` (keyword: value)` fragment of the node's description.

use serde_json::{Map, Value};

use crate::json;

/// Renders a lifted value: a string `pattern` or `format` raw, everything else compact JSON.
///
/// ```
/// use llmshim_core::lift::render;
/// use serde_json::json;
///
/// assert_eq!(render("pattern", &json!("^a+$")), "^a+$");
/// assert_eq!(render("default", &json!("a")), "\"a\"");
/// assert_eq!(render("maximum", &json!(100.0)), "100.0");
/// assert_eq!(render("minimum", &json!(1e21)), "1e+21");
/// assert_eq!(render("enum", &json!([1, "é"])), "[1,\"é\"]");
/// ```
pub fn render(keyword: &str, value: &Value) -> String {
    match (keyword, value) {
        ("pattern" | "format", Value::String(s)) => s.clone(),
        _ => crate::defs::unmark_rendered(json::compact(value)),
    }
}

/// Appends the fragment for `keyword` and `value` to `node`'s description.
///
/// A non-string description is replaced. Nothing is appended when the description already contains `(keyword:`,
/// the duplicate marker that keeps normalization idempotent. Returns whether text was appended.
///
/// ```
/// use llmshim_core::lift::append;
/// use serde_json::json;
///
/// let mut node = json!({"type": "integer"});
/// let map = node.as_object_mut().unwrap();
/// assert!(append(map, "default", &json!(7)));
/// assert_eq!(map["description"], "(default: 7)");
/// assert!(!append(map, "default", &json!(8)));
///
/// let mut node = json!({"description": "  padded"});
/// append(node.as_object_mut().unwrap(), "default", &json!(2.5));
/// assert_eq!(node["description"], "padded (default: 2.5)");
/// ```
pub fn append(node: &mut Map<String, Value>, keyword: &str, value: &Value) -> bool {
    if has_marker(description(node), keyword) {
        return false;
    }
    let rendered = match (keyword, value) {
        ("pattern" | "format", Value::String(s)) => std::borrow::Cow::Borrowed(s.as_str()),
        _ => std::borrow::Cow::Owned(crate::defs::unmark_rendered(json::compact(value))),
    };
    extend(node, &[keyword, ": ", &rendered]);
    true
}

/// Appends a written-out fragment `(<text>)` to `node`'s description unless it already contains `(<marker>:`,
/// under the same rules as [`append`]; used for what a rewrite left out (`(recursive next: omitted below depth 3)`).
/// Returns whether text was appended.
///
/// ```
/// use llmshim_core::lift::append_text;
/// use serde_json::json;
///
/// let mut node = json!({"description": "A tree"});
/// let map = node.as_object_mut().unwrap();
/// assert!(append_text(map, "recursive kids", "recursive kids: omitted below depth 3"));
/// assert!(!append_text(map, "recursive kids", "recursive kids: omitted below depth 2"));
/// assert_eq!(map["description"], "A tree (recursive kids: omitted below depth 3)");
/// ```
pub fn append_text(node: &mut Map<String, Value>, marker: &str, text: &str) -> bool {
    if has_marker(description(node), marker) {
        return false;
    }
    extend(node, &[text]);
    true
}

/// `node`'s description, or the empty text when it has none or a non-string one.
fn description(node: &Map<String, Value>) -> &str {
    match json::member(node, "description") {
        Some(Value::String(s)) => s,
        _ => "",
    }
}

/// Whether `text` contains `(<marker>:`, found without building that needle.
fn has_marker(text: &str, marker: &str) -> bool {
    text.match_indices('(').any(|(at, _)| {
        text.get(at + 1..)
            .and_then(|rest| rest.strip_prefix(marker))
            .is_some_and(|rest| rest.starts_with(':'))
    })
}

/// Sets `node`'s description to its current text with leading whitespace trimmed, then ` (`, `parts` and `)`
/// (no space in front when the trimmed text is empty), writing one new string of the final length.
fn extend(node: &mut Map<String, Value>, parts: &[&str]) {
    let current = description(node).trim_start();
    let length = current.len() + 3 + parts.iter().map(|p| p.len()).sum::<usize>();
    let mut text = String::with_capacity(length);
    if !current.is_empty() {
        text.push_str(current);
        text.push(' ');
    }
    text.push('(');
    for part in parts {
        text.push_str(part);
    }
    text.push(')');
    json::set(node, "description", Value::String(text));
}

/// The per-visit queue of fragments waiting to be written, flushed in byte-wise keyword order.
#[derive(Clone, Debug, Default)]
pub struct Queue {
    entries: Vec<Queued>,
}

/// One queued fragment.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Queued {
    /// The lifted keyword.
    pub keyword: String,
    /// Its value as it stood when queued.
    pub value: Value,
    /// The rule that removed it.
    pub rule: &'static str,
}

impl Queue {
    /// Queues a fragment; a keyword queued twice keeps its first value.
    pub fn push(&mut self, keyword: impl Into<String>, value: Value, rule: &'static str) {
        let keyword = keyword.into();
        if self.entries.iter().any(|q| q.keyword == keyword) {
            return;
        }
        self.entries.push(Queued {
            keyword,
            value,
            rule,
        });
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Takes the queued fragments sorted by keyword in byte-wise order, leaving the queue empty.
    pub fn drain_sorted(&mut self) -> Vec<Queued> {
        let mut entries = std::mem::take(&mut self.entries);
        entries.sort_by(|a, b| a.keyword.as_bytes().cmp(b.keyword.as_bytes()));
        entries
    }
}
