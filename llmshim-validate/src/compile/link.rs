//! The pass after every node is compiled: shortcuts for the boolean walk that need the whole arena.
//!
//! - A node that is only a static `$ref` forwards to the node its chain of such nodes ends on, with the chain's
//!   length, so the walk skips the hops while still counting each one against the nesting limit (a cyclic chain
//!   is followed hop by hop). Only in a validator without dynamic scoping, where entering a node has no other
//!   effect.
//! - Each `properties` entry learns whether its subschema is only a `type` ([`Node::types`]), so the walk checks it
//!   in place.
//! - An `allOf` with discriminator branches gets a [`Dispatch`] index.
//!
//! Neither changes the keywords themselves, so the full walk (locations, messages, annotations) is untouched.

use hashbrown::HashMap;
use serde_json::Value;

use crate::node::{Dispatch, Keyword, Node, NodeId, Tables};

/// An `allOf` needs at least this many discriminator branches on one property to get a [`Dispatch`].
const MIN_DISPATCH: usize = 3;

/// Sets the forwards of `nodes` and returns the dispatch indexes the `allOf` keywords of `keywords` now refer to.
pub(crate) fn link(
    nodes: &mut [Node],
    keywords: &mut [Keyword],
    tables: &mut Tables,
    dynamic_scoping: bool,
) -> Vec<Dispatch> {
    if !dynamic_scoping {
        forward_references(nodes, keywords);
    }
    for entry in tables.all_entries_mut() {
        entry.types = nodes.get(entry.node as usize).map_or(0, |n| n.types);
    }
    let mut dispatches = Vec::new();
    for at in 0..keywords.len() {
        let Some(Keyword::AllOf {
            nodes: branches, ..
        }) = keywords.get(at)
        else {
            continue;
        };
        let Some(dispatch) = dispatch_of(nodes, keywords, tables, branches) else {
            continue;
        };
        if let Some(Keyword::AllOf { dispatch: slot, .. }) = keywords.get_mut(at) {
            *slot = dispatches.len() as u32;
            dispatches.push(dispatch);
        }
    }
    dispatches
}

/// The target of a node that is only a static `$ref`.
fn static_ref(node: &Node, keywords: &[Keyword]) -> Option<NodeId> {
    match node.keywords(keywords) {
        [
            Keyword::Ref {
                target,
                dynamic: crate::node::Dynamic::Static,
                ..
            },
        ] if !node.unevaluated => Some(*target),
        _ => None,
    }
}

fn forward_references(nodes: &mut [Node], keywords: &[Keyword]) {
    let node_count = nodes.len();
    for id in 0..node_count {
        let Some(mut target) = nodes.get(id).and_then(|n| static_ref(n, keywords)) else {
            continue;
        };
        let mut hops = 1u32;
        // A chain longer than the node count is a cycle; such a node keeps its plain evaluation, which ends at the
        // nesting limit.
        let mut cyclic = false;
        while let Some(next) = nodes
            .get(target as usize)
            .and_then(|n| static_ref(n, keywords))
        {
            target = next;
            hops += 1;
            if hops as usize > nodes.len() {
                cyclic = true;
                break;
            }
        }
        if let Some(node) = nodes.get_mut(id) {
            if cyclic {
                // A cycle is followed one hop at a time: `hops` 0 marks a single hop, with its own entry check.
                if let Some(first) = static_ref(node, keywords) {
                    node.forward = first;
                    node.hops = 0;
                }
            } else if (target as usize) < node_count {
                node.forward = target;
                node.hops = hops;
            }
        }
    }
}

/// One discriminator branch of an `allOf`: the property, the constant, the `then` subschema (if any), and whether
/// the test requires the property.
struct Branch<'k> {
    property: &'k str,
    constant: &'k str,
    then: Option<NodeId>,
    required: bool,
}

/// The branch `id` when it is `{"if": {"properties": {P: {"const": "C"}}, ["required": [P]]}, ["then": S]}` and
/// nothing else that evaluates.
fn branch<'k>(
    nodes: &[Node],
    keywords: &'k [Keyword],
    tables: &'k Tables,
    id: NodeId,
) -> Option<Branch<'k>> {
    let node = nodes.get(id as usize)?;
    let [
        Keyword::If {
            condition,
            then,
            otherwise: None,
        },
    ] = node.keywords(keywords)
    else {
        return None;
    };
    if node.unevaluated {
        return None;
    }
    let test = nodes.get(*condition as usize)?;
    if test.unevaluated {
        return None;
    }
    let (table, required) = match test.keywords(keywords) {
        [
            Keyword::Properties {
                table,
                covered: false,
                required,
            },
        ]
        | [
            Keyword::Properties {
                table,
                covered: false,
                required,
            },
            Keyword::Required { fused: true, .. },
        ]
        | [
            Keyword::Required { fused: true, .. },
            Keyword::Properties {
                table,
                covered: false,
                required,
            },
        ] => (table, *required),
        _ => return None,
    };
    let [entry] = tables.entries(*table) else {
        return None;
    };
    if required > 1 {
        return None;
    }
    let value = nodes.get(entry.node as usize)?;
    let [Keyword::Const(constant)] = value.keywords(keywords) else {
        return None;
    };
    let Value::String(constant) = &**constant else {
        return None;
    };
    Some(Branch {
        property: tables.name(entry),
        constant,
        then: *then,
        required: required == 1,
    })
}

fn dispatch_of(
    nodes: &[Node],
    keywords: &[Keyword],
    tables: &Tables,
    branches: &[NodeId],
) -> Option<Dispatch> {
    let tests: Vec<Option<Branch<'_>>> = branches
        .iter()
        .map(|id| branch(nodes, keywords, tables, *id))
        .collect();
    // The property most branches test.
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for test in tests.iter().flatten() {
        *counts.entry(test.property).or_default() += 1;
    }
    let (property, count) = counts
        .into_iter()
        .max_by_key(|(p, n)| (*n, std::cmp::Reverse(*p)))?;
    if count < MIN_DISPATCH {
        return None;
    }
    let mut others = Vec::new();
    let mut by_value: HashMap<Box<str>, Vec<NodeId>> = HashMap::new();
    let mut all = Vec::new();
    for (id, test) in branches.iter().zip(&tests) {
        match test {
            Some(test) if test.property == property => {
                // A branch without `then` holds whatever its test gives.
                if let Some(then) = test.then {
                    by_value.entry(test.constant.into()).or_default().push(then);
                    all.push((then, test.required));
                }
            }
            _ => others.push(*id),
        }
    }
    Some(Dispatch {
        property: property.into(),
        others: others.into_boxed_slice(),
        by_value,
        all: all.into_boxed_slice(),
    })
}
