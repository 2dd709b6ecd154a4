//! Kept definitions: recursive reference targets emitted once under the root's `$defs`, each recursive site a bare
//! `$ref` to one of them.
//!
//! During the walk a kept site holds a marker reference (`{"$ref": "\u{0}llmshim-kept:<name>"}`) so that no later
//! visit mistakes it for a reference into the original document; strict closing marks the site of an optional
//! property it wrapped in a null alternative with a second prefix. [`finish`] runs once the walk is done: it drops
//! each null alternative whose definition admits null already, writes every marker as `#/$defs/<name>` (or `#` for
//! the document root) and appends the definitions as the root's last key.

use serde_json::{Map, Value};

use crate::json;
use crate::keyword::{Keyword, KeywordClass, class_of};
use crate::null::admits_null_with;

/// The marker prefix of a kept site during the walk.
const KEPT: &str = "\u{0}llmshim-kept:";

/// The marker prefix of a kept site that strict closing wrapped as an optional property.
const KEPT_OPTIONAL: &str = "\u{0}llmshim-kept?:";

/// The name a kept site to the document root uses: it becomes `{"$ref": "#"}` and needs no definition.
pub const ROOT: &str = "#";

/// The node a kept site becomes during the walk.
///
/// ```
/// use llmshim_core::defs;
///
/// let site = defs::kept_site("Node");
/// assert_eq!(defs::site_name(&site), Some("Node"));
/// assert_eq!(defs::site_name(&serde_json::json!({"$ref": "#/$defs/Node"})), None);
/// ```
pub fn kept_site(name: &str) -> Value {
    let mut map = Map::new();
    map.insert("$ref".to_owned(), Value::String(format!("{KEPT}{name}")));
    Value::Object(map)
}

/// The members of the root's `$defs`, the home of kept references (empty when there is none).
///
/// ```
/// use serde_json::json;
///
/// let tree = json!({"$defs": {"T": {"type": "string"}}});
/// assert_eq!(llmshim_core::defs::definitions(&tree).count(), 1);
/// ```
pub fn definitions(root: &Value) -> impl Iterator<Item = &Value> {
    root.get("$defs")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(Map::values)
}

/// The definition a marker reference names, if `reference` is one (plain or optional).
pub fn marker_name(reference: &str) -> Option<&str> {
    reference
        .strip_prefix(KEPT)
        .or_else(|| reference.strip_prefix(KEPT_OPTIONAL))
}

/// `text`, a value written as compact JSON during the walk, with every kept-site marker in it written as its final
/// reference (`#/$defs/<name>`, or `#` for the root): a fragment lifted into a description is written before
/// [`finish`] rewrites the markers that stand in schema positions, and a marker must never reach the model.
///
/// ```
/// use llmshim_core::{defs, json};
///
/// let lifted = json::compact(&serde_json::json!([{"type": "string"}, defs::kept_site("Node")]));
/// assert_eq!(defs::unmark_rendered(lifted), r##"[{"type":"string"},{"$ref":"#/$defs/Node"}]"##);
/// ```
pub fn unmark_rendered(text: String) -> String {
    // In JSON text the marker's NUL is the escape `\u0000`.
    const ESCAPED: &str = "\\u0000llmshim-kept";
    if !text.contains(ESCAPED) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(ESCAPED) {
        out.push_str(rest.get(..at).unwrap_or_default());
        let after = rest.get(at + ESCAPED.len()..).unwrap_or_default();
        let Some(tail) = after.strip_prefix(':').or_else(|| after.strip_prefix("?:")) else {
            out.push_str(ESCAPED);
            rest = after;
            continue;
        };
        // The name runs to the string's closing quote (a quote escaped inside it is part of it).
        let bytes = tail.as_bytes();
        let mut end = 0;
        while let Some(&b) = bytes.get(end) {
            match b {
                b'"' => break,
                b'\\' => end += 2,
                _ => end += 1,
            }
        }
        let end = end.min(tail.len());
        let name = tail.get(..end).unwrap_or_default();
        out.push_str(&final_reference(name));
        rest = tail.get(end..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// The definition a kept site names: `node` is an object whose only key is a marker `$ref`.
pub fn site_name(node: &Value) -> Option<&str> {
    let map = node.as_object()?;
    if map.len() != 1 {
        return None;
    }
    marker_name(map.get("$ref")?.as_str()?)
}

/// Marks a kept site as the schema of an optional property that strict closing wrapped in a null alternative:
/// [`finish`] removes the alternative again when the definition admits null by itself.
pub fn mark_optional(node: &mut Value) {
    if let Some(Value::String(reference)) = node.get_mut("$ref")
        && let Some(name) = reference.strip_prefix(KEPT)
    {
        *reference = format!("{KEPT_OPTIONAL}{name}");
    }
}

/// A usable `$defs` key from a wanted name: every character outside `[A-Za-z0-9_-]` becomes `_`, and an empty
/// name becomes `def`.
///
/// ```
/// assert_eq!(llmshim_core::defs::sanitize("my type.v2"), "my_type_v2");
/// assert_eq!(llmshim_core::defs::sanitize(""), "def");
/// ```
pub fn sanitize(name: &str) -> String {
    if name.is_empty() {
        return "def".to_owned();
    }
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The final form of a kept reference to `name`.
fn final_reference(name: &str) -> String {
    if name == ROOT {
        ROOT.to_owned()
    } else {
        format!("#/$defs/{name}")
    }
}

/// Finishes a walk that kept references: see the module documentation. `definitions` are in the order the walk
/// first met them; nothing happens when there are none and no marker. Returns the names of the definitions from
/// which no cycle of sites is left, whose sites became copies of them.
pub fn finish(root: &mut Value, definitions: Vec<(String, Value)>) -> Vec<String> {
    // A definition from which no cycle of sites is left (a rule dropped the part that recursed, as strict closing
    // drops a schema-valued `additionalProperties`) is no longer recursive: its sites become copies of it, as a
    // second pass over the output, which keeps only recursive references, would make them.
    let definitions = skip_aliases(root, definitions);
    let (definitions, copied) = inline_finite(root, definitions);
    // The walk met a target's content before its site's siblings, and a second pass meets the merged node's keys in
    // the walk's order: the definitions are put in the order that second walk meets them. Only the definitions a
    // site of the output reaches stay: a walk may have made one for a rewrite it then gave up (a root-shaping branch
    // walked without strict, whose properties strict walks again).
    let definitions = in_walk_order(root, definitions);
    // Which optional sites can lose their null alternative, decided on the walked values before any rewrite.
    let admits = |name: &str| -> bool {
        let lookup = |reference: &str| -> Option<&Value> {
            let name = marker_name(reference).or_else(|| {
                if reference == ROOT {
                    Some(ROOT)
                } else {
                    reference.strip_prefix("#/$defs/")
                }
            })?;
            if name == ROOT {
                Some(&*root)
            } else {
                definitions.iter().find(|(n, _)| n == name).map(|(_, v)| v)
            }
        };
        let target = if name == ROOT {
            Some(&*root)
        } else {
            definitions.iter().find(|(n, _)| n == name).map(|(_, v)| v)
        };
        target.is_some_and(|t| admits_null_with(t, lookup))
    };
    let mut unwrap: Vec<String> = Vec::new();
    for_each_schema(root, &mut |node| collect_optional(node, &mut unwrap));
    for (_, value) in &definitions {
        for_each_schema(value, &mut |node| collect_optional(node, &mut unwrap));
    }
    unwrap.sort();
    unwrap.dedup();
    let unwrap: Vec<String> = unwrap.into_iter().filter(|n| admits(n)).collect();

    let mut definitions = definitions;
    let rewrite = |node: &mut Value| rewrite_site(node, &unwrap);
    for_each_schema_mut(root, &rewrite);
    for (_, value) in &mut definitions {
        for_each_schema_mut(value, &rewrite);
    }
    if definitions.is_empty() {
        return copied;
    }
    if let Some(map) = root.as_object_mut() {
        json::remove(map, "$defs");
        let defs: Map<String, Value> = definitions.into_iter().collect();
        map.insert("$defs".to_owned(), Value::Object(defs));
    }
    copied
}

/// Points every site of a definition that is only a site of another (an alias) to the end of that chain of aliases
/// (the last one before a definition the chain passed already), as a second pass, which sees through chains of
/// references, points it.
fn skip_aliases(root: &mut Value, definitions: Vec<(String, Value)>) -> Vec<(String, Value)> {
    let alias_of = |name: &str| -> Option<&str> {
        definitions
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| site_name(v))
    };
    let mut ends: Vec<(String, String)> = Vec::new();
    for (name, _) in &definitions {
        let mut passed: Vec<&str> = vec![name];
        let mut end: &str = name;
        while let Some(next) = alias_of(end) {
            if passed.contains(&next) {
                break;
            }
            passed.push(next);
            end = next;
        }
        if end != name {
            ends.push((name.clone(), end.to_owned()));
        }
    }
    if ends.is_empty() {
        return definitions;
    }
    let redirect = |node: &mut Value| {
        if let Some(Value::String(reference)) = node.get_mut("$ref") {
            let optional = reference.starts_with(KEPT_OPTIONAL);
            if let Some(name) = marker_name(reference)
                && let Some((_, end)) = ends.iter().find(|(n, _)| n == name)
            {
                let prefix = if optional { KEPT_OPTIONAL } else { KEPT };
                *reference = format!("{prefix}{end}");
            }
        }
    };
    for_each_schema_mut(root, &redirect);
    let mut definitions = definitions;
    for (_, value) in &mut definitions {
        for_each_schema_mut(value, &redirect);
    }
    definitions
}

/// The names of the sites in the schema positions of `value`.
fn sites_in(value: &Value) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for_each_schema(value, &mut |node| {
        if let Some(name) = node
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(marker_name)
            && !names.iter().any(|n| n == name)
        {
            names.push(name.to_owned());
        }
    });
    names
}

/// Replaces the sites of every definition from which no cycle of sites can be reached by copies of it (a site
/// strict closing wrapped as optional keeps its null alternative unless the copy admits null); returns the others,
/// and the names of those copied.
fn inline_finite(
    root: &mut Value,
    definitions: Vec<(String, Value)>,
) -> (Vec<(String, Value)>, Vec<String>) {
    // Peel the definitions whose sites all name definitions peeled already: what is left reaches a cycle.
    let edges: Vec<Vec<String>> = definitions.iter().map(|(_, v)| sites_in(v)).collect();
    let mut peeled: Vec<usize> = Vec::new();
    loop {
        let next = (0..definitions.len()).find(|&i| {
            !peeled.contains(&i)
                && edges[i].iter().all(|target| {
                    target != ROOT
                        && definitions
                            .iter()
                            .position(|(n, _)| n == target)
                            .is_some_and(|j| j != i && peeled.contains(&j))
                })
        });
        match next {
            Some(i) => peeled.push(i),
            None => break,
        }
    }
    if peeled.is_empty() {
        return (definitions, Vec::new());
    }
    let mut copies: Vec<(String, Value)> = Vec::new();
    let mut definitions: Vec<Option<(String, Value)>> = definitions.into_iter().map(Some).collect();
    for &i in &peeled {
        let Some((name, mut value)) = definitions[i].take() else {
            continue;
        };
        for_each_schema_mut(&mut value, &|node: &mut Value| substitute(node, &copies));
        copies.push((name, value));
    }
    for_each_schema_mut(root, &|node: &mut Value| substitute(node, &copies));
    let mut rest: Vec<(String, Value)> = definitions.into_iter().flatten().collect();
    for (_, value) in &mut rest {
        for_each_schema_mut(value, &|node: &mut Value| substitute(node, &copies));
    }
    (rest, copies.into_iter().map(|(name, _)| name).collect())
}

/// Replaces a site of one of `copies`, or a null alternative strict closing put around one, by the copy.
fn substitute(node: &mut Value, copies: &[(String, Value)]) {
    let copy_of = |reference: Option<&Value>| {
        let name = marker_name(reference?.as_str()?)?;
        copies
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    if let Some(map) = node.as_object()
        && optional_wrapper(map).is_some()
    {
        let site = map
            .get("anyOf")
            .and_then(|b| b.get(0))
            .and_then(|s| s.get("$ref"));
        if let Some(copy) = copy_of(site) {
            if crate::null::admits_null(&copy) {
                *node = copy;
            } else if let Some(Value::Array(branches)) = node.get_mut("anyOf")
                && let Some(first) = branches.first_mut()
            {
                *first = copy;
            }
            return;
        }
    }
    if node.as_object().is_some_and(|m| m.len() == 1)
        && let Some(copy) = copy_of(node.get("$ref"))
    {
        *node = copy;
    }
}

/// The definitions in the order a walk over `root` meets their first sites (children in the walk's keyword order,
/// a definition's own sites met right after its first site), those it never meets dropped.
fn in_walk_order(root: &Value, definitions: Vec<(String, Value)>) -> Vec<(String, Value)> {
    let mut order: Vec<usize> = Vec::new();
    let mut stack: Vec<&Value> = vec![root];
    while let Some(node) = stack.pop() {
        let Some(map) = node.as_object() else {
            continue;
        };
        if let Some(name) = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(marker_name)
            && let Some(at) = definitions.iter().position(|(n, _)| n == name)
            && !order.contains(&at)
        {
            order.push(at);
            stack.push(&definitions[at].1);
            continue;
        }
        let mut children: Vec<&Value> = Vec::new();
        for keyword in Keyword::WALK_ORDER {
            match (keyword.class(), map.get(keyword.as_str())) {
                (KeywordClass::MapChildren, Some(Value::Object(members))) => {
                    children.extend(members.values());
                }
                (KeywordClass::ArrayChildren, Some(Value::Array(entries))) => {
                    children.extend(entries.iter());
                }
                (_, Some(child)) => children.push(child),
                _ => {}
            }
        }
        stack.extend(children.into_iter().rev());
    }
    let mut slots: Vec<Option<(String, Value)>> = definitions.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|at| slots.get_mut(at).and_then(Option::take))
        .collect()
}

/// Rewrites every kept reference to the document root (`{"$ref": "#"}`) in the schema positions of `value` into
/// `{"$ref": to}`: the root moved below a wrapper, as an output schema's does under `response`.
///
/// ```
/// use llmshim_core::defs::redirect_root_references;
/// use serde_json::json;
///
/// let mut tree = json!({"type": "array", "items": {"$ref": "#"}, "default": {"$ref": "#"}});
/// redirect_root_references(&mut tree, "#/properties/response");
/// assert_eq!(tree, json!({"type": "array", "items": {"$ref": "#/properties/response"}, "default": {"$ref": "#"}}));
/// ```
pub fn redirect_root_references(value: &mut Value, to: &str) {
    for_each_schema_mut(value, &|node: &mut Value| {
        if let Some(map) = node.as_object_mut()
            && map.len() == 1
            && let Some(Value::String(reference)) = map.get_mut("$ref")
            && reference == ROOT
        {
            to.clone_into(reference);
        }
    });
}

/// Writes every kept site in the schema positions of `value` as what it stands for, for a text that must not name a
/// definition the output may not hold (a walked subschema lifted into a description): the first site of each
/// definition, in document order, becomes a copy of its walked definition (from `definition`), with
/// `"$anchor": "<name>"` in front, and every later site of it (a cycle back, or a second use) becomes
/// `{"$ref": "#<name>"}`, which names that copy in the same text; the copy's own sites are written the same way. A
/// definition that is not an object is copied at every site. A site to the document root, and one whose definition
/// `definition` does not give, stay sites. Each definition is copied once, so the text grows by at most the walked
/// definitions, which the walk's budgets bound.
///
/// ```
/// use llmshim_core::defs::{kept_site, spell_out};
/// use serde_json::json;
///
/// let tree = json!({"type": "array", "items": kept_site("Tree")});
/// let mut branch = json!({"anyOf": [kept_site("Tree"), {"type": "null"}]});
/// spell_out(&mut branch, |name| (name == "Tree").then_some(&tree));
/// assert_eq!(
///     branch,
///     json!({"anyOf": [{"$anchor": "Tree", "type": "array", "items": {"$ref": "#Tree"}}, {"type": "null"}]})
/// );
/// ```
pub fn spell_out<'d>(value: &mut Value, definition: impl Fn(&str) -> Option<&'d Value>) {
    let mut anchored: Vec<String> = Vec::new();
    let mut stack = vec![value];
    while let Some(node) = stack.pop() {
        let wanted = site_name(node)
            .filter(|name| *name != ROOT)
            .and_then(|name| Some((name.to_owned(), definition(name)?)));
        if let Some((name, target)) = wanted {
            if anchored.contains(&name) {
                let mut reference = Map::new();
                reference.insert("$ref".to_owned(), Value::String(format!("#{name}")));
                *node = Value::Object(reference);
            } else if let Value::Object(members) = target {
                let mut copy = Map::with_capacity(members.len() + 1);
                copy.insert("$anchor".to_owned(), Value::String(name.clone()));
                for (key, member) in members {
                    if key != "$anchor" {
                        copy.insert(key.clone(), member.clone());
                    }
                }
                *node = Value::Object(copy);
                anchored.push(name);
            } else {
                *node = target.clone();
            }
        }
        if let Value::Object(map) = node {
            let mut below: Vec<&mut Value> = Vec::new();
            for (key, member) in map.iter_mut() {
                match (class_of(key), member) {
                    (KeywordClass::MapChildren, Value::Object(members)) => {
                        below.extend(members.values_mut());
                    }
                    (KeywordClass::SingleChild, v) => below.push(v),
                    (KeywordClass::ArrayChildren, Value::Array(entries)) => {
                        below.extend(entries.iter_mut());
                    }
                    _ => {}
                }
            }
            // Last pushed, first visited: reversed, the children are visited in document order.
            stack.extend(below.into_iter().rev());
        }
    }
}

/// The name of a null alternative made by strict closing around an optional kept site: `{"anyOf": [site, null]}`.
fn optional_wrapper(map: &Map<String, Value>) -> Option<&str> {
    if map.len() != 1 {
        return None;
    }
    let Some(Value::Array(branches)) = map.get("anyOf") else {
        return None;
    };
    let [site, null] = branches.as_slice() else {
        return None;
    };
    let is_null = null
        .as_object()
        .is_some_and(|m| m.len() == 1 && m.get("type").and_then(Value::as_str) == Some("null"));
    if !is_null {
        return None;
    }
    site.get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix(KEPT_OPTIONAL))
        .filter(|_| site.as_object().is_some_and(|m| m.len() == 1))
}

fn collect_optional(node: &Value, out: &mut Vec<String>) {
    if let Some(map) = node.as_object()
        && let Some(name) = optional_wrapper(map)
    {
        out.push(name.to_owned());
    }
}

/// Writes one node's marker in its final form, or replaces a null alternative by its site.
fn rewrite_site(node: &mut Value, unwrap: &[String]) {
    let Some(map) = node.as_object_mut() else {
        return;
    };
    if let Some(name) = optional_wrapper(map)
        && unwrap.iter().any(|n| n == name)
    {
        let site = kept_site(name);
        *node = site;
        if let Some(Value::String(reference)) = node.get_mut("$ref")
            && let Some(name) = marker_name(reference)
        {
            *reference = final_reference(name);
        }
        return;
    }
    if let Some(Value::String(reference)) = map.get_mut("$ref")
        && let Some(name) = marker_name(reference)
    {
        *reference = final_reference(name);
    }
}

/// The schema positions directly below `map`: map-child members, single children and array-child entries.
fn children(map: &Map<String, Value>) -> impl Iterator<Item = &Value> {
    map.iter().flat_map(|(key, value)| {
        let found: Vec<&Value> = match (class_of(key), value) {
            (KeywordClass::MapChildren, Value::Object(members)) => members.values().collect(),
            (KeywordClass::SingleChild, v) => vec![v],
            (KeywordClass::ArrayChildren, Value::Array(entries)) => entries.iter().collect(),
            _ => Vec::new(),
        };
        found
    })
}

fn for_each_schema(root: &Value, visit: &mut impl FnMut(&Value)) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        visit(node);
        if let Some(map) = node.as_object() {
            stack.extend(children(map));
        }
    }
}

/// Visits every schema position of `root` mutably, parents before children; `visit` may replace a node, whose
/// new children are then visited.
fn for_each_schema_mut(root: &mut Value, visit: &impl Fn(&mut Value)) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        visit(node);
        if let Value::Object(map) = node {
            for (key, value) in map.iter_mut() {
                match (class_of(key), value) {
                    (KeywordClass::MapChildren, Value::Object(members)) => {
                        stack.extend(members.values_mut());
                    }
                    (KeywordClass::SingleChild, v) => stack.push(v),
                    (KeywordClass::ArrayChildren, Value::Array(entries)) => {
                        stack.extend(entries.iter_mut());
                    }
                    _ => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn rendered_markers_become_final_references_and_nothing_else_changes() {
        let lifted = crate::json::compact(&json!({
            "allOf": [kept_site("Node"), kept_site(ROOT), {"const": "llmshim-kept:x"}],
            "description": "a \\u0000llmshim-kept text"
        }));
        let mut optional = kept_site("Tree");
        mark_optional(&mut optional);
        assert_eq!(
            unmark_rendered(lifted),
            r##"{"allOf":[{"$ref":"#/$defs/Node"},{"$ref":"#"},{"const":"llmshim-kept:x"}],"description":"a \\u0000llmshim-kept text"}"##
        );
        assert_eq!(
            unmark_rendered(crate::json::compact(&optional)),
            r##"{"$ref":"#/$defs/Tree"}"##
        );
        assert_eq!(unmark_rendered("plain".to_owned()), "plain");
    }
    use super::*;
    use serde_json::json;

    #[test]
    fn finishes_sites_wrappers_and_definitions() {
        let mut node_def = json!({"type": "object", "properties": {"next": {"anyOf": [kept_site("Node"), {"type": "null"}]}}});
        mark_optional(&mut node_def["properties"]["next"]["anyOf"][0]);
        let mut maybe = json!({"anyOf": [{"type": "string"}, {"type": "null"}]});
        let mut root = json!({"type": "object", "properties": {
            "a": kept_site("Node"),
            "m": {"anyOf": [kept_site("Maybe"), {"type": "null"}]},
            "self": kept_site(ROOT)
        }, "$defs": {"old": {}}});
        mark_optional(&mut root["properties"]["m"]["anyOf"][0]);
        maybe["description"] = json!("x");
        let copied = finish(
            &mut root,
            vec![("Node".to_owned(), node_def), ("Maybe".to_owned(), maybe)],
        );
        assert_eq!(copied, ["Maybe"]);
        assert_eq!(
            root,
            json!({"type": "object", "properties": {
                "a": {"$ref": "#/$defs/Node"},
                // `Maybe` is on no cycle of sites: it is copied into its site, and its null wrapper goes since it
                // admits null by itself.
                "m": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "x"},
                "self": {"$ref": "#"}
            }, "$defs": {
                "Node": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}}}
            }})
        );
    }

    #[test]
    fn markers_in_literals_are_data() {
        let mut root = json!({"type": "object", "default": {"$ref": format!("{KEPT}x")}});
        let before = root.clone();
        finish(&mut root, Vec::new());
        assert_eq!(root, before);
    }
}
