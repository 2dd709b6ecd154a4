//! Which reference targets lie on a cycle of references, read from the document before the walk.
//!
//! The walk meets a recursive target for the first time before it meets the reference back to it, so deciding to
//! keep references needs the cycles up front. Every target reachable from the root is read once: its walkable
//! positions (the children the walk would visit, after the snake-case and draft upgrades) are searched for `$ref`s,
//! each resolved against the base its `$id`s give, and each becomes an edge to its target. A target is recursive
//! when it lies on a cycle of edges (a strongly connected component of more than one target, or a target with an
//! edge to itself).

use std::sync::Arc;

use hashbrown::{HashMap, HashSet};
use llmshim_core::keyword::SNAKE_CASE;
use llmshim_core::{Budget, FallbackReason, Meter};
use serde_json::{Map, Value};

use crate::registry::{Registry, Target};
use crate::uri;

/// One reference found below a target.
#[derive(Clone, Debug)]
struct Edge {
    to: Target,
    /// The path from the target down to the reference crosses a property its object does not require (or that
    /// admits null).
    optional: bool,
    /// The key of the target's root under which the reference sits (camel-case spelling), `None` for a `$ref` at
    /// the target's root itself.
    top: Option<String>,
}

/// The cycles of a document's references.
#[derive(Debug, Default)]
pub(crate) struct Cycles {
    /// Recursive targets whose cycles are kept as references.
    kept: HashSet<Target>,
    /// Recursive targets whose cycles are unrolled (with `optional_only`: cycles through required properties only).
    unrolled: HashSet<Target>,
    /// Every target from which a kept target can be reached, with the keys of its root that lead there.
    reach: HashMap<Target, Vec<Option<String>>>,
    /// Recursive targets unrolled because the caller said so, whatever their cycle crosses.
    forced: HashSet<Target>,
}

impl Cycles {
    /// Reads every target reachable from the root of `registry`'s document. With `optional_only`, only a cycle
    /// that crosses a property its object does not require is kept; the others are unrolled. The targets in
    /// `unrolled` are unrolled whatever their cycle crosses (a first pass found that its output would not keep them).
    ///
    /// # Errors
    ///
    /// `budget_nodes` when the reading visits more values than `budget` allows.
    pub(crate) fn analyze(
        registry: &Registry<'_>,
        optional_only: bool,
        unrolled: &[Target],
        budget: &Budget,
    ) -> Result<Cycles, FallbackReason> {
        let root: Target = (0, String::new());
        let mut meter = Meter::new(*budget);
        let mut edges: HashMap<Target, Vec<Edge>> = HashMap::new();
        let mut order: Vec<Target> = Vec::new();
        let mut pending = vec![root];
        while let Some(target) = pending.pop() {
            if edges.contains_key(&target) {
                continue;
            }
            let found = match registry.at(&target) {
                Some(resource) => references_below(
                    registry,
                    resource.value,
                    resource.base.clone(),
                    target.0,
                    &mut meter,
                )?,
                None => Vec::new(),
            };
            for edge in &found {
                if !edges.contains_key(&edge.to) {
                    pending.push(edge.to.clone());
                }
            }
            order.push(target.clone());
            edges.insert(target, found);
        }
        Ok(Cycles::from_edges(&order, &edges, optional_only, unrolled))
    }

    fn from_edges(
        order: &[Target],
        edges: &HashMap<Target, Vec<Edge>>,
        optional_only: bool,
        forced: &[Target],
    ) -> Cycles {
        let components = components(order, edges);
        let mut component_of: HashMap<&Target, usize> = HashMap::new();
        for (c, members) in components.iter().enumerate() {
            for m in members {
                component_of.insert(m, c);
            }
        }
        let mut cycles = Cycles::default();
        // Components come out after every component they reach, so `reaches` is known for the edges' ends.
        let mut reaches_component = vec![false; components.len()];
        for (c, members) in components.iter().enumerate() {
            let inner = |e: &&Edge| component_of.get(&e.to) == Some(&c);
            let recursive = members.len() > 1
                || members
                    .iter()
                    .any(|m| edges.get(m).into_iter().flatten().any(|e| e.to == *m));
            if recursive {
                let optional = members.iter().any(|m| {
                    edges
                        .get(m)
                        .into_iter()
                        .flatten()
                        .filter(inner)
                        .any(|e| e.optional)
                });
                for m in members {
                    if forced.contains(m) {
                        cycles.unrolled.insert(m.clone());
                        cycles.forced.insert(m.clone());
                    } else if optional || !optional_only {
                        cycles.kept.insert(m.clone());
                    } else {
                        cycles.unrolled.insert(m.clone());
                    }
                }
            }
            let kept = recursive && members.iter().any(|m| cycles.kept.contains(m));
            let mut reaches = kept;
            for m in members {
                let mut tops: Vec<Option<String>> = Vec::new();
                for e in edges.get(m).into_iter().flatten() {
                    let to_reaches = component_of
                        .get(&e.to)
                        .is_some_and(|&t| if t == c { kept } else { reaches_component[t] });
                    if to_reaches && !tops.contains(&e.top) {
                        tops.push(e.top.clone());
                    }
                }
                if !tops.is_empty() {
                    reaches = true;
                    cycles.reach.insert(m.clone(), tops);
                }
            }
            reaches_component[c] = reaches;
        }
        cycles
    }

    /// Whether references to `target` are kept: it lies on a cycle that is kept.
    pub(crate) fn kept(&self, target: &Target) -> bool {
        self.kept.contains(target)
    }

    /// Whether references to `target` are unrolled: it lies on a cycle that is not kept.
    pub(crate) fn unrolled(&self, target: &Target) -> bool {
        self.unrolled.contains(target)
    }

    /// Whether `target` is unrolled because the caller said so: no site of it is kept, not even a bare one.
    pub(crate) fn forced(&self, target: &Target) -> bool {
        self.forced.contains(target)
    }

    /// Whether expanding `target`, with the keys `replaced` of its root replaced by siblings, reaches a kept target.
    pub(crate) fn reaches(&self, target: &Target, replaced: &[&str]) -> bool {
        self.reach.get(target).is_some_and(|tops| {
            tops.iter().any(|top| match top {
                None => true,
                Some(key) => !replaced.contains(&key.as_str()),
            })
        })
    }
}

/// The strongly connected components of the targets (Tarjan's algorithm, iterative), each emitted after every
/// component it reaches.
fn components(order: &[Target], edges: &HashMap<Target, Vec<Edge>>) -> Vec<Vec<Target>> {
    let mut index: HashMap<&Target, usize> = HashMap::new();
    let mut low: HashMap<&Target, usize> = HashMap::new();
    let mut on_stack: HashSet<&Target> = HashSet::new();
    let mut stack: Vec<&Target> = Vec::new();
    let mut out: Vec<Vec<Target>> = Vec::new();
    let mut next = 0usize;
    for start in order {
        if index.contains_key(start) {
            continue;
        }
        // Each frame: the node and the position of the next edge to follow.
        let mut frames: Vec<(&Target, usize)> = vec![(start, 0)];
        index.insert(start, next);
        low.insert(start, next);
        next += 1;
        stack.push(start);
        on_stack.insert(start);
        while let Some(&mut (node, ref mut at)) = frames.last_mut() {
            let out_edges = edges.get(node).map_or(&[][..], Vec::as_slice);
            if let Some(edge) = out_edges.get(*at) {
                *at += 1;
                let Some((to, _)) = edges.get_key_value(&edge.to) else {
                    continue;
                };
                if !index.contains_key(to) {
                    index.insert(to, next);
                    low.insert(to, next);
                    next += 1;
                    stack.push(to);
                    on_stack.insert(to);
                    frames.push((to, 0));
                } else if on_stack.contains(to) {
                    let l = low[node].min(index[to]);
                    low.insert(node, l);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                let l = low[parent].min(low[node]);
                low.insert(parent, l);
            }
            if low[node] == index[node] {
                let mut component = Vec::new();
                while let Some(m) = stack.pop() {
                    on_stack.remove(m);
                    component.push(m.clone());
                    if m == node {
                        break;
                    }
                }
                out.push(component);
            }
        }
    }
    out
}

/// The camel-case spelling the walk gives a key (snake case renamed).
fn camel(key: &str) -> &str {
    SNAKE_CASE
        .iter()
        .find(|(snake, _)| *snake == key)
        .map_or(key, |(_, camel)| camel)
}

/// Every `$ref` below `value` (its own included) in the positions the walk visits, with its target.
fn references_below(
    registry: &Registry<'_>,
    value: &Value,
    base: Arc<str>,
    doc: usize,
    meter: &mut Meter,
) -> Result<Vec<Edge>, FallbackReason> {
    let draft = registry.draft_of(doc);
    let mut found = Vec::new();
    // Each entry: the node, its base, whether the path crossed an optional property, and the root key above it.
    let mut stack: Vec<(&Value, Arc<str>, bool, Option<&str>)> = vec![(value, base, false, None)];
    while let Some((node, base, optional, top)) = stack.pop() {
        meter.visit(0, "")?;
        let Value::Object(map) = node else {
            continue;
        };
        let id = match map.get("$id") {
            Some(Value::String(id)) => Some(id.as_str()),
            None if draft.uses_plain_id() => map.get("id").and_then(Value::as_str),
            _ => None,
        };
        let base = match id.map(|id| uri::join(&base, id)) {
            Some(Ok(joined)) => Arc::from(uri::strip_fragment(&joined)),
            _ => base,
        };
        if let Some(Value::String(reference)) = map.get("$ref")
            && let Ok(absolute) = uri::join(&base, reference)
            && let Ok(target) = registry.resolve(&absolute, "")
        {
            found.push(Edge {
                to: target.key(),
                optional,
                top: top.map(str::to_owned),
            });
        }
        push_children(map, &base, optional, top, &mut stack);
    }
    Ok(found)
}

/// Pushes the schema positions below `map` that the walk visits (after renames and upgrades).
fn push_children<'v>(
    map: &'v Map<String, Value>,
    base: &Arc<str>,
    optional: bool,
    top: Option<&'v str>,
    stack: &mut Vec<(&'v Value, Arc<str>, bool, Option<&'v str>)>,
) {
    let required: Vec<&str> = match map.get("required") {
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let snake_spelt = |camel_key: &str| {
        SNAKE_CASE
            .iter()
            .any(|(snake, c)| *c == camel_key && map.contains_key(*snake))
    };
    for (key, child) in map {
        let spelling = camel(key);
        // Snake case wins: a camel-case key beside its snake-case spelling is removed by the walk.
        if spelling == key.as_str() && snake_spelt(key) {
            continue;
        }
        let top = top.or(Some(spelling));
        let mut push = |v: &'v Value, opt: bool| stack.push((v, base.clone(), opt, top));
        match spelling {
            "properties" => {
                if let Value::Object(members) = child {
                    for (name, member) in members {
                        // A required property that admits null ends a cycle too: strict writes every optional
                        // property that way, and a second pass over its output must read the cycle alike.
                        let can_end = !required.contains(&name.as_str())
                            || llmshim_core::null::admits_null(member);
                        push(member, optional || can_end);
                    }
                }
            }
            "patternProperties" | "dependentSchemas" | "dependencies" => {
                if let Value::Object(members) = child {
                    for member in members.values().filter(|m| m.is_object()) {
                        push(member, true);
                    }
                }
            }
            "additionalProperties" | "unevaluatedProperties" => push(child, true),
            "items" | "prefixItems" | "anyOf" | "oneOf" | "allOf" => match child {
                Value::Array(entries) => entries.iter().for_each(|e| push(e, optional)),
                other => push(other, optional),
            },
            "contains" | "unevaluatedItems" | "propertyNames" | "not" | "if" | "then" | "else"
            | "additionalItems" => push(child, optional),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Resources;
    use serde_json::json;

    fn analyze(doc: &Value, optional_only: bool) -> Cycles {
        let resources = Resources::new();
        let registry = Registry::new(doc, &resources).expect("a registry");
        Cycles::analyze(&registry, optional_only, &[], &Budget::default()).expect("analysed")
    }

    fn t(pointer: &str) -> Target {
        (0, pointer.to_owned())
    }

    #[test]
    fn finds_direct_and_mutual_recursion() {
        let doc = json!({"type": "object", "properties": {
            "tree": {"$ref": "#/$defs/Tree"}, "a": {"$ref": "#/$defs/A"}, "w": {"$ref": "#/$defs/Wrap"}
        }, "$defs": {
            "Tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}},
            "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}, "required": ["b"]},
            "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"]},
            "Wrap": {"type": "object", "properties": {"t": {"$ref": "#/$defs/Tree"}}},
            "Unused": {"$ref": "#/$defs/Unused"}
        }});
        let cycles = analyze(&doc, false);
        assert!(cycles.kept(&t("/$defs/Tree")));
        assert!(cycles.kept(&t("/$defs/A")) && cycles.kept(&t("/$defs/B")));
        assert!(!cycles.kept(&t("/$defs/Wrap")) && !cycles.kept(&t("/$defs/Unused")));
        assert!(cycles.reaches(&t("/$defs/Wrap"), &[]));
        assert!(!cycles.reaches(&t("/$defs/Wrap"), &["properties"]));
        assert!(cycles.reaches(&t(""), &[]));

        // Only the tree's cycle crosses an optional property.
        let cycles = analyze(&doc, true);
        assert!(cycles.kept(&t("/$defs/Tree")));
        assert!(cycles.unrolled(&t("/$defs/A")) && cycles.unrolled(&t("/$defs/B")));
    }

    #[test]
    fn targets_the_caller_names_are_unrolled_and_lead_nowhere_kept() {
        // A and B share a cycle through the optional `b`; C refers to A from outside the cycle.
        let doc = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}, "c": {"$ref": "#/$defs/C"}},
        "$defs": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
            "B": {"type": "array", "items": {"$ref": "#/$defs/A"}},
            "C": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}
        }});
        let resources = Resources::new();
        let registry = Registry::new(&doc, &resources).expect("a registry");
        let unrolled = [t("/$defs/A"), t("/$defs/B")];
        for optional_only in [false, true] {
            let cycles = analyze(&doc, optional_only);
            assert!(cycles.kept(&t("/$defs/A")) && cycles.reaches(&t("/$defs/C"), &[]));
            let cycles = Cycles::analyze(&registry, optional_only, &unrolled, &Budget::default())
                .expect("analysed");
            for target in &unrolled {
                assert!(cycles.forced(target) && cycles.unrolled(target));
                assert!(!cycles.kept(target));
            }
            assert!(!cycles.reaches(&t("/$defs/C"), &[]) && !cycles.forced(&t("/$defs/C")));
        }
    }

    #[test]
    fn the_root_is_a_target_too() {
        let doc = json!({"type": "object", "properties": {"next": {"$ref": "#"}}});
        assert!(analyze(&doc, false).kept(&t("")));
    }
}
