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
/// (no space in front when the trimmed text is empty). A string description grows where it is (its member keeps
/// its place, and nothing is copied or looked up again); otherwise one new string of the final length is written.
fn extend(node: &mut Map<String, Value>, parts: &[&str]) {
    let added = 3 + parts.iter().map(|p| p.len()).sum::<usize>();
    if let Some(Value::String(text)) = json::member_mut(node, "description") {
        let leading = text.len() - text.trim_start().len();
        if leading > 0 {
            text.drain(..leading);
        }
        text.reserve(added);
        if !text.is_empty() {
            text.push(' ');
        }
        text.push('(');
        for part in parts {
            text.push_str(part);
        }
        text.push(')');
        return;
    }
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

/// The sibling description `text`, followed by what the target's walk added to its description (the part of `after`
/// past the target's own text `before`): the fragments it lifted, each skipped when `text` already carries its
/// keyword's marker, and the text it joined from merged branches (`cca.merge-combinator`, `google.collapse-nullable`),
/// whose own fragments follow the same rule. When `after` does not start with `before`, only the fragments `before`
/// did not hold are carried.
///
/// `resolve.inline-ref` joins a `$ref` sibling's description with its target's this way, and `walk.merge-all-of`
/// the node's own description with its one entry's (the node's text first, then the entry's words and fragments).
///
/// ```
/// use llmshim_core::lift::carry_lifted;
///
/// assert_eq!(
///     carry_lifted("home", "postal", "postal (format: date)"),
///     "home (format: date)"
/// );
/// assert_eq!(carry_lifted("A city", "", "Its name (minLength: 1)"), "A city Its name (minLength: 1)");
/// ```
pub fn carry_lifted(text: &str, before: &str, after: &str) -> String {
    let before = before.trim();
    let Some(added) = after.trim_start().strip_prefix(before) else {
        // The walk replaced the target's text (a one-entry `allOf` entry's description wins over its node's): carry
        // the fragments it holds that the target's own text did not.
        let mut out = text.to_owned();
        for fragment in split_fragments(&format!(" {}", after.trim_start())) {
            let Some(keyword) = fragment
                .strip_prefix(" (")
                .and_then(|f| f.split_once(": "))
                .map(|(k, _)| k)
            else {
                continue;
            };
            let marker = format!("({keyword}:");
            if !text.contains(&marker) && !before.contains(&marker) {
                out.push_str(fragment);
            }
        }
        return out.trim_start().to_owned();
    };
    let added = format!(" {}", added.trim_start());
    let mut out = text.to_owned();
    let pieces = split_fragments(&added);
    // Text the walk joined in before its first fragment (a merged branch's own words).
    let lead_end = pieces.first().map_or(added.len(), |first| {
        added.len() - first.len() - rest_len(&pieces)
    });
    let lead = added[..lead_end].trim();
    if !lead.is_empty() {
        out.push(' ');
        out.push_str(lead);
    }
    for fragment in pieces {
        let Some(keyword) = fragment
            .strip_prefix(" (")
            .and_then(|f| f.split_once(": "))
            .map(|(k, _)| k)
        else {
            continue;
        };
        // Only the sibling's own text decides: two fragments of one keyword the walk added (a union narrowed inside
        // the branch a narrowing kept, then the removed branches) are both carried.
        if !text.contains(&format!("({keyword}:")) {
            out.push_str(fragment);
        }
    }
    out.trim_start().to_owned()
}

/// The total length of all pieces after the first.
fn rest_len(pieces: &[&str]) -> usize {
    pieces.iter().skip(1).map(|p| p.len()).sum()
}

/// Splits text made of ` (keyword: value)` fragments at each fragment start.
fn split_fragments(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut starts = Vec::new();
    let mut i = 0;
    while i + 2 < bytes.len() {
        if bytes[i] == b' ' && bytes[i + 1] == b'(' && fragment_keyword_at(&text[i + 2..]) {
            starts.push(i);
        }
        i += 1;
    }
    let mut out = Vec::with_capacity(starts.len());
    for (n, start) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(text.len());
        out.push(&text[*start..end]);
    }
    out
}

fn fragment_keyword_at(rest: &str) -> bool {
    let Some((keyword, _)) = rest.split_once(": ") else {
        return false;
    };
    let mut chars = keyword.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '$' || c == '_' || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carries_fragments_the_sibling_lacks() {
        assert_eq!(
            carry_lifted("home", "postal", "postal (format: date) (minLength: 1)"),
            "home (format: date) (minLength: 1)"
        );
        assert_eq!(
            carry_lifted("home (format: x)", "", "(format: date) (minLength: 1)"),
            "home (format: x) (minLength: 1)"
        );
        assert_eq!(carry_lifted("home", "postal", "postal"), "home");
        assert_eq!(
            carry_lifted("home", "  postal", "postal (default: 1)"),
            "home (default: 1)"
        );
        // A merged union joins its branches' descriptions after the target's own, with single spaces: the fragment
        // lifted in a branch and the branches' words follow the sibling's text.
        assert_eq!(
            carry_lifted("see the definition", "a ", "a (format: email)"),
            "see the definition (format: email)"
        );
        assert_eq!(
            carry_lifted("Region", "", "(default: \"cn\") China World"),
            "Region (default: \"cn\") China World"
        );
        assert_eq!(
            carry_lifted("Region", "Where", "Where China (const: 1) World"),
            "Region China (const: 1) World"
        );
        // Two fragments of one keyword that the walk added are both carried (`target.narrow-union` after a union
        // narrowed inside the branch it keeps); one the sibling's text already carries is not.
        assert_eq!(
            carry_lifted("see", "", "(anyOf: [1]) (anyOf: [2])"),
            "see (anyOf: [1]) (anyOf: [2])"
        );
        assert_eq!(
            carry_lifted("see (anyOf: [0])", "", "(anyOf: [1]) (anyOf: [2])"),
            "see (anyOf: [0])"
        );
        // A walk that replaced the target's text (a one-entry allOf entry wins): its new fragments are carried.
        assert_eq!(
            carry_lifted("see", "a (format: x)", "(format: x) (default: null)"),
            "see (default: null)"
        );
    }
}
