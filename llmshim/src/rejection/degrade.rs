//! `degrade`: one step on the rejected tool only, from the lightest change to the fallback.

use llmshim_core::keyword::{SNAKE_CASE, class_of};
use llmshim_core::pointer::push_token;
use llmshim_core::{
    Change, ChangeKind, FallbackKind, FallbackReason, KeywordClass, Normalization, json, lift,
};
use serde_json::{Map, Value};

use super::wire::{Wire, put};
use super::{Rejection, Site};
use crate::schema::Options;

/// At most this many keyword steps are taken on one schema before the next rejection moves on to the other steps.
pub const MAX_KEYWORD_STEPS: usize = 3;

/// The note a keyword step appends to the schema root's description: it tells the model which constraints the
/// provider refused, and it is how a later call counts the keyword steps already taken (the request is the only
/// state a stateless gateway keeps).
const REJECTED: &str = "(rejected: ";

/// The step [`degrade`] took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Step {
    /// Every occurrence of the named keyword was removed and lifted into its node's description.
    Keyword,
    /// A tool sent with `strict: true` is sent with `strict: false`, its schema unchanged.
    Strict,
    /// Every key of the named node but `type` and `description` was removed and lifted.
    Node,
    /// The schema became the fallback (omitted for Gemini declarations, `{"type":"object"}` for Code Assist).
    Fallback,
}

impl Step {
    /// The command line's name: `keyword`, `strict`, `node` or `fallback`.
    pub const fn name(self) -> &'static str {
        match self {
            Step::Keyword => "keyword",
            Step::Strict => "strict",
            Step::Node => "node",
            Step::Fallback => "fallback",
        }
    }
}

/// What [`degrade`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DegradeReport {
    /// The site the rejection names.
    pub site: Site,
    /// The step taken; `None` when nothing changed.
    pub step: Option<Step>,
    /// The degraded schema's report: `changed`, `used_fallback` (step 4), `strict` (the tool is still sent with
    /// `strict: true`), `fallback_reason` at the fallback, and with diagnostics every change (`rejection.keyword`,
    /// `rejection.strict`, `rejection.node`, `rejection.fallback`), pointers inside the schema.
    pub report: Normalization,
    /// Why nothing changed, when `step` is `None`.
    pub reason: Option<String>,
}

impl DegradeReport {
    fn nothing(site: Site, reason: impl Into<String>) -> DegradeReport {
        DegradeReport {
            site,
            step: None,
            report: Normalization::default(),
            reason: Some(reason.into()),
        }
    }
}

/// Degrades the one tool (or declaration, or output schema) `rejection` names in the wire `request` that
/// `options.target`'s tool translation produced, by one step, leaving every other tool byte-identical:
///
/// 1. when the rejection names a keyword present at its pointer (or, without a pointer, anywhere in the schema),
///    every occurrence of it is removed and lifted into its node's description, and `strict` stays as it was; at
///    most [`MAX_KEYWORD_STEPS`] keyword steps are taken on one schema;
/// 2. otherwise a tool sent with `strict: true` is sent with `strict: false`;
/// 3. otherwise, when the pointer exists in the schema, every key of that node but `type` and `description` is
///    removed and lifted;
/// 4. otherwise the schema becomes the fallback.
///
/// A `description` or `title` is removed only where its value is not a string: a provider that names one rejects
/// its shape, and the tool's other descriptions are what the model reads. Nothing changes when the site is not
/// in the request, the schema is already at the fallback, or `options.bypass` is set; the report says why.
pub fn degrade(options: &Options, request: &mut Value, rejection: &Rejection) -> DegradeReport {
    let site = rejection.site;
    let wire = Wire::new(options.target.rules().rules().envelope);
    if !wire.answered() {
        return DegradeReport::nothing(site, "no provider answers this target's tools");
    }
    if options.bypass {
        return DegradeReport::nothing(site, "bypassed");
    }
    if !wire.has(request, site) {
        return DegradeReport::nothing(site, "the request has no such tool");
    }
    let mut changes = Vec::new();
    let diagnostics = options.diagnostics;
    let limits = Limits {
        depth: options.budget.max_depth,
        nodes: options.budget.max_nodes,
    };
    let pointer = rejection.pointer.as_deref();

    let done = wire.at_fallback(wire.schema(request, site), site);
    let step = 'step: {
        if !done
            && let Some(keyword) = rejection.keyword.as_deref()
            && let Some((slot, key)) = wire.slot_mut(request, site)
            && let Some(schema) = slot.get_mut(key)
            && keyword_steps(schema) < MAX_KEYWORD_STEPS
            && keyword_present(schema, pointer, keyword, limits)
        {
            remove_everywhere(schema, keyword, limits, diagnostics.then_some(&mut changes));
            note_rejected(schema, keyword);
            break 'step Ok(Step::Keyword);
        }
        if wire.clear_strict(request, site) {
            if diagnostics {
                changes.push(Change::new("", "rejection.strict", ChangeKind::Relaxed));
            }
            break 'step Ok(Step::Strict);
        }
        if done {
            break 'step Err("the schema is already at the fallback");
        }
        if let Some(p) = pointer
            && let Some((slot, key)) = wire.slot_mut(request, site)
            && let Some(node) = slot.get_mut(key).and_then(|s| s.pointer_mut(p))
            && let Some(map) = node.as_object_mut()
            && map.keys().any(|k| k != "type" && k != "description")
        {
            strip_node(map, p, diagnostics.then_some(&mut changes));
            break 'step Ok(Step::Node);
        }
        let Some((slot, key)) = wire.slot_mut(request, site) else {
            break 'step Err("the tool has no schema");
        };
        if !slot.contains_key(key) {
            break 'step Err("the tool has no schema");
        }
        put(slot, key, wire.fallback(site));
        if diagnostics {
            changes.push(Change::new("", "rejection.fallback", ChangeKind::Relaxed));
        }
        Ok(Step::Fallback)
    };

    let step = match step {
        Ok(step) => step,
        Err(reason) => return DegradeReport::nothing(site, reason),
    };
    let report = if step == Step::Fallback {
        Normalization::fell_back(
            FallbackReason::new(
                FallbackKind::ProviderLimit,
                pointer.unwrap_or_default(),
                format!("the provider rejected the schema: {}", rejection.message),
            ),
            true,
        )
    } else {
        Normalization::produced(true)
    }
    .with_strict(wire.strict(request, site))
    .with_changes(changes);
    DegradeReport {
        site,
        step: Some(step),
        report,
        reason: None,
    }
}

/// How many keyword steps the schema's root description records.
fn keyword_steps(schema: &Value) -> usize {
    schema
        .get("description")
        .and_then(Value::as_str)
        .map_or(0, |d| d.matches(REJECTED).count())
}

/// Appends `(rejected: <keyword>)` to the schema root's description.
fn note_rejected(schema: &mut Value, keyword: &str) {
    let Some(map) = schema.as_object_mut() else {
        return;
    };
    let current = map
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let text = format!("{current} {REJECTED}{keyword})");
    json::set(
        map,
        "description",
        Value::String(text.trim_start().to_owned()),
    );
}

/// Whether a removal of `key` from a node would take it away: a string `description` or `title` stays.
fn removable(key: &str, value: &Value) -> bool {
    !(matches!(key, "description" | "title") && value.is_string())
}

/// Whether `keyword` stands at `pointer` in `schema` (anywhere in it, without a pointer).
fn keyword_present(schema: &Value, pointer: Option<&str>, keyword: &str, limits: Limits) -> bool {
    if let Some(p) = pointer {
        return schema
            .pointer(p)
            .and_then(|n| n.get(keyword))
            .is_some_and(|v| removable(keyword, v));
    }
    let mut stack: Vec<(&Value, usize)> = vec![(schema, 0)];
    let mut seen = 0;
    while let Some((node, depth)) = stack.pop() {
        let Some(map) = node.as_object() else {
            continue;
        };
        seen += 1;
        if seen > limits.nodes {
            return false;
        }
        if map.get(keyword).is_some_and(|v| removable(keyword, v)) {
            return true;
        }
        if depth < limits.depth {
            for (key, value) in map {
                for_each_subschema(key, value, |child| stack.push((child, depth + 1)));
            }
        }
    }
    false
}

/// How far the walks of `degrade` go: the options' depth and node budgets.
#[derive(Clone, Copy, Debug)]
struct Limits {
    depth: usize,
    nodes: usize,
}

/// Calls `f` with each subschema that `key: value` holds (members of a map keyword, a single child, the entries of
/// a list keyword or of a tuple `items`), snake-case spellings included.
fn for_each_subschema<'v>(key: &str, value: &'v Value, mut f: impl FnMut(&'v Value)) {
    match (holds(key), value) {
        (Holds::Map, Value::Object(members)) => members.values().for_each(f),
        (Holds::One, Value::Object(_)) => f(value),
        (Holds::List | Holds::One, Value::Array(items)) => items.iter().for_each(f),
        _ => {}
    }
}

/// What a keyword's value holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holds {
    Map,
    One,
    List,
    Nothing,
}

fn holds(key: &str) -> Holds {
    let json_name = SNAKE_CASE
        .iter()
        .find(|(snake, _)| *snake == key)
        .map_or(key, |(_, camel)| *camel);
    match class_of(json_name) {
        KeywordClass::MapChildren | KeywordClass::Definitions => Holds::Map,
        KeywordClass::SingleChild => Holds::One,
        KeywordClass::ArrayChildren => Holds::List,
        _ => Holds::Nothing,
    }
}

/// Removes every occurrence of `keyword` from the schema nodes of `schema`, in document order, lifting each into
/// its node's description; a removed value is not searched further (its text shows it as it was).
///
/// The walk keeps each node's own token and its parent's place instead of a pointer, so that its memory stays
/// linear in the nodes visited; pointers are spelled out only for the changes diagnostics record.
fn remove_everywhere(
    schema: &mut Value,
    keyword: &str,
    limits: Limits,
    mut changes: Option<&mut Vec<Change>>,
) {
    // (parent place, token) per visited node; the root has no parent.
    let mut places: Vec<(Option<usize>, String)> = Vec::new();
    let mut stack: Vec<(&mut Value, Option<usize>, String, usize)> =
        vec![(schema, None, String::new(), 0)];
    while let Some((node, parent, token, depth)) = stack.pop() {
        let Value::Object(map) = node else {
            continue;
        };
        if places.len() >= limits.nodes {
            return;
        }
        let place = places.len();
        let record = changes.is_some();
        places.push((parent, if record { token } else { String::new() }));
        if map.get(keyword).is_some_and(|v| removable(keyword, v))
            && let Some(value) = json::remove(map, keyword)
        {
            lift::append(map, keyword, &value);
            json::dismantle(value);
            if let Some(c) = changes.as_deref_mut() {
                c.push(Change::new(
                    pointer_of(&places, place),
                    "rejection.keyword",
                    ChangeKind::Lifted,
                ));
            }
        }
        if depth >= limits.depth {
            continue;
        }
        let mut children = Vec::new();
        for (key, value) in map.iter_mut() {
            match (holds(key), value) {
                (Holds::Map, Value::Object(members)) => {
                    for (name, child) in members.iter_mut() {
                        let t = if record {
                            format!("{}/{}", escape(key), escape(name))
                        } else {
                            String::new()
                        };
                        children.push((child, Some(place), t, depth + 1));
                    }
                }
                (Holds::One, child @ Value::Object(_)) => {
                    let t = if record { escape(key) } else { String::new() };
                    children.push((child, Some(place), t, depth + 1));
                }
                (Holds::List | Holds::One, Value::Array(items)) => {
                    for (i, child) in items.iter_mut().enumerate() {
                        let t = if record {
                            format!("{}/{i}", escape(key))
                        } else {
                            String::new()
                        };
                        children.push((child, Some(place), t, depth + 1));
                    }
                }
                _ => {}
            }
        }
        stack.extend(children.into_iter().rev());
    }
}

/// One reference token, escaped.
fn escape(token: &str) -> String {
    let mut p = String::new();
    push_token(&mut p, token);
    p.split_off(1)
}

/// The pointer of the node at `place`, from its chain of parents.
fn pointer_of(places: &[(Option<usize>, String)], place: usize) -> String {
    let mut tokens = Vec::new();
    let mut at = Some(place);
    while let Some(i) = at {
        let Some((parent, token)) = places.get(i) else {
            break;
        };
        if parent.is_some() {
            tokens.push(token.as_str());
        }
        at = *parent;
    }
    let mut pointer = String::new();
    for t in tokens.iter().rev() {
        pointer.push('/');
        pointer.push_str(t);
    }
    pointer
}

/// Removes every key of a node but `type` and `description`, lifting each in byte-wise key order.
fn strip_node(map: &mut Map<String, Value>, pointer: &str, changes: Option<&mut Vec<Change>>) {
    let mut keys: Vec<String> = map
        .keys()
        .filter(|k| *k != "type" && *k != "description")
        .cloned()
        .collect();
    keys.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    for key in &keys {
        if let Some(value) = json::remove(map, key) {
            lift::append(map, key, &value);
            json::dismantle(value);
        }
    }
    if let Some(c) = changes {
        c.extend(
            keys.iter()
                .map(|_| Change::new(pointer, "rejection.node", ChangeKind::Lifted)),
        );
    }
}
