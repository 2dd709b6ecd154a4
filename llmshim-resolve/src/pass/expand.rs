//! Step W7: a `$ref` is replaced by its walked target with the referencing node's siblings merged over it.

use std::cell::RefCell;

use hashbrown::{HashMap, HashSet};
use llmshim_core::json;
use llmshim_core::keyword::{KeywordClass, SNAKE_CASE, class_of};
use llmshim_core::walk::{Flow, NodeCtx, Pass, Rewalk};
use llmshim_core::{ChangeKind, FallbackKind, FallbackReason};
use serde_json::{Map, Value};

use crate::registry::Registry;
use crate::uri;

/// What the expansion does with booleans and cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode {
    /// Normalization: a boolean target fails `invalid_schema`, a cycle fails `ref_cycle`.
    Normalize,
    /// The resolver-only API: a boolean target is merged by its meaning (`true` leaves the siblings, `false` stays
    /// `false`); a cycle fails, or with `keep_cycles` becomes a `$ref` into root `$defs`.
    Dereference {
        /// Keep each cycle as a local `$ref` instead of failing.
        keep_cycles: bool,
    },
}

/// Marks a kept cycle's `$ref` during the walk; [`finish_kept_refs`] turns it into `#/$defs/<name>` afterwards, so a
/// re-walk never mistakes it for a reference into the original document.
const KEPT_PREFIX: &str = "\u{0}llmshim-kept:";

/// Rewrites the kept-cycle markers in `value` into local references `#/$defs/<name>`, iteratively.
pub(crate) fn finish_kept_refs(value: &mut Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if let Some(Value::String(r)) = map.get_mut("$ref")
                    && let Some(name) = r.strip_prefix(KEPT_PREFIX)
                {
                    *r = format!("#/$defs/{}", escape_token(name));
                }
                stack.extend(map.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// W7: reference expansion against a [`Registry`].
#[derive(Debug)]
pub struct Expand<'r, 'a> {
    registry: &'r Registry<'a>,
    mode: Mode,
    stack: RefCell<Vec<String>>,
    kept: RefCell<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    names: HashMap<String, String>,
    taken: HashSet<String>,
    defs: Vec<(String, Option<Value>)>,
}

impl<'r, 'a> Expand<'r, 'a> {
    /// Expansion over `registry`.
    pub fn new(registry: &'r Registry<'a>, mode: Mode) -> Self {
        Expand {
            registry,
            mode,
            stack: RefCell::new(Vec::new()),
            kept: RefCell::new(Kept::default()),
        }
    }

    /// The definitions that kept cycles refer to, in first-use order (empty unless cycles are kept).
    pub(crate) fn kept_definitions(&self) -> Vec<(String, Value)> {
        self.kept
            .borrow_mut()
            .defs
            .drain(..)
            .filter_map(|(name, v)| v.map(|v| (name, v)))
            .collect()
    }

    fn cycle(
        &self,
        absolute: &str,
        map: &mut Map<String, Value>,
        cx: &mut NodeCtx<'_>,
    ) -> Result<Flow, FallbackReason> {
        if !matches!(self.mode, Mode::Dereference { keep_cycles: true }) {
            return Err(cx.fail(
                FallbackKind::RefCycle,
                format!("{absolute:?} refers back to itself"),
            ));
        }
        let mut kept = self.kept.borrow_mut();
        let name = if let Some(name) = kept.names.get(absolute) {
            name.clone()
        } else {
            let name = unique_name(&mut kept.taken, &definition_name(absolute));
            kept.names.insert(absolute.to_owned(), name.clone());
            kept.defs.push((name.clone(), None));
            name
        };
        json::set(map, "$ref", Value::String(format!("{KEPT_PREFIX}{name}")));
        Ok(Flow::Continue)
    }
}

impl Pass for Expand<'_, '_> {
    fn name(&self) -> &'static str {
        "expand-ref"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(map) = node.as_object_mut() else {
            return Ok(Flow::Continue);
        };
        let Some(reference) = map.get("$ref") else {
            return Ok(Flow::Continue);
        };
        let Some(reference) = reference.as_str() else {
            return Err(cx.fail(FallbackKind::InvalidRef, "$ref must be a string"));
        };
        if reference.starts_with(KEPT_PREFIX) {
            return Ok(Flow::Continue);
        }
        let absolute =
            uri::join(cx.base(), reference).map_err(|m| cx.fail(FallbackKind::InvalidUri, m))?;
        if self.stack.borrow().contains(&absolute) {
            return self.cycle(&absolute, map, cx);
        }
        let target = self.registry.resolve(&absolute, cx.pointer())?;
        let mut walked = target.value.clone();
        if let Some(t) = walked.as_object_mut() {
            json::remove(t, "$id");
            if target.draft.uses_plain_id() && matches!(t.get("id"), Some(Value::String(_))) {
                json::remove(t, "id");
            }
            // Siblings win: a target key a sibling replaces never reaches the result, so the target is walked with
            // the sibling's value in that place already. Otherwise the walk could fail, or demote strict, on content
            // the merge throws away, or shape the root by keys it will not have. A schema-valued sibling is put in
            // place only when target and sibling share a base (its references must resolve against the sibling's
            // base), and the target's root leaves every sibling's child keyword unwalked either way: the merged
            // node walks the sibling's value. `description` stays the target's, so that the fragments its walk lifts
            // can follow the sibling's text.
            let same_base = *target.base == **cx.base();
            for (key, value) in map.iter() {
                if matches!(key.as_str(), "$ref" | "$id" | "description") {
                    continue;
                }
                // `dependencies` and `additionalItems` hold schemas until the upgrades (W9, W10) turn them into
                // children.
                let literal = matches!(class_of(key), KeywordClass::Literal)
                    && !matches!(key.as_str(), "dependencies" | "additionalItems");
                if !same_base && !literal {
                    continue;
                }
                // The siblings are already in camel case; the target may still spell the key in snake case, which
                // its walk renames (and which wins over a camel-case spelling there).
                let snake = SNAKE_CASE
                    .iter()
                    .find(|(_, camel)| *camel == key.as_str())
                    .map(|(snake, _)| *snake);
                for spelling in std::iter::once(key.as_str()).chain(snake) {
                    if let Some(slot) = t.get_mut(spelling) {
                        *slot = value.clone();
                    }
                }
            }
        }
        let before = walked
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        self.stack.borrow_mut().push(absolute.clone());
        let result = self.expand(map, &mut walked, before.as_deref(), target.base, cx);
        self.stack.borrow_mut().pop();
        let merged = result?;
        let kept_name = self.kept.borrow().names.get(&absolute).cloned();
        if let Some(name) = kept_name {
            let mut kept = self.kept.borrow_mut();
            if let Some(slot) = kept
                .defs
                .iter_mut()
                .find(|(n, v)| *n == name && v.is_none())
            {
                slot.1 = Some(walked);
            }
        }
        cx.record("resolve.inline-ref", ChangeKind::Rewritten, Some("$ref"));
        *node = merged;
        Ok(Flow::Done)
    }
}

impl Expand<'_, '_> {
    fn expand(
        &self,
        node: &Map<String, Value>,
        walked: &mut Value,
        before: Option<&str>,
        base: std::sync::Arc<str>,
        cx: &mut NodeCtx<'_>,
    ) -> Result<Value, FallbackReason> {
        // The target's root is merged with the siblings below and walked again, so passes may leave to that second
        // walk what depends on the root's final keys (strict closing reads the final `properties`).
        let replaced = node
            .keys()
            .filter(|k| !matches!(k.as_str(), "$ref" | "$id"))
            .map(String::as_str);
        cx.rewalk(
            walked,
            &Rewalk::here()
                .with_base(base)
                .with_intermediate(true)
                .with_skipped_children(replaced),
        )?;
        let siblings = node
            .iter()
            .filter(|(k, _)| k.as_str() != "$ref" && k.as_str() != "$id");
        let mut merged = match walked {
            Value::Object(t) => t.clone(),
            Value::Bool(b) if matches!(self.mode, Mode::Dereference { .. }) => {
                if !*b {
                    return Ok(Value::Bool(false));
                }
                let rest: Map<String, Value> =
                    siblings.map(|(k, v)| (k.clone(), v.clone())).collect();
                if rest.is_empty() {
                    return Ok(Value::Bool(true));
                }
                let mut rest = Value::Object(rest);
                cx.rewalk(&mut rest, &Rewalk::here())?;
                return Ok(rest);
            }
            _ => {
                return Err(cx.fail(
                    FallbackKind::InvalidSchema,
                    "the reference target is not a schema object",
                ));
            }
        };
        let after = merged
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        for (key, value) in siblings {
            if key == "description"
                && let (Value::String(text), Some(after)) = (value, after.as_deref())
            {
                let text = carry_lifted(text, before.unwrap_or(""), after);
                json::set(&mut merged, key, Value::String(text));
                continue;
            }
            json::set(&mut merged, key, value.clone());
        }
        let mut merged = Value::Object(merged);
        cx.rewalk(&mut merged, &Rewalk::here())?;
        Ok(merged)
    }
}

/// The sibling description `text`, followed by what the target's walk added to its description (the part of `after`
/// past the target's own text `before`): the fragments it lifted, each skipped when `text` already carries its
/// keyword's marker, and the text it joined from merged branches (`cca.merge-combinator`, `google.collapse-nullable`),
/// whose own fragments follow the same rule. When `after` does not start with `before`, only the fragments `before`
/// did not hold are carried.
fn carry_lifted(text: &str, before: &str, after: &str) -> String {
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
            if !out.contains(&marker) && !before.contains(&marker) {
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
        if !out.contains(&format!("({keyword}:")) {
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

/// The last pointer segment or the anchor of a URI, else its last path segment without extension.
fn definition_name(absolute: &str) -> String {
    let (resource, fragment) = uri::split_fragment(absolute);
    let fragment = uri::percent_decode(fragment).unwrap_or_default();
    if let Some(last) = fragment
        .strip_prefix('/')
        .and_then(|p| p.rsplit('/').next())
        .filter(|s| !s.is_empty())
    {
        return llmshim_core::pointer::unescape(last);
    }
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return fragment;
    }
    let segment = resource.rsplit('/').next().unwrap_or("");
    let stem = segment.split('.').next().unwrap_or("");
    if stem.is_empty() {
        "schema".to_owned()
    } else {
        stem.to_owned()
    }
}

pub(crate) fn unique_name(taken: &mut HashSet<String>, wanted: &str) -> String {
    let mut name = wanted.to_owned();
    let mut n = 2;
    while taken.contains(&name) {
        name = format!("{wanted}_{n}");
        n += 1;
    }
    taken.insert(name.clone());
    name
}

/// Escapes a `$defs` key for use in a URI fragment pointer.
pub(crate) fn escape_token(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            '%' => out.push_str("%25"),
            '#' => out.push_str("%23"),
            ' ' => out.push_str("%20"),
            c => out.push(c),
        }
    }
    out
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
        // A walk that replaced the target's text (a one-entry allOf entry wins): its new fragments are carried.
        assert_eq!(
            carry_lifted("see", "a (format: x)", "(format: x) (default: null)"),
            "see (default: null)"
        );
    }

    #[test]
    fn names_definitions() {
        assert_eq!(definition_name("https://x.test/s#/$defs/Node"), "Node");
        assert_eq!(definition_name("https://x.test/s#tree"), "tree");
        assert_eq!(definition_name("https://x.test/tree.json"), "tree");
        assert_eq!(definition_name("https://llmshim.invalid/schema#"), "schema");
        let mut taken = HashSet::new();
        assert_eq!(unique_name(&mut taken, "a"), "a");
        assert_eq!(unique_name(&mut taken, "a"), "a_2");
    }
}
