//! `degrade`: one step on the rejected tool only, from the lightest change to the fallback.

use llmshim_core::keyword::{SNAKE_CASE, class_of};
use llmshim_core::pointer::push_token;
use llmshim_core::{
    Change, ChangeKind, FallbackKind, FallbackReason, KeywordClass, Normalization, json, lift,
};
use serde_json::{Map, Value};

use super::wire::Wire;
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
    /// The schema became the fallback (omitted for Google declarations, `{"type":"object"}` for Code Assist).
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
    let Some(wire) = Wire::of(options.target.rules().rules().envelope) else {
        return DegradeReport::nothing(site, "the target's tools have no envelope to degrade");
    };
    if options.bypass {
        return DegradeReport::nothing(site, "bypassed");
    }
    if !wire.has(request, site) {
        return DegradeReport::nothing(site, "the request has no such tool");
    }
    let mut changes = Vec::new();
    let diagnostics = options.diagnostics;
    let max_nodes = options.budget.max_nodes;
    let pointer = rejection.pointer.as_deref();

    let step = 'step: {
        if let Some(keyword) = rejection.keyword.as_deref()
            && let Some((slot, key)) = wire.slot_mut(request, site)
            && let Some(schema) = slot.get_mut(key)
            && keyword_steps(schema) < MAX_KEYWORD_STEPS
            && keyword_present(schema, pointer, keyword, max_nodes)
        {
            remove_everywhere(
                schema,
                keyword,
                max_nodes,
                diagnostics.then_some(&mut changes),
            );
            note_rejected(schema, keyword);
            break 'step Ok(Step::Keyword);
        }
        if let Some(holder) = wire.strict_holder_mut(request, site)
            && holder.get("strict") == Some(&Value::Bool(true))
        {
            holder.insert("strict".to_owned(), Value::Bool(false));
            if diagnostics {
                changes.push(Change::new("", "rejection.strict", ChangeKind::Relaxed));
            }
            break 'step Ok(Step::Strict);
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
        if at_fallback(wire, slot.get(key), site) {
            break 'step Err("the schema is already at the fallback");
        }
        let declaration = matches!(
            site,
            Site::Tool {
                declaration: Some(_),
                ..
            }
        );
        match (declaration, wire.declaration_fallback) {
            (true, None) => {
                if let Some(old) = json::remove(slot, key) {
                    json::dismantle(old);
                }
            }
            (true, Some(ty)) => replace(slot, key, type_only(ty)),
            (false, _) => replace(slot, key, fallback()),
        }
        if diagnostics {
            changes.push(Change::new("", "rejection.fallback", ChangeKind::Relaxed));
        }
        Ok(Step::Fallback)
    };

    let step = match step {
        Ok(step) => step,
        Err(reason) => return DegradeReport::nothing(site, reason),
    };
    let mut report = Normalization::default();
    report.changed = true;
    report.used_fallback = step == Step::Fallback;
    report.strict = wire
        .strict_holder_mut(request, site)
        .is_some_and(|h| h.get("strict") == Some(&Value::Bool(true)));
    if step == Step::Fallback {
        report.fallback_reason = Some(FallbackReason::new(
            FallbackKind::ProviderLimit,
            pointer.unwrap_or_default(),
            format!("the provider rejected the schema: {}", rejection.message),
        ));
    }
    report.changes = changes;
    DegradeReport {
        site,
        step: Some(step),
        report,
        reason: None,
    }
}

/// The fallback schema of §6.3.
fn fallback() -> Value {
    let mut m = Map::new();
    m.insert("type".to_owned(), Value::String("object".to_owned()));
    m.insert("properties".to_owned(), Value::Object(Map::new()));
    Value::Object(m)
}

/// `{"type": ty}`.
fn type_only(ty: &str) -> Value {
    let mut m = Map::new();
    m.insert("type".to_owned(), Value::String(ty.to_owned()));
    Value::Object(m)
}

/// Puts `value` under `key`, taking the replaced value apart without recursion.
fn replace(slot: &mut Map<String, Value>, key: &str, value: Value) {
    if let Some(old) = slot.insert(key.to_owned(), value) {
        json::dismantle(old);
    }
}

/// Whether the schema (or its absence) is what the fallback sends.
fn at_fallback(wire: &Wire, schema: Option<&Value>, site: Site) -> bool {
    let declaration = matches!(
        site,
        Site::Tool {
            declaration: Some(_),
            ..
        }
    );
    match schema {
        None => declaration,
        Some(s) => {
            *s == fallback()
                || (declaration
                    && wire
                        .declaration_fallback
                        .is_some_and(|ty| *s == type_only(ty)))
        }
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
fn keyword_present(schema: &Value, pointer: Option<&str>, keyword: &str, max_nodes: usize) -> bool {
    match pointer {
        Some(p) => schema
            .pointer(p)
            .and_then(|n| n.get(keyword))
            .is_some_and(|v| removable(keyword, v)),
        None => {
            let mut found = false;
            visit(schema, max_nodes, |_, map| {
                found |= map.get(keyword).is_some_and(|v| removable(keyword, v));
                !found
            });
            found
        }
    }
}

/// Visits the schema nodes of `schema` (objects reached through subschema keywords, in document order) with an
/// explicit stack, at most `max_nodes` of them; `f` gets each node's pointer and members and says whether to go on.
fn visit(schema: &Value, max_nodes: usize, mut f: impl FnMut(&str, &Map<String, Value>) -> bool) {
    let mut stack: Vec<(String, &Value)> = vec![(String::new(), schema)];
    let mut seen = 0;
    while let Some((pointer, node)) = stack.pop() {
        let Some(map) = node.as_object() else {
            continue;
        };
        seen += 1;
        if seen > max_nodes || !f(&pointer, map) {
            return;
        }
        let mut children = Vec::new();
        for (key, value) in map {
            for (p, child) in subschemas(&pointer, key, value) {
                children.push((p, child));
            }
        }
        stack.extend(children.into_iter().rev());
    }
}

/// The subschemas held by `key: value` of the node at `pointer`, with their pointers.
fn subschemas<'v>(pointer: &str, key: &str, value: &'v Value) -> Vec<(String, &'v Value)> {
    let json_name = SNAKE_CASE
        .iter()
        .find(|(snake, _)| *snake == key)
        .map_or(key, |(_, camel)| *camel);
    let at = |token: &str| {
        let mut p = String::with_capacity(pointer.len() + token.len() + 1);
        p.push_str(pointer);
        push_token(&mut p, token);
        p
    };
    match (class_of(json_name), value) {
        (KeywordClass::MapChildren | KeywordClass::Definitions, Value::Object(members)) => {
            let holder = at(key);
            members
                .iter()
                .map(|(name, v)| {
                    let mut p = holder.clone();
                    push_token(&mut p, name);
                    (p, v)
                })
                .collect()
        }
        (KeywordClass::SingleChild, Value::Object(_)) => vec![(at(key), value)],
        (KeywordClass::ArrayChildren | KeywordClass::SingleChild, Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("{}/{i}", at(key)), v))
            .collect(),
        _ => Vec::new(),
    }
}

/// Removes every occurrence of `keyword` from the schema nodes of `schema`, lifting each into its node's
/// description; an occurrence inside another one's value is removed first, so the outer lift shows it removed.
fn remove_everywhere(
    schema: &mut Value,
    keyword: &str,
    max_nodes: usize,
    mut changes: Option<&mut Vec<Change>>,
) {
    let mut pointers = Vec::new();
    visit(schema, max_nodes, |pointer, map| {
        if map.get(keyword).is_some_and(|v| removable(keyword, v)) {
            pointers.push(pointer.to_owned());
        }
        true
    });
    // Deepest first, so that removing an outer occurrence cannot strand the pointer of an inner one.
    for pointer in pointers.iter().rev() {
        let Some(map) = schema.pointer_mut(pointer).and_then(Value::as_object_mut) else {
            continue;
        };
        let Some(value) = json::remove(map, keyword) else {
            continue;
        };
        lift::append(map, keyword, &value);
        json::dismantle(value);
        if let Some(c) = changes.as_deref_mut() {
            c.push(Change::new(
                pointer.clone(),
                "rejection.keyword",
                ChangeKind::Lifted,
            ));
        }
    }
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
